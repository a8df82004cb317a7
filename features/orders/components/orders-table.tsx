"use client";

import { createColumnHelper } from "@tanstack/react-table";
import { useTimeZone, useTranslations } from "next-intl";
import { ShopLink } from "@/components/shop-link";
import { useMemo, useState } from "react";
import { DEFAULT_TIME_ZONE } from "@/i18n/config";
import { ExportOrdersButton } from "@/features/orders/components/export-button";
import { OrderStatusBadge } from "@/features/orders/components/order-status-badge";
import { ActionButton } from "@/components/ui/action-button";
import { PagedTable } from "@/components/ui/paged-table";
import { activeFilterCount, FiltersPanel } from "@/components/ui/filters-panel";
import { TableFilters } from "@/components/ui/table-filters";
import { usePagedQuery } from "@/components/ui/use-paged-query";
import type { OrderRow, OrdersPage } from "@/features/orders/order-rows";
import { ordersTable } from "@/features/orders/order-params";
import { useDisplayFormat } from "@/lib/format";
import { deadlineOf } from "@/lib/orders/ship-by";
import type { Deadline } from "@/lib/orders/ship-by";
import { useCan } from "@/components/shop-role";
import { orderLabel } from "@/lib/words/order-reference";

const column = createColumnHelper<OrderRow>();

/** The filters in the folded panel: the deadline has its quick buttons, always in view. */
const FOLDED_FILTERS = ["status", "id", "customer", "from", "to"] as const;

const SORT_HEADERS = {
  created_at: { label: "created", sortBy: "sortByCreated" },
  updated_at: { label: "updated", sortBy: "sortByUpdated" },
} as const;

function SortHeader({ field, sort, onSort }: { field: keyof typeof SORT_HEADERS; sort: string; onSort: (sort: string) => void }) {
  const t = useTranslations("orders.table");
  const [currentField, direction] = sort.split(":");
  const active = currentField === field;
  const next = active && direction === "desc" ? `${field}:asc` : `${field}:desc`;
  const { label, sortBy } = SORT_HEADERS[field];
  return (
    // Named by its visible words (plus the order it sorts in), so a voice-control user who says
    // what they see reaches it; the title tells a mouse user what a click does.
    <ActionButton action={() => onSort(next)} className="inline-flex items-center gap-1 font-medium hover:text-zinc-900" title={t(sortBy)}>
      {t(`columns.${label}`)}
      <span aria-hidden="true">{active ? (direction === "desc" ? "↓" : "↑") : "↕"}</span>
      {active ? <span className="sr-only">{direction === "desc" ? t("newestFirst") : t("oldestFirst")}</span> : null}
    </ActionButton>
  );
}

/** `urlValid`: whether the server accepted the filters of the URL the page was opened with. */
export function OrdersTable({ urlValid }: { urlValid: boolean }) {
  const paged = usePagedQuery({
    resource: "orders",
    table: ordersTable,
    endpoint: "/orders",
    urlValid,
    hasNext: (data: OrdersPage) => data.hasNext,
  });
  const { filters, queryString, query, update } = paged;
  const t = useTranslations("orders.table");
  const canExport = useCan("orders.export");
  // A role that does not see customers gets neither their names nor a search by name (decision 0010).
  const seesCustomers = useCan("orders.customerData");
  const filterDefinitions = useMemo(() => {
    if (seesCustomers) return ordersTable.filters;
    const { customer: _customer, ...rest } = ordersTable.filters;
    return rest;
  }, [seesCustomers]);
  const format = useDisplayFormat();
  // "Today" is the seller's, in the zone of their Settings (i18n/request.ts), as on the server.
  const timeZone = useTimeZone() ?? DEFAULT_TIME_ZONE;

  // The moment "today" and "late" are judged against: once per page view.
  const [now] = useState(() => new Date());
  const columns = useMemo(
    () => [
      column.accessor("id", {
        header: t("columns.order"),
        meta: { cardTitle: true },
        cell: (info) => {
          // The short reference a person reads aloud and searches by (decision 0018); the order page shows the platform's id.
          const label = orderLabel(info.row.original);
          return (
            <ShopLink
              href={`/orders/${info.getValue()}`}
              aria-label={t("orderLink", { id: label })}
              className="inline-flex min-h-11 items-center font-medium text-brand-700 tabular-nums hover:underline md:min-h-0"
            >
              {label}
            </ShopLink>
          );
        },
      }),
      column.accessor("status", { header: t("columns.status"), cell: (info) => <OrderStatusBadge status={info.getValue()} /> }),
      ...(seesCustomers ? [column.accessor("customerName", { header: t("columns.customer") })] : []),
      column.accessor("total", {
        header: t("columns.total"),
        cell: (info) => <span className="tabular-nums">{format.money(info.getValue())}</span>,
      }),
      column.accessor("net", {
        header: t("columns.net"),
        cell: (info) => {
          const net = info.getValue();
          return net ? (
            <span className="tabular-nums" data-testid="row-net">
              {format.money(net)}
            </span>
          ) : (
            <span className="text-zinc-600">—</span>
          );
        },
      }),
      column.accessor("items", { header: t("columns.items"), meta: { hideOnPhone: true }, cell: (info) => format.count(info.getValue()) }),
      column.accessor("shipBy", {
        header: t("columns.shipBy"),
        cell: (info) => {
          const shipBy = info.getValue();
          if (shipBy === null) return <span className="text-zinc-600">—</span>;
          return (
            <span className="inline-flex flex-wrap items-center gap-1.5">
              <time dateTime={shipBy}>{format.date(shipBy)}</time>
              <DeadlineBadge deadline={deadlineOf(shipBy, now, timeZone)} />
            </span>
          );
        },
      }),
      column.accessor("createdAt", {
        meta: { hideOnPhone: true },
        header: () => <SortHeader field="created_at" sort={filters.sort} onSort={(sort) => update({ sort })} />,
        cell: (info) => <time dateTime={info.getValue()}>{format.date(info.getValue())}</time>,
      }),
      column.accessor("updatedAt", {
        meta: { hideOnPhone: true },
        header: () => <SortHeader field="updated_at" sort={filters.sort} onSort={(sort) => update({ sort })} />,
        cell: (info) => <time dateTime={info.getValue()}>{format.date(info.getValue())}</time>,
      }),
    ],
    [filters.sort, update, now, t, format, timeZone, seesCustomers],
  );

  const pageCount = query.data?.total != null ? Math.ceil(query.data.total / filters.size) : null;

  return (
    <div className="space-y-4">
      {canExport ? <ExportOrdersButton query={ordersTable.toSearchParams(filters).toString()} /> : null}
      <div className="flex flex-wrap items-center gap-2 text-sm" role="group" aria-label={t("quickFilters")}>
        {(
          [
            ["today", "shipToday"],
            ["late", "late"],
          ] as const
        ).map(([deadline, label]) => (
          <ActionButton
            key={deadline}
            aria-pressed={filters.deadline === deadline}
            action={() => update({ deadline: filters.deadline === deadline ? null : deadline })}
            className="min-h-11 rounded-full border border-zinc-300 bg-white px-4 py-1 font-medium hover:bg-zinc-50 aria-pressed:border-brand-700 aria-pressed:bg-brand-700 aria-pressed:text-white md:min-h-0 md:px-3"
          >
            {t(label)}
          </ActionButton>
        ))}
      </div>
      <FiltersPanel active={activeFilterCount(filters, FOLDED_FILTERS)}>
        <TableFilters
          key={queryString}
          filters={filterDefinitions}
          state={filters}
          update={update}
          className="grid gap-3 rounded-lg border border-zinc-200 bg-white p-4 text-sm sm:grid-cols-2 md:grid-cols-4"
        />
      </FiltersPanel>

      <PagedTable
        paged={paged}
        rows={query.data?.rows ?? []}
        columns={columns}
        getRowId={(row) => row.id}
        feature="yourOrders"
        empty={t("empty")}
        caption={t("caption")}
        pageCount={pageCount}
        sizes={ordersTable.sizes}
      />
      <p className="text-xs text-zinc-600" data-testid="net-note">
        {t("netNote")}
      </p>
    </div>
  );
}

function DeadlineBadge({ deadline }: { deadline: Deadline }) {
  const t = useTranslations("orders.table.badges");
  if (deadline === null) return null;
  return deadline === "late" ? (
    <span className="rounded bg-red-100 px-1.5 py-0.5 text-xs font-medium text-red-900">{t("late")}</span>
  ) : (
    <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900">{t("today")}</span>
  );
}
