"use client";

import { createColumnHelper } from "@tanstack/react-table";
import Link from "next/link";
import { PagedTable } from "@/components/ui/paged-table";
import { TableFilters } from "@/components/ui/table-filters";
import { usePagedQuery } from "@/components/ui/use-paged-query";
import { eventsTable } from "@/lib/webhooks/event-params";
import type { EventPage, WebhookEventRow } from "@/lib/webhooks/event-rows";
import { formatDate } from "@/lib/format";

const column = createColumnHelper<WebhookEventRow>();
const columns = [
  column.accessor("receivedAt", { header: "Received", cell: (info) => formatDate(info.getValue(), "dateTimeSeconds") }),
  column.accessor("domain", { header: "Domain", cell: (info) => info.getValue() ?? "—" }),
  column.accessor("status", { header: "Status", cell: (info) => info.getValue() ?? "—" }),
  column.accessor((row) => row.orderId ?? row.resourceId, {
    id: "resource",
    header: "Resource",
    cell: (info) => <span className="font-mono text-xs">{info.getValue() ?? "—"}</span>,
  }),
  column.accessor("processingState", {
    header: "Processing",
    cell: (info) => {
      const { valid, attempts, source } = info.row.original;
      if (!valid) return <span className="text-red-700">invalid</span>;
      const state = info.getValue();
      return (
        <span className={state === "dead" ? "font-medium text-red-700" : state === "retrying" ? "text-amber-700" : undefined}>
          {state}
          {attempts > 1 ? ` (${attempts} attempts)` : ""}
          {source === "reconciliation" ? <span className="ml-1 rounded bg-zinc-100 px-1 text-xs text-zinc-700">reconciled</span> : null}
        </span>
      );
    },
  }),
  column.accessor("duplicateCount", { header: "Duplicates", cell: (info) => info.getValue() || "" }),
  column.display({
    id: "open",
    header: "",
    cell: (info) => (
      <Link href={`/webhooks/events/${info.row.original.id}`} className="text-brand-700 hover:underline">
        Details
      </Link>
    ),
  }),
];


/** `urlValid`: whether the server accepted the filters of the URL the page was opened with. */
export function EventLogTable({ urlValid }: { urlValid: boolean }) {
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
        feature="your events"
        empty="No events match these filters yet."
        caption="Webhook events, newest first"
        pageCount={pageCount}
        sizes={eventsTable.sizes}
      />
    </div>
  );
}
