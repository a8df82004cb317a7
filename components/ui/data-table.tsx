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
  return (
    <div className="overflow-x-auto rounded-lg border border-zinc-200 bg-white">
      <table className="w-full text-sm" aria-busy={isFetching}>
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-zinc-50 text-left text-zinc-500">
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
        <tbody className={isFetching && !isPending ? "opacity-60 transition-opacity" : undefined}>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id} className="border-t border-zinc-100 hover:bg-zinc-50">
              {row.getVisibleCells().map((cell) => (
                <td key={cell.id} className="px-4 py-2 align-top">
                  {flexRender(cell.column.columnDef.cell, cell.getContext())}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {isPending ? <p className="p-6 text-center text-sm text-zinc-500">{t("loading")}</p> : null}
      {!isPending && rows.length === 0 ? <p className="p-6 text-center text-sm text-zinc-500">{empty}</p> : null}
    </div>
  );
}
