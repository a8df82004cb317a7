import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ProblemNotice } from "@/components/platform/problem-notice";
import { EditPriceForm } from "@/components/prices/edit-price-form";
import { PriceHistoryChart } from "@/components/prices/price-history-chart";
import { requireSeller } from "@/lib/auth/session";
import { getPriceForSeller } from "@/lib/data/prices";
import { toPricePoint } from "@/lib/prices/price-rows";
import { objectIdSchema } from "@/lib/marketplace/schemas/common";
import { formatDate, formatMoney } from "@/lib/format";

export const metadata: Metadata = { title: "Price" };


export default async function PricePage({ params }: PageProps<"/prices/[id]">) {
  const seller = await requireSeller();
  const { id } = await params;
  if (!objectIdSchema.safeParse(id).success) notFound();
  const result = await getPriceForSeller(seller, id);
  if (result.ok && !result.data) notFound();

  return (
    <div className="space-y-6">
      <Link href="/prices" className="text-sm text-brand-700 hover:underline">
        ← Prices
      </Link>
      {!result.ok ? (
        <ProblemNotice problem={result.problem} feature="this price" />
      ) : result.data ? (
        <>
          <header>
            <h1 className="text-2xl font-semibold tracking-tight">
              <span className="font-mono">{result.data.sku}</span> · {result.data.type} price
            </h1>
            <p className="mt-1 text-lg tabular-nums" data-testid="current-price">
              {formatMoney(result.data)}
            </p>
          </header>
          {/* The browser gets the dashboard's shapes, not the platform's price. */}
          <PriceHistoryChart history={result.data.priceHistory.map(toPricePoint)} />
          <EditPriceForm current={{ id: result.data.id, sku: result.data.sku, type: result.data.type, currency: result.data.currency, normalizer: result.data.normalizer }} />
          <section className="rounded-lg border border-zinc-200 bg-white">
            <table className="w-full text-sm">
              <caption className="px-4 py-3 text-left font-medium">History, newest first</caption>
              <thead className="bg-zinc-50 text-left text-zinc-500">
                <tr>
                  <th className="px-4 py-2 font-medium">Set at (UTC)</th>
                  <th className="px-4 py-2 font-medium">Amount</th>
                  <th className="px-4 py-2 font-medium">Integer value / normalizer</th>
                </tr>
              </thead>
              <tbody data-testid="price-history-rows">
                {[...result.data.priceHistory].reverse().map((item, index) => (
                  <tr key={`${item.created_at}-${index}`} className="border-t border-zinc-100">
                    <td className="px-4 py-2">{formatDate(item.created_at)}</td>
                    <td className="px-4 py-2 tabular-nums">{formatMoney(item)}</td>
                    <td className="px-4 py-2 font-mono text-xs">
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
