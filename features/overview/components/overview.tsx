import { useTranslations } from "next-intl";
import { ShopLink } from "@/components/shop-link";
import { ConnectionHealthPanel } from "@/features/webhooks/components";
import { eventSubject } from "@/features/webhooks";
import type { ConnectionHealth, WebhookEventRow } from "@/features/webhooks";
import type { NetSalesFigure, Overview, SalesFigure } from "@/features/overview/overview.server";
import { useDisplayFormat } from "@/lib/format";
import { ChartLegend } from "@/components/ui/chart-legend";
import { eventWord } from "@/lib/words/event-words";

// The home page once connected: what needs the seller now (each count opens the list it counts),
// how sales go, the last notifications and the connection's health. Server-rendered from the
// order mirror; features/webhooks/live/components/live-updates.tsx refreshes it when an event arrives.

function NeedsYou({
  label,
  count,
  href,
  tone,
  testId,
}: {
  label: string;
  count: number;
  href: string;
  tone: "neutral" | "warning" | "danger";
  testId: string;
}) {
  const format = useDisplayFormat();
  const colours =
    count === 0
      ? "border-zinc-200"
      : tone === "danger"
        ? "border-red-300 bg-red-50"
        : tone === "warning"
          ? "border-amber-300 bg-amber-50"
          : "border-brand-100 bg-brand-50";
  return (
    <li>
      <ShopLink href={href} className={`block rounded-lg border p-4 hover:border-brand-600 ${colours}`}>
        <span className="block text-3xl font-semibold tabular-nums" data-testid={testId}>
          {format.count(count)}
        </span>
        <span className="mt-1 block text-sm text-zinc-700">{label}</span>
      </ShopLink>
    </li>
  );
}

/** A period's gross sales (what buyers paid) and, beside them, what the seller receives of them. */
function Sales({ label, figure, net, testId }: { label: string; figure: SalesFigure; net: NetSalesFigure; testId: string }) {
  const t = useTranslations("overview.sales");
  const format = useDisplayFormat();
  const zero = format.money({ value: 0, currency: "BRL", normalizer: 100 });
  const nets = net.nets.map((part) => format.money({ value: part.net, currency: part.currency, normalizer: part.normalizer })).join(" + ");
  return (
    <div className="rounded-lg border border-zinc-200 bg-white p-4" data-testid={testId}>
      <dt className="text-sm text-zinc-600">{label}</dt>
      <dd className="mt-1 text-xl font-semibold tabular-nums">
        <span className="block text-xs font-normal text-zinc-600">{t("gross")}</span>
        {figure.totals.length === 0
          ? zero
          : figure.totals
              .map((total) => format.money({ value: total.total, currency: total.currency, normalizer: total.normalizer }))
              .join(" + ")}
      </dd>
      <dd className="text-sm text-zinc-600" data-testid={`${testId}-orders`}>
        {t("orders", { count: figure.orders })}
      </dd>
      <dd className="mt-2 text-sm font-medium tabular-nums" data-testid={`${testId}-net`}>
        {/* Orders whose net is not known yet are left out, and the line says how many. */}
        {net.nets.length > 0 ? t("net", { amount: nets }) : net.withoutNet > 0 ? t("netUnknown") : t("net", { amount: zero })}
      </dd>
      {net.withoutNet > 0 ? (
        <dd className="text-xs text-zinc-600" data-testid={`${testId}-without-net`}>
          {t("withoutNet", { count: net.withoutNet })}
        </dd>
      ) : null}
    </div>
  );
}

function DailySales({ daily }: { daily: Overview["daily"] }) {
  const t = useTranslations("overview.daily");
  const format = useDisplayFormat();
  const reais = (value: number) => format.money({ value, currency: "BRL", normalizer: 100 });
  const most = Math.max(1, ...daily.flatMap((day) => [day.gross, day.previousGross]));
  return (
    <figure className="rounded-lg border border-zinc-200 bg-white p-4" data-testid="daily-sales">
      <figcaption className="mb-3 flex flex-wrap items-center justify-between gap-2 text-sm font-medium">
        <span>{t("title")}</span>
        <ChartLegend
          series={[
            { label: t("current"), swatch: "bg-brand-600" },
            { label: t("previous"), swatch: "bg-zinc-300" },
          ]}
        />
      </figcaption>
      <div aria-hidden="true" className="flex h-24 items-end gap-1">
        {daily.map((day) => (
          <div
            key={day.day}
            title={t("bar", { day: format.date(day.startsAt, "dayMonth"), amount: reais(day.gross), before: reais(day.previousGross) })}
            className="relative h-full flex-1"
          >
            {/* The same day of the 30 before, behind; this period's in front. */}
            <div className="absolute inset-x-0 bottom-0 rounded-t bg-zinc-300" style={{ height: `${(day.previousGross / most) * 100}%` }} />
            <div
              className="absolute inset-x-1 bottom-0 rounded-t bg-brand-600"
              style={{ height: `${Math.max(day.gross > 0 ? 2 : 0, (day.gross / most) * 100)}%` }}
            />
          </div>
        ))}
      </div>
      <table className="sr-only">
        <caption>{t("caption")}</caption>
        <tbody>
          {daily.map((day) => (
            <tr key={day.day}>
              <th scope="row">{format.date(day.startsAt, "date")}</th>
              <td>{reais(day.gross)}</td>
              <td>{t("before", { amount: reais(day.previousGross) })}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

/** `events`: null for a role that does not see the event log (operations). */
export function OverviewPanel({
  overview,
  events,
  health,
}: {
  overview: Overview;
  events: WebhookEventRow[] | null;
  health: ConnectionHealth;
}) {
  const t = useTranslations("overview");
  const words = useTranslations("words");
  const format = useDisplayFormat();
  return (
    <div className="space-y-6">
      <section aria-labelledby="needs-you" className="space-y-3">
        <h2 id="needs-you" className="text-lg font-semibold">
          {t("needsYou.title")}
        </h2>
        {/* Each card opens the shipping list it counts (the same query counts both). */}
        <ul className="grid gap-4 sm:grid-cols-2">
          <NeedsYou
            label={t("needsYou.shipToday")}
            count={overview.shipToday}
            href="/shipping?due=today"
            tone="warning"
            testId="count-ship-today"
          />
          <NeedsYou label={t("needsYou.late")} count={overview.late} href="/shipping?due=late" tone="danger" testId="count-late" />
        </ul>
        {/* New orders wait for the platform to approve the payment: worth knowing, nothing to do. */}
        {overview.awaitingApproval > 0 ? (
          <p className="text-sm text-zinc-700">
            <ShopLink href="/orders?status=new" className="text-brand-700 underline" data-testid="count-awaiting">
              {t("needsYou.awaitingApproval", { count: overview.awaitingApproval })}
            </ShopLink>
          </p>
        ) : null}
      </section>

      <section aria-labelledby="sales" className="space-y-3">
        <h2 id="sales" className="text-lg font-semibold">
          {t("sales.title")}
        </h2>
        <dl className="grid gap-4 sm:grid-cols-3">
          <Sales label={t("sales.today")} figure={overview.sales.today} net={overview.netSales.today} testId="sales-today" />
          <Sales label={t("sales.last7Days")} figure={overview.sales.last7Days} net={overview.netSales.last7Days} testId="sales-7-days" />
          <Sales
            label={t("sales.last30Days")}
            figure={overview.sales.last30Days}
            net={overview.netSales.last30Days}
            testId="sales-30-days"
          />
        </dl>
        <p className="text-xs text-zinc-600" data-testid="net-note">
          {t("sales.netNote")}
        </p>
        <DailySales daily={overview.daily} />
      </section>

      {events === null ? null : (
        <section aria-labelledby="last-events" className="space-y-3">
          <div className="flex flex-wrap items-center justify-between gap-x-4">
            <h2 id="last-events" className="text-lg font-semibold">
              {t("events.title")}
            </h2>
            <ShopLink
              href="/webhooks/events"
              className="inline-flex min-h-11 items-center text-sm text-brand-700 hover:underline md:min-h-0"
            >
              {t("events.log")}
            </ShopLink>
          </div>
          {events.length === 0 ? (
            <p className="text-sm text-zinc-600">{t("events.none")}</p>
          ) : (
            <ul className="divide-y divide-zinc-100 rounded-lg border border-zinc-200 bg-white text-sm">
              {events.map((event) => (
                <li key={event.id}>
                  {/* The whole line opens the event: on a phone it is the touch target. */}
                  <ShopLink
                    href={`/webhooks/events/${event.id}`}
                    className="flex min-h-11 flex-wrap items-center justify-between gap-x-3 gap-y-1 px-4 py-2 hover:bg-zinc-50"
                  >
                    <span className="min-w-0">
                      <span className="font-medium">{eventWord(words, event.domain, event.status)}</span>{" "}
                      <span className="break-all text-zinc-600 tabular-nums">{eventSubject(event)}</span>
                    </span>
                    <time dateTime={event.receivedAt} className="text-zinc-600">
                      {format.date(event.receivedAt)}
                    </time>
                  </ShopLink>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}

      <ConnectionHealthPanel health={health} />
    </div>
  );
}
