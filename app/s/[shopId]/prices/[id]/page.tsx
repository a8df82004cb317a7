import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { ProblemNotice } from "@/components/platform/problem-notice";
import { EditPriceForm } from "@/components/prices/edit-price-form";
import { PriceHistoryChart } from "@/components/prices/price-history-chart";
import { requireShop } from "@/lib/auth/session";
import { getPriceForSeller } from "@/lib/data/prices";
import { productNameOf } from "@/lib/data/product-names";
import { toPricePoint } from "@/lib/prices/price-rows";
import { objectIdSchema } from "@/lib/marketplace/schemas/common";
import { getDisplayFormat } from "@/lib/format.server";
import { ShopLink } from "@/components/shop-link";
import { can } from "@/lib/auth/roles";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("prices"))("detail.title") };
}

export default async function PricePage({ params }: PageProps<"/s/[shopId]/prices/[id]">) {
  const access = await requireShop((await params).shopId, "prices.view");
  const seller = access.shop;
  const { id } = await params;
  if (!objectIdSchema.safeParse(id).success) notFound();
  const result = await getPriceForSeller(seller, id);
  if (result.ok && !result.data) notFound();
  const price = result.ok ? result.data : null;
  const [t, format, productName] = await Promise.all([getTranslations("prices"), getDisplayFormat(), price ? productNameOf(seller.id, price.sku) : null]);

  return (
    <div className="space-y-6">
      <ShopLink href="/prices" className="inline-flex min-h-11 items-center text-sm text-brand-700 hover:underline md:min-h-0">
        ← {t("title")}
      </ShopLink>
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
          {can(access.role, "prices.change") ? <EditPriceForm current={{ id: price.id, sku: price.sku, type: price.type, currency: price.currency, normalizer: price.normalizer }} /> : null}
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
    </div>
  );
}
