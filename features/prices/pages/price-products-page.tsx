import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { ProblemNotice } from "@/components/platform/problem-notice";
import { PRODUCT_PAGE_SIZES, readPriceProductsQuery } from "@/features/prices/price-products-query";
import { listPriceProducts } from "@/features/prices/price-products.server";
import { pricingSettings } from "@/features/prices/costs/product-costs.server";
import { PriceProductsTable } from "@/features/prices/components/price-products-table";
import { PricesTabs } from "@/features/prices/components/prices-tabs";
import type { PriceProductsQuery } from "@/features/prices/price-products-query";
import { requireShop } from "@/lib/auth/session.server";
import { can } from "@/lib/people/roles";
import { getDisplayFormat } from "@/lib/format.server";
import { requiredScopesFor } from "@marketplace/api/client";
import { shopPath } from "@/lib/shops/paths";
import { ShopLink } from "@/components/shop-link";

export async function priceProductsPageMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("prices.products"))("title") };
}

const hrefOf = (query: PriceProductsQuery, changes: Partial<PriceProductsQuery>) => {
  const next = { ...query, ...changes };
  const params = new URLSearchParams();
  if (next.search) params.set("search", next.search);
  if (next.page > 1) params.set("page", String(next.page));
  if (next.size !== 25) params.set("size", String(next.size));
  const text = params.toString();
  return text ? `/prices/products?${text}` : "/prices/products";
};

// Prices by product, server-rendered from the platform's price list: the search and the pages are
// links and a GET form, so the page reads without JavaScript.
export async function PriceProductsPage({ params, searchParams }: PageProps<"/s/[shopId]/prices/products">) {
  const access = await requireShop((await params).shopId, "prices.view");
  const shop = access.shop;
  const [t, format] = await Promise.all([getTranslations("prices.products"), getDisplayFormat()]);
  const query = readPriceProductsQuery(await searchParams);
  const needed = [...new Set([...requiredScopesFor("listPrices"), ...requiredScopesFor("createPrice")])];
  const missing = needed.filter((scope) => shop.connection.scopesMissing.includes(scope));
  const [result, pricing] = await Promise.all([missing.length > 0 ? null : listPriceProducts(shop, query), pricingSettings(shop.id)]);
  const rate = pricing.commission.rateBps;
  const pageCount = result?.ok ? Math.max(1, Math.ceil(result.data.total / query.size)) : 1;

  return (
    <section className="space-y-6">
      <div className="space-y-3">
        <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
        <PricesTabs current="products" />
        <p className="text-sm text-zinc-600">{t("intro")}</p>
        <p className="text-sm text-zinc-600" data-testid="margin-note">
          {rate === null
            ? t("marginNoteUnknown")
            : t("marginNote", {
                rate: format.percent(rate / 10_000),
                source: pricing.commission.manualBps === null ? "learned" : "manual",
              })}{" "}
          {t("guardNote", { limit: format.percent(pricing.limitPercent / 100) })}{" "}
          {can(access.role, "costs.change") ? (
            <ShopLink href="/settings#prices" className="text-brand-700 underline">
              {t("settingsLink")}
            </ShopLink>
          ) : null}
        </p>
      </div>
      {missing.length > 0 ? (
        <ProblemNotice problem={{ kind: "missing_scope", scopes: missing }} feature="yourPrices" />
      ) : !result?.ok ? (
        <ProblemNotice problem={result!.problem} feature="yourPrices" />
      ) : (
        <>
          <form
            method="get"
            action={shopPath(shop.id, "/prices/products")}
            className="flex flex-wrap items-end gap-3 rounded-lg border border-zinc-200 bg-white p-4 text-sm"
            role="search"
          >
            <label className="flex w-full flex-col gap-1 md:w-auto">
              {t("search")}
              <input
                type="search"
                name="search"
                defaultValue={query.search ?? ""}
                maxLength={50}
                className="min-h-11 w-full rounded-md border border-zinc-300 px-2 py-1 md:min-h-0 md:w-72"
              />
            </label>
            {query.size !== 25 ? <input type="hidden" name="size" value={query.size} /> : null}
            <button
              type="submit"
              className="min-h-11 flex-1 rounded-md bg-brand-700 px-3 py-1.5 font-medium text-white md:min-h-0 md:flex-none"
            >
              {t("searchSubmit")}
            </button>
            {query.search ? (
              <ShopLink
                href={hrefOf(query, { search: undefined, page: 1 })}
                className="inline-flex min-h-11 flex-1 items-center justify-center rounded-md border border-zinc-300 px-3 py-1.5 md:min-h-0 md:flex-none"
              >
                {t("clearSearch")}
              </ShopLink>
            ) : null}
          </form>
          {!result.data.complete ? (
            <p role="status" className="text-sm text-amber-900">
              {t("incomplete")}
            </p>
          ) : null}
          <PriceProductsTable
            key={`${query.page}:${query.size}:${query.search ?? ""}`}
            rows={result.data.rows}
            shopId={shop.id}
            pricing={{ limitPercent: pricing.limitPercent, rateBps: rate }}
          />
          <nav aria-label={t("pages")} className="flex flex-wrap items-center justify-between gap-3 text-sm">
            <span className="text-zinc-600">
              {t("pageOf", { page: format.count(query.page), pages: format.count(pageCount), total: result.data.total })}
            </span>
            <div className="flex flex-wrap items-center gap-2">
              {query.page > 1 ? (
                <ShopLink
                  href={hrefOf(query, { page: query.page - 1 })}
                  className="inline-flex min-h-11 items-center rounded-md border border-zinc-300 bg-white px-3 py-1 md:min-h-0"
                >
                  {t("previous")}
                </ShopLink>
              ) : null}
              {query.page < pageCount ? (
                <ShopLink
                  href={hrefOf(query, { page: query.page + 1 })}
                  className="inline-flex min-h-11 items-center rounded-md border border-zinc-300 bg-white px-3 py-1 md:min-h-0"
                >
                  {t("next")}
                </ShopLink>
              ) : null}
              <span className="text-zinc-600">{t("perPage")}</span>
              {PRODUCT_PAGE_SIZES.map((size) => (
                <ShopLink
                  key={size}
                  href={hrefOf(query, { size, page: 1 })}
                  aria-current={size === query.size ? "page" : undefined}
                  className={`inline-flex min-h-11 min-w-11 items-center justify-center rounded px-2 py-1 md:min-h-0 md:min-w-0 ${size === query.size ? "bg-zinc-100 font-medium" : "text-brand-700"}`}
                >
                  {size}
                </ShopLink>
              ))}
            </div>
          </nav>
        </>
      )}
    </section>
  );
}
