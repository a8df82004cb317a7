import type { Metadata } from "next";
import { HydrationBoundary } from "@tanstack/react-query";
import { getTranslations } from "next-intl/server";
import { ProblemNotice } from "@/components/platform/problem-notice";
import { listPricesForShop } from "@/features/prices/prices.server";
import { pricesSchema } from "@/features/prices/price-filters";
import { PricesTable } from "@/features/prices/components/prices-table";
import { PricesTabs } from "@/features/prices/components/prices-tabs";
import { requireShop } from "@/lib/auth/session.server";
import { requiredScopesFor } from "@marketplace/api/client";
import { prefetchTablePage } from "@/lib/tables/prefetch.server";

export async function pricesPageMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("prices"))("title") };
}

export async function PricesPage({ params, searchParams }: PageProps<"/s/[shopId]/prices">) {
  const access = await requireShop((await params).shopId, "prices.view");
  const shop = access.shop;
  const t = await getTranslations("prices");
  const missing = requiredScopesFor("listPrices").filter((scope) => shop.connection.scopesMissing.includes(scope));
  // The first page is in the HTML (no JavaScript needed to see it); later pages load in the browser.
  const firstPage =
    missing.length > 0
      ? null
      : await prefetchTablePage("prices", shop.id, pricesSchema, await searchParams, (state) => listPricesForShop(shop, state));

  return (
    <section className="space-y-6">
      <div className="space-y-3">
        <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
        <PricesTabs current="all" />
      </div>
      {missing.length > 0 ? (
        <ProblemNotice problem={{ kind: "missing_scope", scopes: missing }} feature="yourPrices" />
      ) : (
        <HydrationBoundary state={firstPage?.state}>
          <PricesTable urlValid={firstPage?.urlValid ?? true} />
        </HydrationBoundary>
      )}
    </section>
  );
}
