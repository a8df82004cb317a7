"use client";

import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { createColumnHelper } from "@tanstack/react-table";
import Link from "next/link";
import { useEffect, useMemo } from "react";
import { ProblemNotice } from "@/components/platform/problem-notice";
import { DataTable } from "@/components/ui/data-table";
import { Pagination } from "@/components/ui/pagination";
import { useUrlState } from "@/components/ui/use-url-state";
import { ApiError, fetchApi } from "@/lib/api-client";
import type { PricesPage } from "@/lib/data/prices";
import type { Price } from "@/lib/marketplace/schemas/price";
import { formatMoney } from "@/lib/money";
import { PRICE_PAGE_SIZES, priceFiltersFromSearchParams, priceFiltersToSearchParams } from "@/lib/prices/price-filters";
import type { PriceFilters } from "@/lib/prices/price-filters";

const fetchPrices = (filters: PriceFilters) => fetchApi<PricesPage>(`/api/prices?${priceFiltersToSearchParams(filters)}`);

const dateTime = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" });
const column = createColumnHelper<Price>();

export function PricesTable() {
  const { searchParams, update } = useUrlState();
  const queryString = searchParams.toString();
  const parsed = useMemo(() => priceFiltersFromSearchParams(new URLSearchParams(queryString)), [queryString]);
  const filters: PriceFilters = useMemo(
    () => (parsed.success ? parsed.data : { sort: "created_at:desc", page: 1, size: 25 }),
    [parsed],
  );
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: ["prices", filters], queryFn: () => fetchPrices(filters), placeholderData: keepPreviousData });

  useEffect(() => {
    if (query.data?.hasNext) {
      const next = { ...filters, page: filters.page + 1 };
      void queryClient.prefetchQuery({ queryKey: ["prices", next], queryFn: () => fetchPrices(next) });
    }
  }, [filters, query.data?.hasNext, queryClient]);

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
        cell: (info) => <time dateTime={info.getValue()}>{dateTime.format(new Date(info.getValue()))}</time>,
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
  const problem = query.error instanceof ApiError ? query.error.problem : null;

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
        <button type="submit" className="rounded-md bg-brand-700 px-3 py-1.5 font-medium text-white">
          Apply filters
        </button>
        <button type="button" className="rounded-md border border-zinc-300 px-3 py-1.5" onClick={() => update({ sku: null, type: null })}>
          Clear
        </button>
      </form>

      {!parsed.success ? <p role="alert" className="text-sm text-red-700">Some filters in the address are invalid and were ignored.</p> : null}

      {problem && problem.kind !== "error" ? (
        <ProblemNotice problem={problem} feature="your prices" />
      ) : query.isError ? (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-800">
          {query.error.message}{" "}
          <button type="button" className="underline" onClick={() => void query.refetch()}>
            Try again
          </button>
        </p>
      ) : (
        <DataTable
          rows={query.data?.rows ?? []}
          columns={columns}
          getRowId={(row) => row.id}
          isPending={query.isPending}
          isFetching={query.isFetching}
          empty="No prices match these filters."
          caption="Prices"
        />
      )}

      <Pagination
        page={filters.page}
        pageCount={pageCount}
        size={filters.size}
        sizes={PRICE_PAGE_SIZES}
        isFetching={query.isFetching}
        onPage={(page) => update({ page: String(page) })}
        onSize={(size) => update({ size: String(size) })}
      />
    </div>
  );
}
