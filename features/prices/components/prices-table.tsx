"use client";

import { createColumnHelper } from "@tanstack/react-table";
import { ShopLink } from "@/components/shop-link";
import { useTranslations } from "next-intl";
import { useMemo } from "react";
import { ActionButton } from "@/components/ui/action-button";
import { PagedTable } from "@/components/ui/paged-table";
import { TableFilters } from "@/components/ui/table-filters";
import { usePagedQuery } from "@/components/ui/use-paged-query";
import { pricesTable } from "@/features/prices/price-params";
import type { PriceRow, PricesPage } from "@/features/prices/price-rows";
import { useDisplayFormat } from "@/lib/format";

const column = createColumnHelper<PriceRow>();

/** `urlValid`: whether the server accepted the filters of the URL the page was opened with. */
export function PricesTable({ urlValid }: { urlValid: boolean }) {
  const paged = usePagedQuery({
    resource: "prices",
    table: pricesTable,
    endpoint: "/prices",
    urlValid,
    hasNext: (data: PricesPage) => data.hasNext,
  });
  const { filters, queryString, query, update } = paged;
  const t = useTranslations("prices");
  const format = useDisplayFormat();

  const columns = useMemo(
    () => [
      column.accessor("sku", {
        header: t("table.sku"),
        // The card's title on a phone: the code, and the product's name under it when known.
        meta: { cardTitle: true },
        cell: (info) => (
          <span className="flex flex-col items-start">
            <span className="font-mono text-xs">{info.getValue()}</span>
            {info.row.original.name ? (
              <span className="text-zinc-700" data-testid="product-name">
                {info.row.original.name}
              </span>
            ) : null}
          </span>
        ),
      }),
      column.accessor("type", { header: t("table.type"), cell: (info) => t(`types.${info.getValue()}`) }),
      column.accessor((row) => format.money(row.amount), {
        id: "amount",
        header: t("table.amount"),
        cell: (info) => <span className="tabular-nums">{info.getValue()}</span>,
      }),
      column.accessor("createdAt", {
        meta: { label: t("table.created") },
        header: () => (
          <ActionButton
            className="inline-flex items-center gap-1 font-medium hover:text-zinc-900"
            title={t("table.sortByCreated")}
            action={() => update({ sort: filters.sort === "created_at:desc" ? "created_at:asc" : "created_at:desc" })}
          >
            {t("table.created")} <span aria-hidden="true">{filters.sort === "created_at:desc" ? "↓" : "↑"}</span>
          </ActionButton>
        ),
        cell: (info) => <time dateTime={info.getValue()}>{format.date(info.getValue())}</time>,
      }),
      column.display({
        id: "open",
        // Named for screen readers and axe's td-has-header: every cell has a header.
        header: () => <span className="sr-only">{t("table.open")}</span>,
        cell: (info) => (
          <ShopLink
            href={`/prices/${info.row.original.id}`}
            className="inline-flex min-h-11 items-center text-brand-700 hover:underline md:min-h-0"
          >
            {t("table.open")}
          </ShopLink>
        ),
      }),
    ],
    [filters.sort, update, t, format],
  );

  const pageCount = query.data?.total != null ? Math.ceil(query.data.total / filters.size) : null;

  return (
    <div className="space-y-4">
      <TableFilters
        key={queryString}
        filters={pricesTable.filters}
        state={filters}
        update={update}
        className="grid gap-3 rounded-lg border border-zinc-200 bg-white p-4 text-sm sm:grid-cols-2 md:flex md:flex-wrap md:items-end"
      />

      {/* On a phone the header row, and its sort button, is hidden: the order is chosen here. */}
      <ActionButton
        className="inline-flex min-h-11 items-center gap-1 rounded-md border border-zinc-300 bg-white px-3 text-sm md:hidden"
        action={() => update({ sort: filters.sort === "created_at:desc" ? "created_at:asc" : "created_at:desc" })}
      >
        {t("table.sortByCreated")} <span aria-hidden="true">{filters.sort === "created_at:desc" ? "↓" : "↑"}</span>
      </ActionButton>

      <PagedTable
        paged={paged}
        rows={query.data?.rows ?? []}
        columns={columns}
        getRowId={(row) => row.id}
        feature="yourPrices"
        empty={t("table.empty")}
        caption={t("table.caption")}
        pageCount={pageCount}
        sizes={pricesTable.sizes}
      />
    </div>
  );
}
