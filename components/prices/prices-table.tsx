"use client";

import { createColumnHelper } from "@tanstack/react-table";
import Link from "next/link";
import { useMemo } from "react";
import { FilterActions } from "@/components/ui/filter-actions";
import { PagedTable } from "@/components/ui/paged-table";
import { usePagedQuery } from "@/components/ui/use-paged-query";
import { fetchApi } from "@/lib/api-client";
import type { PricesPage } from "@/lib/data/prices";
import type { Price } from "@/lib/marketplace/schemas/price";
import { formatMoney } from "@/lib/money";
import { PRICE_PAGE_SIZES, priceFiltersFromSearchParams, priceFiltersToSearchParams } from "@/lib/prices/price-filters";
import type { PriceFilters } from "@/lib/prices/price-filters";
import { formatDate } from "@/lib/format";

const fetchPrices = (filters: PriceFilters) => fetchApi<PricesPage>(`/api/prices?${priceFiltersToSearchParams(filters)}`);

const column = createColumnHelper<Price>();

const FALLBACK_FILTERS: PriceFilters = { sort: "created_at:desc", page: 1, size: 25 };

export function PricesTable() {
  const paged = usePagedQuery({
    key: "prices",
    parse: priceFiltersFromSearchParams,
    fallback: FALLBACK_FILTERS,
    fetchPage: fetchPrices,
    hasNext: (data) => data.hasNext,
  });
  const { filters, queryString, query, update } = paged;

  const columns = useMemo(
    () => [
      column.accessor("sku", { header: "SKU", cell: (info) => <span className="font-mono text-xs">{info.getValue()}</span> }),
      column.accessor("type", { header: "Type" }),
      column.accessor((row) => formatMoney(row), { id: "amount", header: "Amount", cell: (info) => <span className="tabular-nums">{info.getValue()}</span> }),
      column.accessor("created_at", {
        header: () => (
          <button
            type="button"
            className="inline-flex items-center gap-1 font-medium hover:text-zinc-900"
            aria-label="Sort by created"
            onClick={() => update({ sort: filters.sort === "created_at:desc" ? "created_at:asc" : "created_at:desc" })}
          >
            Created <span aria-hidden="true">{filters.sort === "created_at:desc" ? "↓" : "↑"}</span>
          </button>
        ),
        cell: (info) => <time dateTime={info.getValue()}>{formatDate(info.getValue())}</time>,
      }),
      column.display({
        id: "open",
        header: "",
        cell: (info) => (
          <Link href={`/prices/${info.row.original.id}`} className="text-brand-700 hover:underline">
            History &amp; edit
          </Link>
        ),
      }),
    ],
    [filters.sort, update],
  );

  const pageCount = query.data?.total != null ? Math.ceil(query.data.total / filters.size) : null;

  return (
    <div className="space-y-4">
      <form
        key={queryString}
        className="flex flex-wrap items-end gap-3 rounded-lg border border-zinc-200 bg-white p-4 text-sm"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          update({ sku: String(form.get("sku") ?? "").trim(), type: String(form.get("type") ?? "") });
        }}
      >
        <label className="flex flex-col gap-1">
          SKU code
          <input name="sku" defaultValue={filters.sku ?? ""} className="rounded-md border border-zinc-300 px-2 py-1 font-mono" />
        </label>
        <label className="flex flex-col gap-1">
          Type
          <select name="type" defaultValue={filters.type ?? ""} className="rounded-md border border-zinc-300 px-2 py-1">
            <option value="">Any</option>
            <option value="list">list</option>
            <option value="sell">sell</option>
          </select>
        </label>
        <FilterActions onClear={() => update({ sku: null, type: null })} />
      </form>

      <PagedTable
        paged={paged}
        rows={query.data?.rows ?? []}
        columns={columns}
        getRowId={(row) => row.id}
        feature="your prices"
        empty="No prices match these filters."
        caption="Prices"
        pageCount={pageCount}
        sizes={PRICE_PAGE_SIZES}
      />
    </div>
  );
}
