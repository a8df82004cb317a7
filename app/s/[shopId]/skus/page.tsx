import type { Metadata } from "next";
import { HydrationBoundary } from "@tanstack/react-query";
import { getTranslations } from "next-intl/server";
import { SkuCatalogueTable } from "@/components/skus/sku-catalogue-table";
import { requireShop } from "@/lib/auth/session";
import { local } from "@/lib/data/list-route";
import { listSkus } from "@/lib/data/skus";
import { skuCatalogueSchema } from "@/lib/skus/catalogue-filters";
import { prefetchTablePage } from "@/lib/tables/prefetch";
import { ShopLink } from "@/components/shop-link";
import { can } from "@/lib/auth/roles";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("skus"))("title") };
}

export default async function SkusPage({ params, searchParams }: PageProps<"/s/[shopId]/skus">) {
  const access = await requireShop((await params).shopId, "skus.view");
  const seller = access.shop;
  // The first page is in the HTML (no JavaScript needed to see it); later pages load in the browser.
  const [firstPage, t] = await Promise.all([
    prefetchTablePage("skus", seller.id, skuCatalogueSchema, await searchParams, (state) => local(listSkus(seller.id, state))),
    getTranslations("skus"),
  ]);
  return (
    <section className="space-y-6">
      <div className="flex items-baseline justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
          <p className="mt-1 text-sm text-zinc-600">{t("catalogue.intro")}</p>
        </div>
        {can(access.role, "skus.change") ? <ShopLink href="/skus/new" className="shrink-0 rounded-md bg-brand-700 px-4 py-2 text-sm font-medium text-white hover:bg-brand-900">
          {t("newSku")}
        </ShopLink> : null}
      </div>
      <HydrationBoundary state={firstPage?.state}>
        <SkuCatalogueTable urlValid={firstPage?.urlValid ?? true} />
      </HydrationBoundary>
    </section>
  );
}
