"use client";

import { createColumnHelper } from "@tanstack/react-table";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useMemo } from "react";
import { PagedTable } from "@/components/ui/paged-table";
import { TableFilters } from "@/components/ui/table-filters";
import { usePagedQuery } from "@/components/ui/use-paged-query";
import { useDisplayFormat } from "@/lib/format";
import type { DisplayFormat } from "@/lib/format";
import { eventsTable } from "@/lib/webhooks/event-params";
import { processingStateWord } from "@/lib/webhooks/processing-state-word";
import type { EventPage, WebhookEventRow } from "@/lib/webhooks/event-rows";

const column = createColumnHelper<WebhookEventRow>();

/** The table's columns, with their words in the reader's language. */
function eventColumns(t: ReturnType<typeof useTranslations<"webhooks">>, format: DisplayFormat) {
  return [
    column.accessor("receivedAt", { header: t("events.columns.received"), cell: (info) => format.date(info.getValue(), "dateTimeSeconds") }),
    column.accessor("domain", { header: t("events.columns.domain"), cell: (info) => info.getValue() ?? "—" }),
    column.accessor("status", { header: t("events.columns.status"), cell: (info) => info.getValue() ?? "—" }),
    column.accessor((row) => row.orderId ?? row.resourceId, {
      id: "resource",
      header: t("events.columns.resource"),
      cell: (info) => <span className="font-mono text-xs">{info.getValue() ?? "—"}</span>,
    }),
    column.accessor("processingState", {
      header: t("events.columns.processing"),
      cell: (info) => {
        const { valid, attempts, source, heldUntil } = info.row.original;
        if (!valid) return <span className="text-red-700">{t("events.invalid")}</span>;
        const state = info.getValue();
        return (
          <span className={state === "dead" ? "font-medium text-red-700" : state === "retrying" ? "text-amber-700" : undefined}>
            {processingStateWord(t, state)}
            {attempts > 1 ? ` ${t("events.attempts", { count: attempts })}` : ""}
            {source === "reconciliation" ? <span className="ml-1 rounded bg-zinc-100 px-1 text-xs text-zinc-700">{t("events.reconciled")}</span> : null}
            {heldUntil ? <span className="ml-1 rounded bg-amber-50 px-1 text-xs text-amber-800">{t("events.held")}</span> : null}
          </span>
        );
      },
    }),
    column.accessor("duplicateCount", { header: t("events.columns.duplicates"), cell: (info) => (info.getValue() ? format.count(info.getValue()) : "") }),
    column.display({
      id: "open",
      header: "",
      cell: (info) => (
        <Link href={`/webhooks/events/${info.row.original.id}`} className="text-brand-700 hover:underline">
          {t("events.details")}
        </Link>
      ),
    }),
  ];
}

/** `urlValid`: whether the server accepted the filters of the URL the page was opened with. */
export function EventLogTable({ urlValid }: { urlValid: boolean }) {
  const t = useTranslations("webhooks");
  const format = useDisplayFormat();
  const columns = useMemo(() => eventColumns(t, format), [t, format]);
  const paged = usePagedQuery({ key: "events", table: eventsTable, endpoint: "/api/events", urlValid, hasNext: (data: EventPage) => data.hasNext });
  const { filters, queryString, query, update } = paged;
  const pageCount = query.data?.total != null ? Math.ceil(query.data.total / query.data.size) : null;

  return (
    <div className="space-y-4">
      <TableFilters
        key={queryString}
        filters={eventsTable.filters}
        state={filters}
        update={update}
        className="grid gap-3 rounded-lg border border-zinc-200 bg-white p-4 text-sm sm:grid-cols-6"
      />

      <PagedTable
        paged={paged}
        rows={query.data?.rows ?? []}
        columns={columns}
        getRowId={(row) => row.id}
        feature="yourEvents"
        empty={t("events.empty")}
        caption={t("events.caption")}
        pageCount={pageCount}
        sizes={eventsTable.sizes}
      />
    </div>
  );
}
