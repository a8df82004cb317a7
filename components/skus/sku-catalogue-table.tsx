"use client";

import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { createColumnHelper } from "@tanstack/react-table";
import Link from "next/link";
import { useEffect, useMemo } from "react";
import { DataTable } from "@/components/ui/data-table";
import { Pagination } from "@/components/ui/pagination";
import { useUrlState } from "@/components/ui/use-url-state";
import type { SkuPage, SkuRow } from "@/lib/data/skus";
import { SKU_PAGE_SIZES, skuCatalogueFiltersFromSearchParams, skuCatalogueFiltersToSearchParams } from "@/lib/skus/catalogue-filters";
import type { SkuCatalogueFilters } from "@/lib/skus/catalogue-filters";

async function fetchSkus(filters: SkuCatalogueFilters): Promise<SkuPage> {
  const response = await fetch(`/api/skus?${skuCatalogueFiltersToSearchParams(filters)}`, { cache: "no-store" });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: string } | null;
    throw new Error(body?.error ?? `The catalogue could not be loaded (HTTP ${response.status})`);
  }
  return response.json();
}

const dateTime = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" });

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
    cell: (info) => <time dateTime={info.getValue()}>{dateTime.format(new Date(info.getValue()))}</time>,
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

export function SkuCatalogueTable() {
  const { searchParams, update } = useUrlState();
  const queryString = searchParams.toString();
  const parsed = useMemo(() => skuCatalogueFiltersFromSearchParams(new URLSearchParams(queryString)), [queryString]);
  const filters: SkuCatalogueFilters = useMemo(() => (parsed.success ? parsed.data : { page: 1, size: 25 }), [parsed]);
  const queryClient = useQueryClient();

  // The key starts with "skus": a portfolio.sku notification invalidates every page at once
  // (components/live/live-updates.tsx), so a SKU turns "confirmed" without a reload.
  const query = useQuery({
    queryKey: ["skus", filters],
    queryFn: () => fetchSkus(filters),
    placeholderData: keepPreviousData,
  });
  const pageCount = query.data ? Math.ceil(query.data.total / query.data.size) : null;

  useEffect(() => {
    if (pageCount !== null && filters.page < pageCount) {
      const next = { ...filters, page: filters.page + 1 };
      void queryClient.prefetchQuery({ queryKey: ["skus", next], queryFn: () => fetchSkus(next) });
    }
  }, [filters, pageCount, queryClient]);

  return (
    <div className="space-y-4">
      <form
        key={queryString}
        role="search"
        className="flex flex-wrap items-end gap-3 rounded-lg border border-zinc-200 bg-white p-4 text-sm"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          update({ search: String(form.get("search") ?? "").trim() });
        }}
      >
        <label htmlFor="sku-search" className="flex flex-col gap-1">
          Search code or title
          <input
            id="sku-search"
            name="search"
            type="search"
            defaultValue={filters.search ?? ""}
            className="w-72 rounded-md border border-zinc-300 px-2 py-1"
          />
        </label>
        <button type="submit" className="rounded-md bg-brand-700 px-3 py-1.5 font-medium text-white">
          Search
        </button>
        {filters.search ? (
          <button type="button" className="rounded-md border border-zinc-300 px-3 py-1.5" onClick={() => update({ search: null })}>
            Clear
          </button>
        ) : null}
      </form>

      {!parsed.success ? <p role="alert" className="text-sm text-red-700">Some settings in the address are invalid and were ignored.</p> : null}

      {query.isError ? (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-800">
          {query.error.message}{" "}
          <button type="button" className="underline" onClick={() => void query.refetch()}>
            Try again
          </button>
        </p>
      ) : (
        <DataTable
          rows={query.data?.items ?? []}
          columns={columns}
          getRowId={(row) => row.id}
          isPending={query.isPending}
          isFetching={query.isFetching}
          empty={filters.search ? "No SKU matches this search." : "No SKUs yet. Create one with “New SKU”."}
          caption="SKUs created from this dashboard, newest first"
        />
      )}

      <Pagination
        page={filters.page}
        pageCount={pageCount}
        size={filters.size}
        sizes={SKU_PAGE_SIZES}
        isFetching={query.isFetching}
        onPage={(page) => update({ page: String(page) })}
        onSize={(size) => update({ size: String(size) })}
      />
    </div>
  );
}
