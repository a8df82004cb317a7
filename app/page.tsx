import { useTranslations } from "next-intl";
import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { ConnectButton } from "@/components/auth/connect-button";
import { OverviewPanel } from "@/components/overview/overview";
import { getCurrentSeller } from "@/lib/auth/session";
import { getConnectionHealth } from "@/lib/data/connection-health";
import { getOverview } from "@/lib/data/overview";
import { recentWebhookEvents } from "@/lib/data/webhook-events";

const CARDS = [
  { href: "/orders", key: "orders" },
  { href: "/prices/products", key: "prices" },
  { href: "/skus", key: "skus" },
  { href: "/webhooks", key: "webhooks" },
] as const;

export default async function HomePage() {
  const seller = await getCurrentSeller();
  if (!seller) return <Landing />;
  const [overview, events, health, t, webhooks] = await Promise.all([
    getOverview(seller.id, seller.timeZone),
    recentWebhookEvents(seller.id, 5),
    getConnectionHealth(seller.id),
    getTranslations("overview"),
    getTranslations("webhooks"),
  ]);
  const notifications = seller.connection.notificationsAtConnect;

  return (
    <section className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{t("welcome", { name: seller.name })}</h1>
        <p className="mt-1 text-sm break-words text-zinc-600">{t("connected", { email: seller.email })}</p>
      </div>
      {notifications ? (
        <p
          role="status"
          data-testid="notifications-at-connect"
          className={`rounded-lg border p-4 text-sm ${notifications === "on" || notifications === "already" ? "border-brand-100 bg-brand-50 text-brand-900" : "border-amber-200 bg-amber-50 text-amber-900"}`}
        >
          {webhooks(`notificationsAtConnect.${notifications}`)}{" "}
          <Link href="/webhooks" className="font-medium underline">
            {t("webhooksLink")}
          </Link>
        </p>
      ) : null}
      <OverviewPanel overview={overview} events={events} health={health} />
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {CARDS.map((card) => (
          <li key={card.href}>
            <Link href={card.href} className="block h-full rounded-lg border border-zinc-200 bg-white p-4 hover:border-brand-600">
              <h2 className="font-medium">{t(`cards.${card.key}.title`)}</h2>
              <p className="mt-1 text-sm text-zinc-600">{t(`cards.${card.key}.text`)}</p>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Landing() {
  const t = useTranslations("overview.landing");
  return (
    <section className="mx-auto max-w-2xl py-16 text-center">
      <h1 className="text-3xl font-semibold tracking-tight text-zinc-900">{t("title")}</h1>
      <p className="mt-4 text-zinc-600">{t("intro")}</p>
      <div className="mt-8 flex justify-center">
        <ConnectButton />
      </div>
    </section>
  );
}
