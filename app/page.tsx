import Link from "next/link";
import { ConnectButton } from "@/components/auth/connect-button";
import { OverviewPanel } from "@/components/overview/overview";
import { getCurrentSeller } from "@/lib/auth/session";
import { getConnectionHealth } from "@/lib/data/connection-health";
import { getOverview } from "@/lib/data/overview";
import { recentWebhookEvents } from "@/lib/data/webhook-events";
import { NOTIFICATIONS_AT_CONNECT_TEXT } from "@/lib/webhooks/notifications-status";

export default async function HomePage() {
  const seller = await getCurrentSeller();
  if (!seller) return <Landing />;
  const [overview, events, health] = await Promise.all([
    getOverview(seller.id),
    recentWebhookEvents(seller.id, 5),
    getConnectionHealth(seller.id),
  ]);

  return (
    <section className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Welcome, {seller.name}</h1>
        <p className="mt-1 text-sm text-zinc-600">Your marketplace account {seller.email} is connected.</p>
      </div>
      {seller.connection.notificationsAtConnect ? (
        <p
          role="status"
          data-testid="notifications-at-connect"
          className={`rounded-lg border p-4 text-sm ${seller.connection.notificationsAtConnect === "on" || seller.connection.notificationsAtConnect === "already" ? "border-brand-100 bg-brand-50 text-brand-900" : "border-amber-200 bg-amber-50 text-amber-900"}`}
        >
          {NOTIFICATIONS_AT_CONNECT_TEXT[seller.connection.notificationsAtConnect]}{" "}
          <Link href="/webhooks" className="font-medium underline">
            Webhooks
          </Link>
        </p>
      ) : null}
      <OverviewPanel overview={overview} events={events} health={health} />
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {[
          { href: "/orders", title: "Orders", text: "Review incoming orders and their deliveries." },
          { href: "/prices", title: "Prices", text: "Edit list and sell prices, one by one or in bulk." },
          { href: "/skus", title: "SKUs", text: "Create products and new versions of them." },
          { href: "/webhooks", title: "Webhooks", text: "Receive the platform's notifications." },
        ].map((card) => (
          <li key={card.href}>
            <Link href={card.href} className="block h-full rounded-lg border border-zinc-200 bg-white p-4 hover:border-brand-600">
              <h2 className="font-medium">{card.title}</h2>
              <p className="mt-1 text-sm text-zinc-600">{card.text}</p>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Landing() {
  return (
    <section className="mx-auto max-w-2xl py-16 text-center">
      <h1 className="text-3xl font-semibold tracking-tight text-zinc-900">Your marketplace, in one dashboard</h1>
      <p className="mt-4 text-zinc-600">
        Connect your marketplace seller account to review incoming orders, create SKUs, keep your prices right and
        watch the notifications the platform sends you.
      </p>
      <div className="mt-8 flex justify-center">
        <ConnectButton />
      </div>
    </section>
  );
}
