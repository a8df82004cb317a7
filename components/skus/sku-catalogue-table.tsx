"use client";

import { createColumnHelper } from "@tanstack/react-table";
import Link from "next/link";
import { PagedTable } from "@/components/ui/paged-table";
import { TableFilters } from "@/components/ui/table-filters";
import { usePagedQuery } from "@/components/ui/use-paged-query";
import { skuCatalogueTable } from "@/lib/skus/catalogue-params";
import type { SkuPage, SkuRow } from "@/lib/skus/sku-rows";
import { formatDate } from "@/lib/format";


/** "created" is the status the portfolio.sku notification carries (spec: Domains and statuses). */
export function SkuStatusBadge({ status }: { status: string }) {
  return status === "created" ? (
    <span className="rounded bg-brand-100 px-2 py-0.5 text-xs font-medium text-brand-900">Confirmed by webhook</span>
  ) : (
    <span className="rounded bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900" title="Waiting for the marketplace's portfolio.sku notification">
      Imported
    </span>
  );
}

const column = createColumnHelper<SkuRow>();
const columns = [
  column.accessor("code", {
    header: "Code",
    cell: (info) => (
      <Link href={`/skus/${info.row.original.id}`} className="font-medium text-brand-700 hover:underline">
        {info.getValue()}
      </Link>
    ),
  }),
  column.accessor("title", { header: "Title" }),
  column.accessor("status", { header: "Status", cell: (info) => <SkuStatusBadge status={info.getValue()} /> }),
  column.accessor("createdAt", {
    header: "Created",
    cell: (info) => <time dateTime={info.getValue()}>{formatDate(info.getValue())}</time>,
  }),
  column.accessor("id", { header: "Id", cell: (info) => <span className="font-mono text-xs">{info.getValue()}</span> }),
  column.display({
    id: "new-version",
    header: "",
    cell: (info) => (
      <Link
        href={`/skus/new?from=${info.row.original.id}`}
        className="whitespace-nowrap text-brand-700 hover:underline"
        aria-label={`New version of ${info.row.original.code}`}
      >
        New version
      </Link>
    ),
  }),
];

/** `urlValid`: whether the server accepted the filters of the URL the page was opened with. */
export function SkuCatalogueTable({ urlValid }: { urlValid: boolean }) {
  // The key "skus": a portfolio.sku notification invalidates every page at once
  // (components/live/live-updates.tsx), so a SKU turns "confirmed" without a reload.
  const paged = usePagedQuery({ key: "skus", table: skuCatalogueTable, endpoint: "/api/skus", urlValid, hasNext: (data: SkuPage) => data.hasNext });
  const { filters, queryString, query, update } = paged;
  const pageCount = query.data?.total != null ? Math.ceil(query.data.total / query.data.size) : null;

  return (
    <div className="space-y-4">
      <TableFilters
        key={queryString}
        filters={skuCatalogueTable.filters}
        state={filters}
        update={update}
        submitLabel="skus.filters.submit"
        className="flex flex-wrap items-end gap-3 rounded-lg border border-zinc-200 bg-white p-4 text-sm"
      />

      <PagedTable
        paged={paged}
        rows={query.data?.rows ?? []}
        columns={columns}
        getRowId={(row) => row.id}
        feature="your SKUs"
        empty={filters.search ? "No SKU matches this search." : "No SKUs yet. Create one with “New SKU”."}
        caption="SKUs created from this dashboard, newest first"
        pageCount={pageCount}
        sizes={skuCatalogueTable.sizes}
      />
    </div>
  );
}
