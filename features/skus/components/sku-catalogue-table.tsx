"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { createColumnHelper } from "@tanstack/react-table";
import { useTranslations } from "next-intl";
import { ShopLink, useShopId } from "@/components/shop-link";
import { useCallback, useMemo } from "react";
import { CostCell, listCostsAction } from "@/features/prices/client";
import { PagedTable } from "@/components/ui/paged-table";
import { TableFilters } from "@/components/ui/table-filters";
import { queryKeys } from "@/lib/tables/query-keys";
import { usePagedQuery } from "@/components/ui/use-paged-query";
import { skuCatalogueTable } from "@/features/skus/catalogue-params";
import type { SkuPage, SkuRow } from "@/features/skus/sku-rows";
import { useDisplayFormat } from "@/lib/format";

/** "created" is the status the portfolio.sku notification carries (spec: Domains and statuses). */
export function SkuStatusBadge({ status }: { status: string }) {
  const t = useTranslations("skus.status");
  return status === "created" ? (
    <span className="rounded bg-brand-100 px-2 py-0.5 text-xs font-medium text-brand-900">{t("created")}</span>
  ) : (
    <span className="rounded bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900" title={t("importedHint")}>
      {t("imported")}
    </span>
  );
}

const column = createColumnHelper<SkuRow>();

/** `urlValid`: whether the server accepted the filters of the URL the page was opened with. */
export function SkuCatalogueTable({ urlValid }: { urlValid: boolean }) {
  const t = useTranslations("skus");
  const format = useDisplayFormat();
  // queryKeys.skus: a portfolio.sku notification invalidates every page at once
  // (features/webhooks/live/components/live-updates.tsx), so a SKU turns "confirmed" without a reload.
  const paged = usePagedQuery({
    resource: "skus",
    table: skuCatalogueTable,
    endpoint: "/skus",
    urlValid,
    hasNext: (data: SkuPage) => data.hasNext,
  });
  const { filters, queryString, query, update } = paged;
  const pageCount = query.data?.total != null ? Math.ceil(query.data.total / query.data.size) : null;

  // The costs of the page's codes: the dashboard's own, kept beside the catalogue.
  const shopId = useShopId() ?? "";
  const queryClient = useQueryClient();
  const codes = useMemo(() => [...new Set((query.data?.rows ?? []).map((row) => row.code))].sort(), [query.data]);
  const costs = useQuery({
    queryKey: queryKeys.costs.page(shopId, codes),
    enabled: codes.length > 0,
    queryFn: async () => {
      const answer = await listCostsAction(shopId, codes);
      if (answer.status === "error") throw new Error(answer.message);
      return answer.data;
    },
  });
  const costsSaved = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: queryKeys.costs.shop(shopId) }),
    [queryClient, shopId],
  );
  const costData = costs.data;
  const costFailed = costs.isError;

  const columns = useMemo(
    () => [
      column.accessor("code", {
        header: t("catalogue.columns.code"),
        meta: { cardTitle: true },
        cell: (info) => (
          <ShopLink
            href={`/skus/${info.row.original.id}`}
            className="inline-flex min-h-11 items-center font-medium text-brand-700 hover:underline md:min-h-0"
          >
            {info.getValue()}
          </ShopLink>
        ),
      }),
      column.accessor("title", { header: t("catalogue.columns.title") }),
      column.accessor("status", { header: t("catalogue.columns.status"), cell: (info) => <SkuStatusBadge status={info.getValue()} /> }),
      column.accessor("createdAt", {
        header: t("catalogue.columns.created"),
        cell: (info) => <time dateTime={info.getValue()}>{format.date(info.getValue())}</time>,
      }),
      column.display({
        id: "cost",
        header: t("catalogue.columns.cost"),
        cell: (info) =>
          costData ? (
            <CostCell
              sku={info.row.original.code}
              cost={costData[info.row.original.code] ?? null}
              source="catalogue"
              onSaved={costsSaved}
            />
          ) : (
            <span className="text-zinc-600">{costFailed ? "—" : t("catalogue.costLoading")}</span>
          ),
      }),
      column.display({
        id: "new-version",
        header: () => <span className="sr-only">{t("catalogue.newVersion")}</span>,
        cell: (info) => (
          <ShopLink
            href={`/skus/new?from=${info.row.original.id}`}
            className="inline-flex min-h-11 items-center whitespace-nowrap text-brand-700 hover:underline md:min-h-0"
            aria-label={t("newVersionOf", { code: info.row.original.code })}
          >
            {t("catalogue.newVersion")}
          </ShopLink>
        ),
      }),
    ],
    [t, format, costData, costFailed, costsSaved],
  );

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
        feature="yourSkus"
        empty={filters.search ? t("catalogue.noMatch") : t("catalogue.empty")}
        caption={t("catalogue.caption")}
        pageCount={pageCount}
        sizes={skuCatalogueTable.sizes}
      />
    </div>
  );
}
