"use client";

import { createColumnHelper } from "@tanstack/react-table";
import { ShopLink } from "@/components/shop-link";
import { useTranslations } from "next-intl";
import { useMemo } from "react";
import { activeFilterCount, FiltersPanel } from "@/components/ui/filters-panel";
import { PagedTable } from "@/components/ui/paged-table";
import { TableFilters } from "@/components/ui/table-filters";
import { usePagedQuery } from "@/components/ui/use-paged-query";
import { useDisplayFormat } from "@/lib/format";
import type { DisplayFormat } from "@/lib/format";
import { eventsTable } from "@/features/webhooks/events/event-params";
import { processingStateWord } from "@/features/webhooks/events/processing-state-word";
import { eventSubject } from "@/features/webhooks/events/event-rows";
import type { EventPage, WebhookEventRow } from "@/features/webhooks/events/event-rows";
import { eventWord } from "@/lib/words/event-words";
import type { Words } from "@/lib/words/words";

const column = createColumnHelper<WebhookEventRow>();

/**
 * The table's columns, with their words in the reader's language. On a phone each row is a card
 * (components/ui/data-table.tsx) titled by the event's sentence; the codes are on its page.
 */
function eventColumns(t: ReturnType<typeof useTranslations<"webhooks">>, words: Words, format: DisplayFormat) {
  return [
    column.accessor("receivedAt", {
      header: t("events.columns.received"),
      cell: (info) => format.date(info.getValue(), "dateTimeSeconds"),
    }),
    column.accessor((row) => eventWord(words, row.domain, row.status), {
      id: "event",
      header: t("events.columns.event"),
      meta: { cardTitle: true },
      cell: (info) => <span className="font-medium">{info.getValue()}</span>,
    }),
    // What the event is about, as the seller names it: the order's short reference, the SKU's code.
    column.accessor((row) => eventSubject(row), {
      id: "resource",
      header: t("events.columns.resource"),
      cell: (info) => <span className="break-all tabular-nums">{info.getValue()}</span>,
    }),
    column.accessor("processingState", {
      header: t("events.columns.processing"),
      cell: (info) => {
        const { valid, attempts, source, heldUntil } = info.row.original;
        if (!valid) return <span className="text-red-800">{t("events.invalid")}</span>;
        const state = info.getValue();
        return (
          <span className={state === "dead" ? "font-medium text-red-800" : state === "retrying" ? "text-amber-900" : undefined}>
            {processingStateWord(t, state)}
            {attempts > 1 ? ` ${t("events.attempts", { count: attempts })}` : ""}
            {source === "reconciliation" ? (
              <span className="ml-1 rounded bg-zinc-100 px-1 text-xs text-zinc-700">{t("events.reconciled")}</span>
            ) : null}
            {heldUntil ? <span className="ml-1 rounded bg-amber-50 px-1 text-xs text-amber-900">{t("events.held")}</span> : null}
          </span>
        );
      },
    }),
    column.accessor("duplicateCount", {
      header: t("events.columns.duplicates"),
      // None is the rule: a card does not spend a line on it.
      meta: { hideOnPhone: true },
      cell: (info) => (info.getValue() ? format.count(info.getValue()) : ""),
    }),
    column.display({
      id: "open",
      header: () => <span className="sr-only">{t("events.details")}</span>,
      cell: (info) => (
        <ShopLink
          href={`/webhooks/events/${info.row.original.id}`}
          className="inline-flex min-h-11 items-center font-medium text-brand-700 hover:underline md:min-h-0 md:font-normal"
        >
          {t("events.details")}
        </ShopLink>
      ),
    }),
  ];
}

/** The filters folded on a phone: all of them (the log has no quick filters). */
const FOLDED_FILTERS = eventsTable.filterKeys;

/** `urlValid`: whether the server accepted the filters of the URL the page was opened with. */
export function EventLogTable({ urlValid }: { urlValid: boolean }) {
  const t = useTranslations("webhooks");
  const words = useTranslations("words");
  const format = useDisplayFormat();
  const columns = useMemo(() => eventColumns(t, words, format), [t, words, format]);
  const paged = usePagedQuery({
    resource: "events",
    table: eventsTable,
    endpoint: "/events",
    urlValid,
    hasNext: (data: EventPage) => data.hasNext,
  });
  const { filters, queryString, query, update } = paged;
  const pageCount = query.data?.total != null ? Math.ceil(query.data.total / query.data.size) : null;

  return (
    <div className="space-y-4">
      <FiltersPanel active={activeFilterCount(filters, FOLDED_FILTERS)}>
        <TableFilters
          key={queryString}
          filters={eventsTable.filters}
          state={filters}
          update={update}
          className="grid gap-3 rounded-lg border border-zinc-200 bg-white p-4 text-sm sm:grid-cols-2 lg:grid-cols-6"
        />
      </FiltersPanel>

      <PagedTable
        paged={paged}
        rows={query.data?.rows ?? []}
        columns={columns}
        getRowId={(row) => row.id}
        feature="yourEvents"
        empty={t("events.empty")}
        caption={t("events.caption")}
        pageCount={pageCount}
        hasNext={query.data?.hasNext}
        sizes={eventsTable.sizes}
      />
    </div>
  );
}
