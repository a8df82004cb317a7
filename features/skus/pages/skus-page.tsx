import type { Metadata } from "next";
import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { getTranslations } from "next-intl/server";
import { listSkus } from "@/features/skus/skus.server";
import { skuCatalogueSchema } from "@/features/skus/catalogue-filters";
import { SkuCatalogueTable } from "@/features/skus/components/sku-catalogue-table";
import type { SkuPage } from "@/features/skus/sku-rows";
import { requireShop } from "@/lib/auth/session.server";
import { local } from "@/lib/tables/list-route.server";
import { currentCosts } from "@/features/prices";
import { prefetchTablePage } from "@/lib/tables/prefetch.server";
import { ShopLink } from "@/components/shop-link";
import { can } from "@/lib/people/roles";

export async function skusPageMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("skus"))("title") };
}

export async function SkusPage({ params, searchParams }: PageProps<"/s/[shopId]/skus">) {
  const access = await requireShop((await params).shopId, "skus.view");
  const shop = access.shop;
  // The first page is in the HTML (no JavaScript needed to see it); later pages load in the browser.
  const [firstPage, t] = await Promise.all([
    prefetchTablePage("skus", shop.id, skuCatalogueSchema, await searchParams, (state) => local(listSkus(shop.id, state))),
    getTranslations("skus"),
  ]);
  // The first page's costs in the HTML too, under the key the table asks with (sorted codes).
  const firstRows = (firstPage?.state.queries[0]?.state.data as SkuPage | undefined)?.rows;
  const codes = Array.isArray(firstRows) ? [...new Set(firstRows.map((row) => row.code))].sort() : [];
  const costs = new QueryClient();
  if (codes.length > 0) costs.setQueryData(["costs", shop.id, codes], Object.fromEntries(await currentCosts(shop.id, codes)));
  return (
    <section className="space-y-6">
      <div className="flex items-baseline justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
          <p className="mt-1 text-sm text-zinc-600">{t("catalogue.intro")}</p>
        </div>
        <div className="flex shrink-0 flex-wrap items-center gap-3">
          {can(access.role, "costs.change") ? (
            <ShopLink href="/prices/costs" className="text-sm text-brand-700 hover:underline">
              {t("costsCsv")}
            </ShopLink>
          ) : null}
          {can(access.role, "skus.change") ? (
            <ShopLink
              href="/skus/new"
              className="shrink-0 rounded-md bg-brand-700 px-4 py-2 text-sm font-medium text-white hover:bg-brand-900"
            >
              {t("newSku")}
            </ShopLink>
          ) : null}
        </div>
      </div>
      <HydrationBoundary state={firstPage?.state}>
        <HydrationBoundary state={dehydrate(costs)}>
          <SkuCatalogueTable urlValid={firstPage?.urlValid ?? true} />
        </HydrationBoundary>
      </HydrationBoundary>
    </section>
  );
}
