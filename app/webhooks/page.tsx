import type { Metadata } from "next";
import Link from "next/link";
import { ProblemNotice } from "@/components/platform/problem-notice";
import { ConnectionHealthPanel } from "@/components/webhooks/connection-health";
import { RotateReceiverButton } from "@/components/webhooks/webhook-action-buttons";
import { WebhookSettings } from "@/components/webhooks/webhook-settings";
import { requireSeller } from "@/lib/auth/session";
import { getConnectionHealth } from "@/lib/data/connection-health";
import { withPlatform } from "@/lib/data/platform";
import { receiverUrlFor } from "@/lib/webhooks/receiver-url";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage() {
  const seller = await requireSeller();
  const [current, health] = await Promise.all([
    withPlatform(seller, "getWebhookUrl", (client) => client.getWebhookUrl()),
    getConnectionHealth(seller.id),
  ]);

  return (
    <section className="max-w-3xl space-y-6">
      <div className="flex items-baseline justify-between">
        <h1 className="text-2xl font-semibold tracking-tight">Webhooks</h1>
        <Link href="/webhooks/events" className="text-sm font-medium text-brand-700 hover:underline">
          Event log →
        </Link>
      </div>
      <p className="text-sm text-zinc-600">
        The marketplace notifies one URL of new orders, deliveries, SKUs and prices. Point it at this dashboard to see
        them live and keep them in the event log.
      </p>
      {current.ok ? (
        <WebhookSettings currentUrl={current.data.url || null} receiverUrl={receiverUrlFor(seller.connection.webhookKey)} />
      ) : (
        <ProblemNotice problem={current.problem} feature="your webhook settings" />
      )}
      <ConnectionHealthPanel health={health} />
      <section aria-labelledby="receiver-url" className="space-y-2 rounded-lg border border-zinc-200 bg-white p-4 text-sm">
        <h2 id="receiver-url" className="text-base font-semibold">
          Receiver URL
        </h2>
        <p className="text-zinc-600">
          If this dashboard&apos;s receiver URL was shared by mistake, rotate it: the old one stops accepting
          notifications at once and the marketplace is pointed at the new one.
        </p>
        <RotateReceiverButton />
      </section>
    </section>
  );
}
