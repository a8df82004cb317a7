import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { PRESETS, changePercent } from "@/features/sales/periods";
import type { Period } from "@/features/sales/periods";
import { SALES_CURRENCY, SALES_NORMALIZER, salesReport } from "@/features/sales/sales.server";
import type { SalesReport, SalesTotals } from "@/features/sales/sales.server";
import { choiceQuery, periodOf, rankingOf, salesChoiceOf } from "@/features/sales/sales-params";
import { RANKINGS, bestProducts } from "@/features/sales/best-products";
import type { ProductSales, Ranking } from "@/features/sales/best-products";
import { productSales } from "@/features/sales/best-products.server";
import { can } from "@/lib/people/roles";
import type { SalesChoice } from "@/features/sales/sales-params";
import { requireShop } from "@/lib/auth/session.server";
import type { DisplayFormat } from "@/lib/format";
import { getDisplayFormat } from "@/lib/format.server";
import { ChartLegend } from "@/components/ui/chart-legend";
import { shopPath } from "@/lib/shops/paths";
import { wallDay } from "@/lib/wall-clock";

export async function salesPageMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("sales"))("title") };
}

type Words = Awaited<ReturnType<typeof getTranslations<"sales">>>;

const reais = (format: DisplayFormat, value: number) => format.money({ value, currency: SALES_CURRENCY, normalizer: SALES_NORMALIZER });

function Change({ now, before, t, format, show }: { now: number; before: number; t: Words; format: DisplayFormat; show: string }) {
  const change = changePercent(now, before);
  const signed = change === null ? null : `${change > 0 ? "+" : change < 0 ? "\u2212" : ""}${format.percent(Math.abs(change) / 100)}`;
  return (
    <>
      <dd className="text-sm text-zinc-600">{t("figures.previous", { value: show })}</dd>
      <dd className={`text-sm font-medium ${change === null ? "text-zinc-600" : change < 0 ? "text-red-800" : "text-brand-900"}`}>
        {signed === null ? t("figures.noChange") : t("figures.change", { change: signed })}
      </dd>
    </>
  );
}

function Figures({ report, t, format }: { report: SalesReport; t: Words; format: DisplayFormat }) {
  const { current, previous } = report;
  const ticket = (totals: SalesTotals) => (totals.orders === 0 ? 0 : Math.round(totals.gross / totals.orders));
  const cards = [
    { key: "gross", now: current.gross, before: previous.gross, show: (value: number) => reais(format, value) },
    { key: "net", now: current.net, before: previous.net, show: (value: number) => reais(format, value) },
    { key: "orders", now: current.orders, before: previous.orders, show: (value: number) => format.count(value) },
    { key: "ticket", now: ticket(current), before: ticket(previous), show: (value: number) => reais(format, value) },
    { key: "cancelled", now: current.cancelled, before: previous.cancelled, show: (value: number) => format.count(value) },
  ] as const;
  return (
    <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-5">
      {cards.map((card) => (
        <dl key={card.key} className="rounded-lg border border-zinc-200 bg-white p-4" data-testid={`sales-${card.key}`}>
          <dt className="text-sm text-zinc-600">{t(`figures.${card.key}`)}</dt>
          <dd className="text-xl font-semibold tabular-nums" data-testid={`sales-${card.key}-value`}>
            {card.show(card.now)}
          </dd>
          <Change now={card.now} before={card.before} t={t} format={format} show={card.show(card.before)} />
          {card.key === "net" ? <dd className="mt-1 text-xs text-zinc-600">{t("figures.netHelp")}</dd> : null}
          {card.key === "net" && current.withoutNet > 0 ? (
            <dd className="text-xs text-zinc-600">{t("figures.withoutNet", { count: current.withoutNet })}</dd>
          ) : null}
        </dl>
      ))}
    </div>
  );
}

function Chart({ report, period, t, format }: { report: SalesReport; period: Period; t: Words; format: DisplayFormat }) {
  const most = Math.max(1, ...report.buckets.map((bucket) => bucket.gross));
  const title = t(period.bucket === "week" ? "chart.titleWeek" : "chart.titleDay");
  const label = (day: string) => format.date(`${day}T12:00:00Z`, "dayMonth");
  return (
    <figure className="rounded-lg border border-zinc-200 bg-white p-4" data-testid="sales-chart">
      <figcaption className="mb-3 flex flex-wrap items-center justify-between gap-2 text-sm font-medium">
        <span>{title}</span>
        <ChartLegend
          series={[
            { label: t("chart.gross"), swatch: "bg-brand-600" },
            { label: t("chart.net"), swatch: "bg-brand-900" },
          ]}
        />
      </figcaption>
      {report.buckets.length === 0 ? (
        <p className="text-sm text-zinc-600">{t("chart.empty")}</p>
      ) : (
        <div aria-hidden="true" className="flex h-32 items-end gap-0.5">
          {report.buckets.map((bucket) => (
            <div
              key={bucket.day}
              title={t("chart.bar", {
                day: label(bucket.day),
                gross: reais(format, bucket.gross),
                net: reais(format, bucket.net),
                orders: bucket.orders,
              })}
              className="relative flex-1 rounded-t bg-brand-600"
              style={{ height: `${Math.max(2, (bucket.gross / most) * 100)}%` }}
            >
              <div
                className="absolute inset-x-0 bottom-0 rounded-t bg-brand-900"
                style={{ height: `${bucket.gross === 0 ? 0 : (Math.max(0, bucket.net) / bucket.gross) * 100}%` }}
              />
            </div>
          ))}
        </div>
      )}
      <table className="sr-only">
        <caption>{title}</caption>
        <tbody>
          {report.buckets.map((bucket) => (
            <tr key={bucket.day}>
              <th scope="row">{label(bucket.day)}</th>
              <td>{reais(format, bucket.gross)}</td>
              <td>{reais(format, bucket.net)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

function States({ report, t, format }: { report: SalesReport; t: Words; format: DisplayFormat }) {
  const total = report.current.gross;
  return (
    <section className="rounded-lg border border-zinc-200 bg-white p-4" aria-labelledby="sales-states">
      <h2 id="sales-states" className="mb-3 text-sm font-medium">
        {t("states.title")}
      </h2>
      {report.states.length === 0 ? (
        <p className="text-sm text-zinc-600">{t("states.empty")}</p>
      ) : (
        <table className="w-full text-sm" data-testid="sales-states">
          <thead className="text-left text-zinc-600">
            <tr>
              <th scope="col" className="py-1 font-medium">
                {t("states.state")}
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                {t("states.orders")}
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                {t("states.gross")}
              </th>
              <th scope="col" className="hidden py-1 text-right font-medium sm:table-cell">
                {t("states.share")}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100 tabular-nums">
            {report.states.map((row) => (
              <tr key={row.state ?? "unknown"} data-state={row.state ?? ""}>
                <th scope="row" className="py-2 text-left font-medium">
                  {row.state ?? t("states.unknown")}
                </th>
                <td className="py-2 text-right">{format.count(row.orders)}</td>
                <td className="py-2 text-right">{reais(format, row.gross)}</td>
                <td className="hidden py-2 text-right sm:table-cell">{format.percent(total === 0 ? 0 : row.gross / total)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function BestProducts({
  products,
  ranking,
  showMargin,
  link,
  t,
  format,
}: {
  products: ProductSales[];
  ranking: Ranking;
  showMargin: boolean;
  link: (ranking: Ranking) => string;
  t: Words;
  format: DisplayFormat;
}) {
  const rankings = RANKINGS.filter((each) => each !== "margin" || showMargin);
  return (
    <section className="rounded-lg border border-zinc-200 bg-white p-4" aria-labelledby="sales-products">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id="sales-products" className="text-sm font-medium">
          {t("products.title")}
        </h2>
        <nav aria-label={t("products.rankBy")}>
          <ul className="flex flex-wrap gap-1 text-sm">
            {rankings.map((each) => (
              <li key={each}>
                <Link
                  href={link(each)}
                  aria-current={each === ranking ? "true" : undefined}
                  className={`inline-flex min-h-11 items-center rounded-md px-3 ${each === ranking ? "bg-zinc-900 text-white" : "text-zinc-700 hover:bg-zinc-100"}`}
                >
                  {t(`products.by.${each}`)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      {products.length === 0 ? (
        <p className="text-sm text-zinc-600">{t("products.empty")}</p>
      ) : (
        <ol className="divide-y divide-zinc-100" data-testid="sales-products">
          {bestProducts(products, ranking).map((product) => (
            <li
              key={product.sku}
              className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2 text-sm"
              data-sku={product.sku}
            >
              <span className="min-w-0">
                <span className="font-medium text-zinc-900">{product.name}</span>{" "}
                <span className="font-mono text-xs text-zinc-600">{product.sku}</span>
              </span>
              <span className="flex flex-wrap gap-x-4 tabular-nums text-zinc-700">
                <span>{t("products.units", { count: product.units })}</span>
                <span data-testid="product-revenue">{reais(format, product.revenue)}</span>
                {showMargin ? (
                  <span className={product.margin !== null && product.margin < 0 ? "text-red-800" : undefined}>
                    {product.margin === null ? t("products.noMargin") : t("products.margin", { amount: reais(format, product.margin) })}
                  </span>
                ) : null}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function PeriodPicker({
  shopId,
  choice,
  period,
  timeZone,
  t,
}: {
  shopId: string;
  choice: SalesChoice;
  period: Period;
  timeZone: string;
  t: Words;
}) {
  const chosen = "preset" in choice ? choice.preset : "custom";
  const lastDay = wallDay(new Date(period.to.getTime() - 1), timeZone);
  return (
    <div className="space-y-3">
      <nav aria-label={t("periods.label")}>
        <ul className="flex flex-wrap gap-2">
          {PRESETS.map((preset) => (
            <li key={preset}>
              <Link
                href={shopPath(shopId, `/sales?period=${preset}`)}
                aria-current={chosen === preset ? "page" : undefined}
                className={`inline-flex min-h-11 items-center rounded-md border px-3 text-sm font-medium ${chosen === preset ? "border-brand-700 bg-brand-700 text-white" : "border-zinc-300 bg-white text-zinc-800 hover:bg-zinc-50"}`}
              >
                {t(`periods.${preset}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <form action={shopPath(shopId, "/sales")} className="flex flex-wrap items-end gap-2" aria-label={t("periods.custom")}>
        <label className="flex flex-col text-sm text-zinc-700">
          {t("periods.from")}
          <input
            type="date"
            name="from"
            required
            defaultValue={wallDay(period.from, timeZone)}
            className="min-h-11 rounded-md border border-zinc-300 bg-white px-2"
          />
        </label>
        <label className="flex flex-col text-sm text-zinc-700">
          {t("periods.to")}
          <input
            type="date"
            name="to"
            required
            defaultValue={lastDay}
            className="min-h-11 rounded-md border border-zinc-300 bg-white px-2"
          />
        </label>
        <button type="submit" className="min-h-11 rounded-md border border-zinc-300 bg-white px-4 text-sm font-medium hover:bg-zinc-50">
          {t("periods.show")}
        </button>
      </form>
    </div>
  );
}

// A shop's sales for a period against the one before it (issue 42): figures, a chart, by state, and
// the CSV of what is shown. Every role that sees the overview sees its sales.
export async function SalesPage({ params, searchParams }: PageProps<"/s/[shopId]/sales">) {
  const access = await requireShop((await params).shopId, "overview.view");
  const { shop } = access;
  const query = await searchParams;
  const { choice, invalid } = salesChoiceOf(query);
  const period = periodOf(choice, new Date(), shop.timeZone);
  const ranking = rankingOf(query);
  const showMargin = can(access.role, "prices.view");
  const [t, format, report, products] = await Promise.all([
    getTranslations("sales"),
    getDisplayFormat(),
    salesReport(shop, period),
    productSales(shop.id, period),
  ]);
  const range = t("range", {
    from: format.date(period.from.toISOString(), "date"),
    to: format.date(new Date(period.to.getTime() - 1).toISOString(), "date"),
  });
  return (
    <section className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
        <p className="mt-1 text-sm text-zinc-600">{t("intro")}</p>
      </div>
      {invalid ? (
        <p role="status" className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          {t("invalid")}
        </p>
      ) : null}
      <PeriodPicker shopId={shop.id} choice={choice} period={period} timeZone={shop.timeZone} t={t} />
      <p className="text-sm font-medium text-zinc-800" data-testid="sales-range">
        {range}
      </p>
      <Figures report={report} t={t} format={format} />
      {report.current.otherCurrency > 0 ? (
        <p className="text-sm text-zinc-600">{t("figures.otherCurrency", { count: report.current.otherCurrency })}</p>
      ) : null}
      <Chart report={report} period={period} t={t} format={format} />
      <BestProducts
        products={products}
        ranking={ranking === "margin" && !showMargin ? "revenue" : ranking}
        showMargin={showMargin}
        link={(each) => shopPath(shop.id, `/sales?${choiceQuery(choice)}${each === "revenue" ? "" : `&by=${each}`}`)}
        t={t}
        format={format}
      />
      <States report={report} t={t} format={format} />
      <a
        href={`/api${shopPath(shop.id, `/sales/export?${choiceQuery(choice)}${ranking === "revenue" ? "" : `&by=${ranking}`}`)}`}
        className="inline-flex min-h-11 items-center font-medium text-brand-700 hover:underline"
        data-testid="sales-export"
      >
        {t("export.link")}
      </a>
    </section>
  );
}
