import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { ConnectButton } from "@/components/auth/connect-button";
import { shopsAtAGlance } from "@/features/shops/glance.server";
import type { SalesTotal, ShopGlance } from "@/features/shops/glance";
import { requirePerson } from "@/lib/auth/session.server";
import type { DisplayFormat } from "@/lib/format";
import { getDisplayFormat } from "@/lib/format.server";
import { shopPath } from "@/lib/shops/paths";

export async function shopsPageMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("members.shops"))("title") };
}

const PROBLEM_PATHS = { reconnect: "/settings", permissions: "/settings", deadEvents: "/webhooks/events?processing=dead" } as const;

/** The orders a sales figure counts: not cancelled, placed since `since`. */
const salesPath = (since: Date) => `/orders?status=new,approved,finished&from=${encodeURIComponent(since.toISOString())}`;

function money(sales: SalesTotal, format: DisplayFormat): string {
  if (sales.totals.length === 0) return format.money({ value: 0, currency: "BRL", normalizer: 100 });
  return sales.totals
    .map((total) => format.money({ value: total.total, currency: total.currency, normalizer: total.normalizer }))
    .join(" + ");
}

type Words = Awaited<ReturnType<typeof getTranslations<"members.shops">>>;

function Figure({ href, label, value, testId, alarm }: { href: string; label: string; value: string; testId: string; alarm?: boolean }) {
  return (
    <Link
      href={href}
      data-testid={testId}
      className={`flex min-h-11 flex-col justify-center rounded-md border px-3 py-2 hover:bg-zinc-50 ${alarm ? "border-amber-300 bg-amber-50" : "border-zinc-200"}`}
    >
      <span className="text-xs text-zinc-600">{label}</span>
      <span className={`text-base font-semibold ${alarm ? "text-amber-900" : "text-zinc-900"}`}>{value}</span>
    </Link>
  );
}

function ShopRow({ glance, t, roles, format }: { glance: ShopGlance; t: Words; roles: (role: string) => string; format: DisplayFormat }) {
  const { shop } = glance;
  const to = (path: string) => shopPath(shop.id, path);
  return (
    <li className="space-y-3 p-4" data-testid="shop-glance" data-shop={shop.id}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          {shop.connected ? (
            <Link
              href={shopPath(shop.id)}
              className="inline-flex min-h-11 items-center font-medium text-brand-700 hover:underline"
              aria-label={t("open", { name: shop.name })}
            >
              {shop.name}
            </Link>
          ) : (
            <span className="font-medium text-zinc-900">{shop.name}</span>
          )}
          <p className="break-all text-sm text-zinc-600">
            {shop.email} · {roles(shop.role)}
          </p>
          {shop.connected ? null : <p className="text-sm text-amber-900">{t("disconnected")}</p>}
        </div>
        {!shop.connected && shop.role === "owner" ? <ConnectButton>{t("connectAgain")}</ConnectButton> : null}
      </div>
      {glance.problems.length > 0 ? (
        <ul className="space-y-1" aria-label={t("glance.problemsLabel", { name: shop.name })}>
          {glance.problems.map((problem) => (
            <li key={problem}>
              <Link
                href={to(PROBLEM_PATHS[problem])}
                data-testid={`problem-${problem}`}
                className="inline-flex min-h-11 items-center text-sm font-medium text-amber-900 underline"
              >
                {t(`glance.problems.${problem}`)}
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
      <div
        className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-5"
        aria-label={t("glance.figuresLabel", { name: shop.name })}
        role="group"
      >
        <Figure
          href={to("/shipping?due=today")}
          label={t("glance.shipToday")}
          value={format.count(glance.shipToday)}
          testId="glance-ship-today"
        />
        <Figure
          href={to("/shipping?due=late")}
          label={t("glance.late")}
          value={format.count(glance.late)}
          testId="glance-late"
          alarm={glance.late > 0}
        />
        {glance.pricesBelowCost === null ? null : (
          <Figure
            href={to("/prices/products")}
            label={t("glance.belowCost")}
            value={format.count(glance.pricesBelowCost)}
            testId="glance-below-cost"
            alarm={glance.pricesBelowCost > 0}
          />
        )}
        <Figure
          href={to(salesPath(glance.since.today))}
          label={t("glance.salesToday", { orders: glance.today.orders })}
          value={money(glance.today, format)}
          testId="glance-sales-today"
        />
        <Figure
          href={to(salesPath(glance.since.month))}
          label={t("glance.salesMonth", { orders: glance.month.orders })}
          value={money(glance.month, format)}
          testId="glance-sales-month"
        />
      </div>
    </li>
  );
}

// Every shop the person is in, with their role and, for each, what needs them today and how its
// sales go (issue 42), those needing attention first; a disconnected one says who can bring it back.
export async function ShopsPage() {
  const person = await requirePerson();
  const [t, shell, format, glances] = await Promise.all([
    getTranslations("members.shops"),
    getTranslations("shell"),
    getDisplayFormat(),
    shopsAtAGlance(person.shops),
  ]);
  return (
    <section className="mx-auto max-w-5xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
        <p className="mt-1 text-sm text-zinc-600">{person.shops.length > 0 ? t("intro") : t("none")}</p>
      </div>
      {glances.length > 0 ? (
        <ul className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white" data-testid="shops">
          {glances.map((glance) => (
            <ShopRow key={glance.shop.id} glance={glance} t={t} roles={(role) => shell(`roles.${role}` as "roles.owner")} format={format} />
          ))}
        </ul>
      ) : null}
      <ConnectButton>{person.shops.length > 0 ? shell("shop.connectAnother") : t("connect")}</ConnectButton>
    </section>
  );
}
