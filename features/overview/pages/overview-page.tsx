import { getTranslations } from "next-intl/server";
import { getOverview } from "@/features/overview/overview.server";
import { OverviewPanel } from "@/features/overview/components/overview";
import { SetupGuide } from "@/features/overview/setup-guide/components/setup-guide";
import { ShopLink } from "@/components/shop-link";
import { can } from "@/lib/people/roles";
import { requireShop } from "@/lib/auth/session.server";
import { getConnectionHealth, recentWebhookEvents } from "@/features/webhooks";

const CARDS = [
  { href: "/orders", key: "orders", capability: "orders.view" },
  { href: "/prices/products", key: "prices", capability: "prices.view" },
  { href: "/skus", key: "skus", capability: "skus.view" },
  { href: "/webhooks", key: "webhooks", capability: "events.view" },
] as const;

export async function OverviewPage({ params }: PageProps<"/s/[shopId]">) {
  const access = await requireShop((await params).shopId, "overview.view");
  const shop = access.shop;
  const [overview, events, health, t, webhooks] = await Promise.all([
    getOverview(shop.id, shop.timeZone),
    recentWebhookEvents(shop.id, 5),
    getConnectionHealth(shop.id),
    getTranslations("overview"),
    getTranslations("webhooks"),
  ]);
  const notifications = shop.connection.notificationsAtConnect;

  return (
    <section className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{t("welcome", { name: shop.name })}</h1>
        <p className="mt-1 text-sm break-words text-zinc-600">{t("connected", { email: shop.email })}</p>
      </div>
      <SetupGuide access={access} />
      {notifications && can(access.role, "webhooks.manage") ? (
        <p
          role="status"
          data-testid="notifications-at-connect"
          className={`rounded-lg border p-4 text-sm ${notifications === "on" || notifications === "already" ? "border-brand-100 bg-brand-50 text-brand-900" : "border-amber-200 bg-amber-50 text-amber-900"}`}
        >
          {webhooks(`notificationsAtConnect.${notifications}`)}{" "}
          <ShopLink href="/webhooks" className="font-medium underline">
            {t("webhooksLink")}
          </ShopLink>
        </p>
      ) : null}
      <OverviewPanel overview={overview} events={can(access.role, "events.view") ? events : null} health={health} />
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {CARDS.filter((card) => can(access.role, card.capability)).map((card) => (
          <li key={card.href}>
            <ShopLink href={card.href} className="block h-full rounded-lg border border-zinc-200 bg-white p-4 hover:border-brand-600">
              <h2 className="font-medium">{t(`cards.${card.key}.title`)}</h2>
              <p className="mt-1 text-sm text-zinc-600">{t(`cards.${card.key}.text`)}</p>
            </ShopLink>
          </li>
        ))}
      </ul>
    </section>
  );
}
