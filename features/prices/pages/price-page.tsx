import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { ProblemNotice } from "@/components/platform/problem-notice";
import { PlatformAnswer } from "@/components/platform/platform-answer";
import { DetailLoading } from "@/components/ui/detail-loading";
import { COST_CURRENCY, COST_NORMALIZER, marginOf } from "@/features/prices/margin";
import { costHistory, pricingSettings } from "@/features/prices/costs/product-costs.server";
import { getPriceForShop } from "@/features/prices/prices.server";
import { signedPercent } from "@/features/prices/guard/guard-words";
import { toPricePoint } from "@/features/prices/price-rows";
import { CostCell } from "@/features/prices/costs/components/cost-cell";
import { EditPriceForm } from "@/features/prices/components/edit-price-form";
import { PriceHistoryChart } from "@/features/prices/components/price-history-chart";
import { requireShop } from "@/lib/auth/session.server";
import { productNameOf } from "@/lib/catalogue/product-names.server";
import { objectIdSchema } from "@marketplace/api/schemas/common";
import { getDisplayFormat } from "@/lib/format.server";
import { ShopLink } from "@/components/shop-link";
import { can } from "@/lib/people/roles";
import type { Role } from "@/lib/people/roles";
import type { CurrentShop } from "@/lib/shops/shops.server";

export async function pricePageMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("prices"))("detail.title") };
}

export async function PricePage({ params }: PageProps<"/s/[shopId]/prices/[id]">) {
  const access = await requireShop((await params).shopId, "prices.view");
  const shop = access.shop;
  const { id } = await params;
  if (!objectIdSchema.safeParse(id).success) notFound();
  const t = await getTranslations("prices");
  return (
    <div className="space-y-6">
      <ShopLink href="/prices" className="inline-flex min-h-11 items-center text-sm text-brand-700 hover:underline md:min-h-0">
        ← {t("title")}
      </ShopLink>
      <PlatformAnswer answer={getPriceForShop(shop, id)} placeholder={<DetailLoading what={t("detail.loadingWhat")} />}>
        {(result) => <PriceDetails result={result} shop={shop} role={access.role} />}
      </PlatformAnswer>
    </div>
  );
}

/** The price the platform answered with, its costs and margin, or the problem it gave. */
async function PriceDetails({
  result,
  shop,
  role,
}: {
  result: Awaited<ReturnType<typeof getPriceForShop>>;
  shop: CurrentShop;
  role: Role;
}) {
  if (result.ok && !result.data) notFound();
  const price = result.ok ? result.data : null;
  const [t, format, productName, history, pricing] = await Promise.all([
    getTranslations("prices"),
    getDisplayFormat(),
    price ? productNameOf(shop.id, price.sku) : null,
    price ? costHistory(shop.id, price.sku) : [],
    pricingSettings(shop.id),
  ]);
  // The newest history row is the cost; a removal (null) leaves none.
  const cost = history[0]?.cost ?? null;
  const margin = price?.type === "sell" ? marginOf(price, cost, pricing.commission.rateBps) : null;
  const brl = (value: number) => format.money({ value, currency: COST_CURRENCY, normalizer: COST_NORMALIZER });

  return (
    <>
      {!result.ok ? (
        <ProblemNotice problem={result.problem} feature="thisPrice" />
      ) : price ? (
        <>
          <header>
            <h1 className="text-2xl font-semibold tracking-tight break-words">
              {t.rich("detail.heading", { sku: () => <span className="font-mono">{price.sku}</span>, type: t(`types.${price.type}`) })}
            </h1>
            {productName ? (
              <p className="mt-1 text-zinc-700" data-testid="product-name">
                {productName}
              </p>
            ) : null}
            <p className="mt-1 text-lg tabular-nums" data-testid="current-price">
              {format.money(price)}
            </p>
          </header>
          {/* The browser gets the dashboard's shapes, not the platform's price. */}
          <PriceHistoryChart history={price.priceHistory.map(toPricePoint)} />
          {can(role, "prices.change") ? (
            <EditPriceForm
              current={{ id: price.id, sku: price.sku, type: price.type, currency: price.currency, normalizer: price.normalizer }}
              productName={productName}
            />
          ) : null}
          <section
            aria-labelledby="cost-title"
            className="space-y-3 rounded-lg border border-zinc-200 bg-white p-5 text-sm"
            data-testid="cost-section"
          >
            <h2 id="cost-title" className="text-base font-semibold">
              {t.rich("costs.detail.title", { sku: () => <span className="font-mono">{price.sku}</span> })}
            </h2>
            <dl className="grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-2">
              <dt className="text-zinc-600">{t("costs.detail.cost")}</dt>
              <dd>
                <CostCell sku={price.sku} cost={cost} source="prices" />
              </dd>
              {price.type === "sell" ? (
                <>
                  <dt className="text-zinc-600">{t("costs.detail.margin")}</dt>
                  <dd className="tabular-nums" data-testid="margin">
                    {margin
                      ? `${brl(margin.amount)}${margin.percentBps === null ? "" : ` (${signedPercent(margin.percentBps, format)})`}`
                      : "—"}
                  </dd>
                </>
              ) : null}
            </dl>
            {history.length > 0 ? (
              <details>
                <summary className="inline-flex min-h-11 cursor-pointer items-center text-brand-700 md:min-h-0">
                  {t("costs.detail.history", { count: history.length })}
                </summary>
                <div className="mt-2 overflow-x-auto">
                  <table className="w-full text-sm">
                    <caption className="sr-only">{t("costs.detail.historyCaption", { sku: price.sku })}</caption>
                    <thead className="bg-zinc-50 text-left text-zinc-600">
                      <tr>
                        <th className="px-3 py-2 font-medium">{t("costs.detail.setAt")}</th>
                        <th className="px-3 py-2 font-medium">{t("costs.detail.cost")}</th>
                        <th className="px-3 py-2 font-medium">{t("costs.detail.by")}</th>
                        <th className="px-3 py-2 font-medium">{t("costs.detail.source")}</th>
                      </tr>
                    </thead>
                    <tbody data-testid="cost-history-rows">
                      {history.map((entry, index) => (
                        <tr key={`${entry.setAt.toISOString()}-${index}`} className="border-t border-zinc-100">
                          <td className="px-3 py-2">{format.date(entry.setAt)}</td>
                          <td className="px-3 py-2 whitespace-nowrap tabular-nums">
                            {entry.cost === null ? t("costs.detail.removed") : brl(entry.cost)}
                          </td>
                          <td className="px-3 py-2">{entry.personName}</td>
                          <td className="px-3 py-2">{t("costs.detail.sources", { source: entry.source })}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </details>
            ) : null}
          </section>
          {/* Three short columns fit a phone; should a date not, the table scrolls by itself, not the page. */}
          <section className="overflow-x-auto rounded-lg border border-zinc-200 bg-white">
            <table className="w-full text-sm">
              <caption className="px-4 py-3 text-left font-medium">{t("detail.historyCaption")}</caption>
              <thead className="bg-zinc-50 text-left text-zinc-600">
                <tr>
                  {/* Each date carries its zone (the seller's, from Settings). */}
                  <th className="px-3 py-2 font-medium md:px-4">{t("detail.setAt")}</th>
                  <th className="px-3 py-2 font-medium md:px-4">{t("detail.amount")}</th>
                  <th className="px-3 py-2 font-medium md:px-4">{t("detail.integerValue")}</th>
                </tr>
              </thead>
              <tbody data-testid="price-history-rows">
                {[...price.priceHistory].reverse().map((item, index) => (
                  <tr key={`${item.created_at}-${index}`} className="border-t border-zinc-100">
                    <td className="px-3 py-2 md:px-4">{format.date(item.created_at)}</td>
                    <td className="px-3 py-2 whitespace-nowrap tabular-nums md:px-4">{format.money(item)}</td>
                    <td className="px-3 py-2 font-mono text-xs md:px-4">
                      {item.value} / {item.normalizer}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </>
      ) : null}
    </>
  );
}
