"use client";

import { flexRender, getCoreRowModel, useReactTable } from "@tanstack/react-table";
import type { ColumnDef } from "@tanstack/react-table";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

/**
 * A server-paginated table: rows come one page at a time from React Query, so the table does
 * no sorting or paging of its own. Shows the loading and empty states in place of rows.
 */
export function DataTable<Row>({
  rows,
  columns,
  getRowId,
  isPending,
  isFetching,
  empty,
  caption,
}: {
  rows: Row[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- react-table's column defs are heterogeneous by design
  columns: ColumnDef<Row, any>[];
  getRowId: (row: Row) => string;
  isPending: boolean;
  isFetching: boolean;
  empty: ReactNode;
  caption: string;
}) {
  const t = useTranslations("common.table");
  const table = useReactTable({ data: rows, columns, getRowId, getCoreRowModel: getCoreRowModel(), manualPagination: true, manualSorting: true });
  // On a phone each row is a card (CSS only: one DOM for both sizes, so nothing renders twice):
  // the header row is hidden and each cell shows its column's label; from `md` up, a table.
  return (
    <div className="rounded-lg border border-zinc-200 bg-white md:overflow-x-auto">
      <table className="block w-full text-sm md:table" aria-busy={isFetching}>
        <caption className="sr-only">{caption}</caption>
        <thead className="hidden bg-zinc-50 text-left text-zinc-500 md:table-header-group">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th key={header.id} scope="col" className="px-4 py-2 font-medium whitespace-nowrap">
                  {flexRender(header.column.columnDef.header, header.getContext())}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody className={`block md:table-row-group ${isFetching && !isPending ? "opacity-60 transition-opacity" : ""}`}>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id} className="flex flex-col gap-1 border-t border-zinc-100 px-4 py-3 first:border-t-0 hover:bg-zinc-50 md:table-row md:p-0 md:first:border-t">
              {row.getVisibleCells().map((cell) => {
                const meta = cell.column.columnDef.meta;
                const header = cell.column.columnDef.header;
                const label = meta?.label ?? (typeof header === "string" ? header : undefined);
                const phone = meta?.hideOnPhone ? "hidden" : meta?.cardTitle ? "order-first flex font-medium" : "flex";
                return (
                  <td key={cell.id} className={`${phone} min-w-0 items-baseline justify-between gap-3 md:table-cell md:px-4 md:py-2 md:align-top`}>
                    {label && !meta?.cardTitle ? (
                      <span className="shrink-0 text-xs text-zinc-500 md:hidden">
                        {label}
                      </span>
                    ) : null}
                    <span className="min-w-0 text-right break-words md:text-left">{flexRender(cell.column.columnDef.cell, cell.getContext())}</span>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {isPending ? <p className="p-6 text-center text-sm text-zinc-500">{t("loading")}</p> : null}
      {!isPending && rows.length === 0 ? <p className="p-6 text-center text-sm text-zinc-500">{empty}</p> : null}
    </div>
  );
}
