"use client";

import { flexRender, getCoreRowModel, useReactTable } from "@tanstack/react-table";
import type { ColumnDef } from "@tanstack/react-table";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { cardTable } from "@/components/ui/card-table";

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
  const table = useReactTable({
    data: rows,
    columns,
    getRowId,
    getCoreRowModel: getCoreRowModel(),
    manualPagination: true,
    manualSorting: true,
  });
  // On a phone each row is a card (components/ui/card-table.ts): the header row is hidden and each
  // cell names itself with its column's label, drawn by CSS so the cell's text stays its value.
  return (
    <div className={cardTable.frame}>
      <table className={cardTable.table} aria-busy={isFetching}>
        <caption className="sr-only">{caption}</caption>
        <thead className={cardTable.head}>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th key={header.id} scope="col" className={cardTable.headCell}>
                  {flexRender(header.column.columnDef.header, header.getContext())}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        {/* Dimmed while newer rows load; aria-busy tells assistive technology (and the page checks) the same. */}
        <tbody
          aria-busy={isFetching && !isPending}
          className={`${cardTable.body} ${isFetching && !isPending ? "opacity-60 transition-opacity" : ""}`}
        >
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id} className={cardTable.row}>
              {row.getVisibleCells().map((cell) => {
                const meta = cell.column.columnDef.meta;
                const header = cell.column.columnDef.header;
                const label = meta?.label ?? (typeof header === "string" && header !== "" ? header : undefined);
                const phone = meta?.hideOnPhone
                  ? "max-md:hidden"
                  : meta?.cardTitle
                    ? "col-span-2 order-first font-medium"
                    : label
                      ? cardTable.labelled
                      : "col-span-2";
                return (
                  <td
                    key={cell.id}
                    data-label={meta?.cardTitle ? undefined : label}
                    className={`${phone} ${cardTable.cell} ${cardTable.pad}`}
                  >
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {isPending ? <p className="p-6 text-center text-sm text-zinc-600">{t("loading")}</p> : null}
      {!isPending && rows.length === 0 ? <p className="p-6 text-center text-sm text-zinc-600">{empty}</p> : null}
    </div>
  );
}
