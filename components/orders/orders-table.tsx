"use client";

import { createColumnHelper } from "@tanstack/react-table";
import Link from "next/link";
import { useMemo, useState } from "react";
import { OrderStatusBadge } from "@/components/orders/order-status-badge";
import { FilterActions } from "@/components/ui/filter-actions";
import { PagedTable } from "@/components/ui/paged-table";
import { usePagedQuery } from "@/components/ui/use-paged-query";
import { fetchApi } from "@/lib/api-client";
import { isoToLocal, localToIso } from "@/lib/datetime-local";
import type { OrderRow, OrdersPage } from "@/lib/data/orders";
import { formatMoney } from "@/lib/money";
import {
  DEFAULT_ORDER_SORT,
  ORDER_PAGE_SIZES,
  ORDER_STATUSES,
  orderFiltersFromSearchParams,
  orderFiltersToSearchParams,
} from "@/lib/orders/order-filters";
import type { OrderFilters } from "@/lib/orders/order-filters";
import { formatDate } from "@/lib/format";

const fetchOrders = (filters: OrderFilters) => fetchApi<OrdersPage>(`/api/orders?${orderFiltersToSearchParams(filters)}`);

const column = createColumnHelper<OrderRow>();

function SortHeader({ label, field, sort, onSort }: { label: string; field: "created_at" | "updated_at"; sort: string; onSort: (sort: string) => void }) {
  const [currentField, direction] = sort.split(":");
  const active = currentField === field;
  const next = active && direction === "desc" ? `${field}:asc` : `${field}:desc`;
  return (
    <button type="button" onClick={() => onSort(next)} className="inline-flex items-center gap-1 font-medium hover:text-zinc-900" aria-label={`Sort by ${label.toLowerCase()}`}>
      {label}
      <span aria-hidden="true">{active ? (direction === "desc" ? "↓" : "↑") : "↕"}</span>
      {active ? <span className="sr-only">{direction === "desc" ? "(newest first)" : "(oldest first)"}</span> : null}
    </button>
  );
}

const FALLBACK_FILTERS: OrderFilters = { sort: DEFAULT_ORDER_SORT, page: 1, size: 25 };

export function OrdersTable() {
  const paged = usePagedQuery({
    key: "orders",
    parse: orderFiltersFromSearchParams,
    fallback: FALLBACK_FILTERS,
    fetchPage: fetchOrders,
    hasNext: (data) => data.hasNext,
  });
  const { filters, queryString, query, update } = paged;

  const columns = useMemo(
    () => [
      column.accessor("id", {
        header: "Order",
        cell: (info) => (
          <Link href={`/orders/${info.getValue()}`} className="font-mono text-xs text-brand-700 hover:underline">
            {info.getValue()}
          </Link>
        ),
      }),
      column.accessor("status", { header: "Status", cell: (info) => <OrderStatusBadge status={info.getValue()} /> }),
      column.accessor("customerName", { header: "Customer" }),
      column.accessor("total", { header: "Total", cell: (info) => <span className="tabular-nums">{formatMoney(info.getValue())}</span> }),
      column.accessor("items", { header: "Items" }),
      column.accessor("createdAt", {
        header: () => <SortHeader label="Created" field="created_at" sort={filters.sort} onSort={(sort) => update({ sort })} />,
        cell: (info) => <time dateTime={info.getValue()}>{formatDate(info.getValue())}</time>,
      }),
      column.accessor("updatedAt", {
        header: () => <SortHeader label="Updated" field="updated_at" sort={filters.sort} onSort={(sort) => update({ sort })} />,
        cell: (info) => <time dateTime={info.getValue()}>{formatDate(info.getValue())}</time>,
      }),
    ],
    [filters.sort, update],
  );

  const pageCount = query.data?.total != null ? Math.ceil(query.data.total / filters.size) : null;

  return (
    <div className="space-y-4">
      <form
        key={queryString}
        className="grid gap-3 rounded-lg border border-zinc-200 bg-white p-4 text-sm md:grid-cols-4"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          update({
            id: String(form.get("id") ?? "").trim(),
            customer: String(form.get("customer") ?? "").trim(),
            from: localToIso(String(form.get("from") ?? "")),
            to: localToIso(String(form.get("to") ?? "")),
          });
        }}
      >
        <StatusFilter key={queryString} selected={filters.status ?? []} onChange={(statuses) => update({ status: statuses.join(",") })} />
        <label className="flex flex-col gap-1">
          Order id
          <input name="id" defaultValue={filters.id ?? ""} className="rounded-md border border-zinc-300 px-2 py-1 font-mono" />
        </label>
        <label className="flex flex-col gap-1">
          Customer name
          <input name="customer" defaultValue={filters.customer ?? ""} className="rounded-md border border-zinc-300 px-2 py-1" />
        </label>
        <label className="flex flex-col gap-1">
          Updated from
          <input type="datetime-local" name="from" defaultValue={isoToLocal(filters.from)} className="rounded-md border border-zinc-300 px-2 py-1" />
        </label>
        <label className="flex flex-col gap-1">
          Updated to
          <input type="datetime-local" name="to" defaultValue={isoToLocal(filters.to)} className="rounded-md border border-zinc-300 px-2 py-1" />
        </label>
        <FilterActions className="md:col-span-4" onClear={() => update({ status: null, id: null, customer: null, from: null, to: null })} />
      </form>

      <PagedTable
        paged={paged}
        rows={query.data?.rows ?? []}
        columns={columns}
        getRowId={(row) => row.id}
        feature="your orders"
        empty="No orders match these filters."
        caption="Orders"
        pageCount={pageCount}
        sizes={ORDER_PAGE_SIZES}
      />
    </div>
  );
}

/**
 * Status checkboxes: several at once. The boxes answer the click at once (local state) while the
 * URL, the source of truth, catches up; a new URL remounts them with its state.
 */
function StatusFilter({ selected, onChange }: { selected: readonly string[]; onChange: (statuses: string[]) => void }) {
  const [checked, setChecked] = useState(() => new Set(selected));
  return (
    <fieldset className="md:col-span-4">
      <legend className="mb-1">Status</legend>
      <div className="flex flex-wrap gap-3">
        {ORDER_STATUSES.map((status) => (
          <label key={status} className="flex items-center gap-1.5">
            <input
              type="checkbox"
              name="status"
              value={status}
              checked={checked.has(status)}
              onChange={(event) => {
                const next = new Set(checked);
                if (event.target.checked) next.add(status);
                else next.delete(status);
                setChecked(next);
                onChange(ORDER_STATUSES.filter((s) => next.has(s)));
              }}
            />
            {status}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
