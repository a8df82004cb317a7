"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useTimeZone, useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { LabelsPanel } from "@/features/shipping/components/labels-panel";
import { StageBadge } from "@/features/shipping/components/stage-badge";
import { ShopLink, useShopId } from "@/components/shop-link";
import { useCan } from "@/components/shop-role";
import { ActionButton } from "@/components/ui/action-button";
import { cardTable } from "@/components/ui/card-table";
import { activeFilterCount, FiltersPanel } from "@/components/ui/filters-panel";
import { Pagination } from "@/components/ui/pagination";
import { TableFilters } from "@/components/ui/table-filters";
import { queryKeys } from "@/lib/tables/query-keys";
import { usePagedQuery } from "@/components/ui/use-paged-query";
import { DEFAULT_TIME_ZONE } from "@/i18n/config";
import { setPackingStageAction } from "@/features/shipping/actions";
import { useDisplayFormat } from "@/lib/format";
import { deadlineOf } from "@/lib/orders/ship-by";
import type { Deadline } from "@/lib/orders/ship-by";
import { MAX_SELECTED_IDS, MAX_SELECTION_ORDERS, selectionSearchParams, shippingTable } from "@/features/shipping/shipping-params";
import type { ShippingFilters, ShippingPage, ShippingRow, ShippingSelection } from "@/features/shipping/shipping-params";
import { PACKING_STAGES } from "@/features/shipping/stages";
import { orderLabel } from "@/lib/words/order-reference";
import type { PackingStage } from "@/features/shipping/stages";

// The shipping page's table: the shop's orders to ship with their ship-by and packing stage, a
// filter by day and stage (in the URL, like every table), and a selection (orders ticked one by
// one, or every order of the filter: "All to ship today") for the picking list, the labels PDF and
// marking a stage. On a phone each order is a card (components/ui/card-table.ts).

/** Ticked ids, or every order of the filter the selection was made under. */
type Picked = { kind: "ids"; ids: ReadonlySet<string> } | { kind: "all" };
const NOTHING: Picked = { kind: "ids", ids: new Set() };

/** The filters a selection belongs to: changing them starts a new one (the old may hide what it holds). */
const filterKeyOf = (filters: Pick<ShippingFilters, "due" | "stage">) => JSON.stringify([filters.due ?? null, filters.stage ?? []]);

/** A checkbox with a touch-sized target around it on a phone. */
function Checkbox({ label, checked, onChange }: { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="-m-2.5 inline-flex min-h-11 min-w-11 items-center justify-center md:m-0 md:min-h-0 md:min-w-0">
      <input type="checkbox" aria-label={label} checked={checked} onChange={(event) => onChange(event.target.checked)} />
    </label>
  );
}

export function ShippingTable({ urlValid }: { urlValid: boolean }) {
  const paged = usePagedQuery({
    resource: "shipping",
    table: shippingTable,
    endpoint: "/shipping",
    urlValid,
    hasNext: (data: ShippingPage) => data.hasNext,
  });
  const { filters, filtersValid, queryString, query, update } = paged;
  const t = useTranslations("shipping");
  const tables = useTranslations("common.table");
  const format = useDisplayFormat();
  const timeZone = useTimeZone() ?? DEFAULT_TIME_ZONE;
  // The moment "today" and "late" are judged against: once per page view, as on the orders list.
  const [now] = useState(() => new Date());
  const canPack = useCan("orders.packing");
  const canSeeLabels = useCan("orders.customerData");
  const queryClient = useQueryClient();
  const shopId = useShopId() ?? "";

  const filterKey = filterKeyOf(filters);
  const [stored, setStored] = useState<{ key: string; picked: Picked }>({ key: filterKey, picked: NOTHING });
  const picked = stored.key === filterKey ? stored.picked : NOTHING;
  const pick = (next: Picked, key = filterKey) => setStored({ key, picked: next });

  const rows = query.data?.rows ?? [];
  const total = query.data?.total ?? null;
  const ids = picked.kind === "ids" ? picked.ids : null;
  const isPicked = (id: string) => ids === null || ids.has(id);
  const pageAllPicked = rows.length > 0 && rows.every((row) => isPicked(row.id));
  const count = ids === null ? (total ?? 0) : ids.size;
  const tooMany = ids !== null && ids.size > MAX_SELECTED_IDS;

  const selection: ShippingSelection | null =
    ids === null
      ? { all: { ...(filters.due ? { due: filters.due } : {}), ...(filters.stage?.length ? { stage: filters.stage } : {}) } }
      : ids.size > 0 && !tooMany
        ? { ids: [...ids] }
        : null;

  const toggle = (id: string, checked: boolean) => {
    // Unticking one order of "every order of the filter" leaves the rest of this page ticked.
    const next = new Set(ids ?? rows.map((row) => row.id));
    if (checked) next.add(id);
    else next.delete(id);
    pick({ kind: "ids", ids: next });
  };
  const togglePage = (checked: boolean) => {
    const next = new Set(ids ?? []);
    for (const row of rows) {
      if (checked) next.add(row.id);
      else next.delete(row.id);
    }
    pick({ kind: "ids", ids: next });
  };
  const allToShipToday = () => {
    const next = { due: "today" as const, stage: filters.stage };
    update({ due: "today" });
    pick({ kind: "all" }, filterKeyOf(next));
  };

  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const [pending, startTransition] = useTransition();
  const mark = (target: ShippingSelection, stage: PackingStage) =>
    startTransition(async () => {
      try {
        const answer = await setPackingStageAction(shopId, { selection: target, stage });
        setMessage({ text: answer.message, error: answer.status === "error" });
      } catch {
        setMessage({ text: t("stageAction.failed"), error: true });
      }
      await queryClient.invalidateQueries({ queryKey: queryKeys.shipping.all });
    });
  const [bulkStage, setBulkStage] = useState<PackingStage>("picked");

  const problem = query.isError;
  const pageCount = total !== null ? Math.ceil(total / filters.size) : null;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-2 text-sm" role="group" aria-label={t("table.quickFilters")}>
        <ActionButton
          action={allToShipToday}
          aria-pressed={picked.kind === "all" && filters.due === "today"}
          className="min-h-11 rounded-full border border-brand-700 bg-white px-4 py-1 font-medium text-brand-700 hover:bg-brand-50 aria-pressed:bg-brand-700 aria-pressed:text-white md:min-h-0 md:px-3"
        >
          {t("table.allToday")}
        </ActionButton>
        <ActionButton
          aria-pressed={filters.due === "late"}
          action={() => update({ due: filters.due === "late" ? null : "late" })}
          className="min-h-11 rounded-full border border-zinc-300 bg-white px-4 py-1 font-medium hover:bg-zinc-50 aria-pressed:border-brand-700 aria-pressed:bg-brand-700 aria-pressed:text-white md:min-h-0 md:px-3"
        >
          {t("table.late")}
        </ActionButton>
      </div>
      <FiltersPanel active={activeFilterCount(filters, shippingTable.filterKeys)}>
        <TableFilters
          key={queryString}
          filters={shippingTable.filters}
          state={filters}
          update={update}
          className="grid gap-3 rounded-lg border border-zinc-200 bg-white p-4 text-sm sm:grid-cols-2"
        />
      </FiltersPanel>

      {/* What is selected and what to do with it. Not a sticky bar: on a phone it would cover the cards' controls. */}
      <div
        className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-lg border border-zinc-200 bg-white p-3 text-sm"
        role="group"
        aria-label={t("selection.actions")}
        data-testid="selection-bar"
      >
        <p className="basis-full font-medium md:basis-auto" role="status" data-testid="selection-count">
          {count === 0 ? t("selection.none") : ids === null ? t("selection.all", { count }) : t("selection.ids", { count })}
          {ids === null && count > MAX_SELECTION_ORDERS ? ` ${t("selection.capped", { max: MAX_SELECTION_ORDERS })}` : null}
        </p>
        {tooMany ? (
          <p role="alert" className="basis-full text-red-800">
            {t("selection.tooMany", { max: MAX_SELECTED_IDS })}
          </p>
        ) : null}
        {count > 0 ? (
          <button type="button" onClick={() => pick(NOTHING)} className="min-h-11 px-1 text-brand-700 underline md:min-h-0">
            {t("selection.clear")}
          </button>
        ) : null}
        {selection && count > 0 ? (
          <ShopLink
            href={`/shipping/picking?${selectionSearchParams(selection)}`}
            className="inline-flex min-h-11 items-center rounded-md bg-brand-700 px-4 font-medium text-white hover:bg-brand-900 md:min-h-9 md:px-3"
          >
            {t("selection.pickingList")}
          </ShopLink>
        ) : (
          <span
            aria-disabled="true"
            className="inline-flex min-h-11 items-center rounded-md bg-zinc-200 px-4 font-medium text-zinc-700 md:min-h-9 md:px-3"
          >
            {t("selection.pickingList")}
          </span>
        )}
        {canPack ? (
          <span className="inline-flex flex-wrap items-center gap-2">
            <label className="inline-flex items-center gap-2">
              {t("selection.markAs")}
              <select
                value={bulkStage}
                onChange={(event) => setBulkStage(event.target.value as PackingStage)}
                className="min-h-11 rounded-md border border-zinc-300 bg-white px-2 md:min-h-0 md:py-1"
              >
                {PACKING_STAGES.map((stage) => (
                  <option key={stage} value={stage}>
                    {t(`stages.${stage}`)}
                  </option>
                ))}
              </select>
            </label>
            <button
              type="button"
              disabled={!selection || count === 0 || pending}
              onClick={() => selection && mark(selection, bulkStage)}
              className="min-h-11 rounded-md border border-zinc-300 bg-white px-4 py-1.5 font-medium hover:bg-zinc-50 disabled:opacity-50 md:min-h-0 md:px-3"
            >
              {t("selection.mark")}
            </button>
          </span>
        ) : null}
        {canSeeLabels ? <LabelsPanel selection={count > 0 ? selection : null} disabled={count === 0} /> : null}
        {message ? (
          <p
            role={message.error ? "alert" : "status"}
            className={`basis-full ${message.error ? "text-red-800" : "text-brand-900"}`}
            data-testid="stage-message"
          >
            {message.text}
          </p>
        ) : null}
      </div>

      {!filtersValid ? (
        <p role="alert" className="text-sm text-red-800">
          {tables("invalidFilters")}
        </p>
      ) : null}
      {rows.length > 0 ? (
        // On a phone the header row (with its checkbox) is hidden: "select all" stands above the cards.
        <label className="flex min-h-11 items-center gap-3 text-sm md:hidden">
          <input type="checkbox" checked={pageAllPicked} onChange={(event) => togglePage(event.target.checked)} />
          {t("table.selectPage")}
        </label>
      ) : null}
      {problem ? (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900">
          {query.error.message}{" "}
          <button type="button" className="underline" onClick={() => void query.refetch()}>
            {tables("tryAgain")}
          </button>
        </p>
      ) : (
        <div className={cardTable.frame}>
          <table className={cardTable.table} aria-busy={query.isFetching}>
            <caption className="sr-only">{t("table.caption")}</caption>
            <thead className={cardTable.head}>
              <tr>
                <th scope="col" className={cardTable.headCell}>
                  <Checkbox label={t("table.selectPage")} checked={pageAllPicked} onChange={togglePage} />
                </th>
                {(["order", "shipBy", ...(canSeeLabels ? (["customer"] as const) : []), "items", "parcels", "stage"] as const).map(
                  (column) => (
                    <th key={column} scope="col" className={cardTable.headCell}>
                      {t(`table.columns.${column}`)}
                    </th>
                  ),
                )}
              </tr>
            </thead>
            <tbody
              aria-busy={query.isFetching && !query.isPending}
              className={`${cardTable.body} ${query.isFetching && !query.isPending ? "opacity-60 transition-opacity" : ""}`}
            >
              {rows.map((row) => (
                <Row
                  key={row.id}
                  row={row}
                  picked={isPicked(row.id)}
                  onPick={(checked) => toggle(row.id, checked)}
                  canPack={canPack}
                  seesCustomers={canSeeLabels}
                  pending={pending}
                  onStage={(stage) => mark({ ids: [row.id] }, stage)}
                  deadline={deadlineOf(row.shipBy, now, timeZone)}
                  shipBy={format.date(row.shipBy)}
                  items={format.count(row.items)}
                />
              ))}
            </tbody>
          </table>
          {query.isPending ? <p className="p-6 text-center text-sm text-zinc-600">{tables("loading")}</p> : null}
          {!query.isPending && rows.length === 0 ? (
            <p className="rounded-lg border border-zinc-200 bg-white p-6 text-center text-sm text-zinc-600 md:border-0">
              {t("table.empty")}
            </p>
          ) : null}
        </div>
      )}
      <Pagination
        page={filters.page}
        pageCount={pageCount}
        size={filters.size}
        sizes={shippingTable.sizes}
        isFetching={query.isFetching}
        onPage={(page) => update({ page: String(page) })}
        onSize={(size) => update({ size: String(size) })}
      />
    </div>
  );
}

function Row({
  row,
  picked,
  onPick,
  canPack,
  seesCustomers,
  pending,
  onStage,
  deadline,
  shipBy,
  items,
}: {
  row: ShippingRow;
  picked: boolean;
  onPick: (checked: boolean) => void;
  canPack: boolean;
  seesCustomers: boolean;
  pending: boolean;
  onStage: (stage: PackingStage) => void;
  deadline: Deadline;
  shipBy: string;
  items: string;
}) {
  const t = useTranslations("shipping");
  // The short reference a person reads aloud (decision 0018); the order page shows the platform's id.
  const label = orderLabel(row);
  return (
    <tr className={cardTable.row} data-testid="shipping-row" data-order={row.id} data-stage={row.stage}>
      <td className={`${cardTable.cell} ${cardTable.pad}`}>
        <Checkbox label={t("table.selectOrder", { id: label })} checked={picked} onChange={onPick} />
      </td>
      <th scope="row" className={`${cardTable.cell} ${cardTable.pad} text-left font-medium md:font-normal`}>
        <ShopLink
          href={`/orders/${row.id}`}
          aria-label={t("table.orderLink", { id: label })}
          className="inline-flex min-h-11 items-center text-brand-700 tabular-nums hover:underline md:min-h-0"
        >
          {label}
        </ShopLink>
      </th>
      <td className={`${cardTable.labelled} ${cardTable.pad}`} data-label={t("table.columns.shipBy")}>
        <span className="inline-flex flex-wrap items-center gap-1.5">
          <time dateTime={row.shipBy}>{shipBy}</time>
          <DeadlineBadge deadline={deadline} />
        </span>
      </td>
      {seesCustomers ? (
        <td className={`${cardTable.labelled} ${cardTable.pad}`} data-label={t("table.columns.customer")}>
          {row.customerName}
        </td>
      ) : null}
      <td className={`${cardTable.labelled} ${cardTable.pad} tabular-nums`} data-label={t("table.columns.items")}>
        {items}
      </td>
      <td className={`${cardTable.labelled} ${cardTable.pad} tabular-nums`} data-label={t("table.columns.parcels")}>
        {row.openDeliveries}
      </td>
      <td className={`${cardTable.labelled} ${cardTable.pad}`} data-label={t("table.columns.stage")} data-testid="stage-cell">
        {canPack ? (
          <select
            aria-label={t("table.stageOf", { id: label })}
            value={row.stage}
            disabled={pending}
            onChange={(event) => onStage(event.target.value as PackingStage)}
            className="min-h-11 rounded-md border border-zinc-300 bg-white px-2 md:min-h-0 md:py-0.5"
          >
            {PACKING_STAGES.map((stage) => (
              <option key={stage} value={stage}>
                {t(`stages.${stage}`)}
              </option>
            ))}
          </select>
        ) : (
          <StageBadge stage={row.stage} />
        )}
      </td>
    </tr>
  );
}

function DeadlineBadge({ deadline }: { deadline: Deadline }) {
  const t = useTranslations("shipping.table.badges");
  if (deadline === null) return null;
  return deadline === "late" ? (
    <span className="rounded bg-red-100 px-1.5 py-0.5 text-xs font-medium text-red-900">{t("late")}</span>
  ) : (
    <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900">{t("today")}</span>
  );
}
