import type { Metadata } from "next";
import { HydrationBoundary } from "@tanstack/react-query";
import { getTranslations } from "next-intl/server";
import { eventsSchema } from "@/features/webhooks/events/event-filters";
import { listWebhookEvents } from "@/features/webhooks/events/webhook-events.server";
import { EventLogTable } from "@/features/webhooks/components/event-log-table";
import { ProcessAllDeadButton } from "@/features/webhooks/components/webhook-action-buttons";
import { requireShop } from "@/lib/auth/session.server";
import { local } from "@/lib/tables/list-route.server";
import { prefetchTablePage } from "@/lib/tables/prefetch.server";
import { ShopLink } from "@/components/shop-link";
import { can } from "@/lib/people/roles";

export async function eventsPageMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("webhooks"))("events.title") };
}

export async function EventsPage({ params, searchParams }: PageProps<"/s/[shopId]/webhooks/events">) {
  const access = await requireShop((await params).shopId, "events.view");
  const shop = access.shop;
  const t = await getTranslations("webhooks");
  // The first page is in the HTML (no JavaScript needed to see it); later pages load in the browser.
  const firstPage = await prefetchTablePage("events", shop.id, eventsSchema, await searchParams, (state) =>
    local(listWebhookEvents(shop.id, state)),
  );
  return (
    <section className="space-y-6">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">{t("events.title")}</h1>
        <ShopLink
          href="/webhooks"
          className="inline-flex min-h-11 items-center text-sm font-medium text-brand-700 hover:underline md:min-h-0"
        >
          {t("events.settingsLink")}
        </ShopLink>
      </div>
      {can(access.role, "events.processAgain") ? <ProcessAllDeadButton /> : null}
      <HydrationBoundary state={firstPage?.state}>
        <EventLogTable urlValid={firstPage?.urlValid ?? true} />
      </HydrationBoundary>
    </section>
  );
}
