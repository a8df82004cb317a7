import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { ProblemNotice } from "@/components/platform/problem-notice";
import { getConnectionHealth } from "@/features/webhooks/connection-health.server";
import { ConnectionHealthPanel } from "@/features/webhooks/components/connection-health";
import { RotateReceiverButton } from "@/features/webhooks/components/webhook-action-buttons";
import { WebhookSettings } from "@/features/webhooks/components/webhook-settings";
import { requireShop } from "@/lib/auth/session.server";
import { withPlatform } from "@/lib/platform/platform.server";
import { receiverUrlFor } from "@/lib/shops/receiver-url";
import { ShopLink } from "@/components/shop-link";
import { can } from "@/lib/people/roles";

export async function webhooksPageMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("webhooks"))("page.title") };
}

export async function WebhooksPage({ params }: PageProps<"/s/[shopId]/webhooks">) {
  const access = await requireShop((await params).shopId, "events.view");
  const shop = access.shop;
  // The callback URL and the receiver are the owner's to change: other roles see the health only.
  const manage = can(access.role, "webhooks.manage");
  const [current, health, t] = await Promise.all([
    manage ? withPlatform(shop, "getWebhookUrl", (client) => client.getWebhookUrl()) : null,
    getConnectionHealth(shop.id),
    getTranslations("webhooks"),
  ]);

  return (
    <section className="max-w-3xl min-w-0 space-y-6">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">{t("page.title")}</h1>
        <ShopLink
          href="/webhooks/events"
          className="inline-flex min-h-11 items-center text-sm font-medium text-brand-700 hover:underline md:min-h-0"
        >
          {t("page.eventLogLink")}
        </ShopLink>
      </div>
      <p className="text-sm text-zinc-600">{t("page.intro")}</p>
      {current === null ? null : current.ok ? (
        <WebhookSettings
          currentUrl={current.data.url || null}
          receiverUrl={receiverUrlFor(shop.connection.webhookKey)}
          advanced={
            manage ? (
              <section aria-labelledby="receiver-url" className="space-y-2 text-sm">
                <h2 id="receiver-url" className="text-base font-semibold">
                  {t("page.receiverUrl")}
                </h2>
                <p className="text-zinc-600">{t("page.receiverUrlHelp")}</p>
                <RotateReceiverButton />
              </section>
            ) : null
          }
        />
      ) : (
        <ProblemNotice problem={current.problem} feature="yourWebhookSettings" />
      )}
      <ConnectionHealthPanel health={health} />
    </section>
  );
}
