"use client";

import { createColumnHelper } from "@tanstack/react-table";
import Link from "next/link";
import { FilterActions } from "@/components/ui/filter-actions";
import { PagedTable } from "@/components/ui/paged-table";
import { usePagedQuery } from "@/components/ui/use-paged-query";
import { fetchApi } from "@/lib/api-client";
import { isoToLocal, localToIso } from "@/lib/datetime-local";
import type { WebhookEventPage, WebhookEventRow } from "@/lib/data/webhook-events";
import { WEBHOOK_DOMAINS } from "@/lib/marketplace/schemas/webhook";
import { EVENT_PAGE_SIZES, eventFiltersFromSearchParams, eventFiltersToSearchParams, PROCESSING_STATES } from "@/lib/webhooks/event-filters";
import type { EventFilters } from "@/lib/webhooks/event-filters";
import { formatDate } from "@/lib/format";

const fetchEvents = (filters: EventFilters) => fetchApi<WebhookEventPage>(`/api/events?${eventFiltersToSearchParams(filters)}`);

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


const FALLBACK_FILTERS: EventFilters = { page: 1, size: 25 };

export function EventLogTable() {
  const paged = usePagedQuery({
    key: "events",
    parse: eventFiltersFromSearchParams,
    fallback: FALLBACK_FILTERS,
    fetchPage: fetchEvents,
    hasNext: (data, current) => current.page * current.size < data.total,
  });
  const { filters, queryString, query, update } = paged;
  const pageCount = query.data ? Math.ceil(query.data.total / query.data.size) : null;

  return (
    <div className="space-y-4">
      <form
        className="grid gap-3 rounded-lg border border-zinc-200 bg-white p-4 text-sm sm:grid-cols-6"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          update({
            domain: String(form.get("domain") ?? ""),
            status: String(form.get("status") ?? "").trim(),
            resource: String(form.get("resource") ?? "").trim(),
            processing: String(form.get("processing") ?? ""),
            from: localToIso(String(form.get("from") ?? "")),
            to: localToIso(String(form.get("to") ?? "")),
          });
        }}
        key={queryString}
      >
        <label className="flex flex-col gap-1">
          Domain
          <select name="domain" defaultValue={filters.domain ?? ""} className="rounded-md border border-zinc-300 px-2 py-1">
            <option value="">Any</option>
            {Object.keys(WEBHOOK_DOMAINS).map((domain) => (
              <option key={domain} value={domain}>
                {domain}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          Status
          <input name="status" defaultValue={filters.status ?? ""} className="rounded-md border border-zinc-300 px-2 py-1" />
        </label>
        <label className="flex flex-col gap-1">
          Resource id
          <input name="resource" defaultValue={filters.resource ?? ""} className="rounded-md border border-zinc-300 px-2 py-1" />
        </label>
        <label className="flex flex-col gap-1">
          Processing
          <select name="processing" defaultValue={filters.processing ?? ""} className="rounded-md border border-zinc-300 px-2 py-1">
            <option value="">Any</option>
            {PROCESSING_STATES.map((state) => (
              <option key={state} value={state}>
                {state}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          From
          <input type="datetime-local" name="from" defaultValue={isoToLocal(filters.from)} className="rounded-md border border-zinc-300 px-2 py-1" />
        </label>
        <label className="flex flex-col gap-1">
          To
          <input type="datetime-local" name="to" defaultValue={isoToLocal(filters.to)} className="rounded-md border border-zinc-300 px-2 py-1" />
        </label>
        <FilterActions className="sm:col-span-6" onClear={() => update({ domain: null, status: null, resource: null, processing: null, from: null, to: null })} />
      </form>

      <PagedTable
        paged={paged}
        rows={query.data?.items ?? []}
        columns={columns}
        getRowId={(row) => row.id}
        feature="your events"
        empty="No events match these filters yet."
        caption="Webhook events, newest first"
        pageCount={pageCount}
        sizes={EVENT_PAGE_SIZES}
      />
    </div>
  );
}
