import type { Metadata } from "next";
import { readReferences } from "@/lib/orders/order-references.server";
import { orderLabel } from "@/lib/words/order-reference";
import { eventSubject } from "@/features/webhooks/events/event-rows";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { countEarlierReceipts, getWebhookEvent } from "@/features/webhooks/events/webhook-events.server";
import { processingStateWord } from "@/features/webhooks/events/processing-state-word";
import { ProcessAgainButton } from "@/features/webhooks/components/webhook-action-buttons";
import { requireShop } from "@/lib/auth/session.server";
import { env } from "@/lib/env";
import { getDisplayFormat } from "@/lib/format.server";
import { eventWord } from "@/lib/words/event-words";
import { ShopLink } from "@/components/shop-link";
import { can } from "@/lib/people/roles";

export async function eventPageMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("webhooks"))("event.title") };
}

function prettyBody(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

export async function EventPage({ params }: PageProps<"/s/[shopId]/webhooks/events/[id]">) {
  const access = await requireShop((await params).shopId, "events.view");
  const shop = access.shop;
  const { id } = await params;
  const event = await getWebhookEvent(shop.id, id);
  if (!event) notFound();
  const [t, words, format] = await Promise.all([getTranslations("webhooks"), getTranslations("words"), getDisplayFormat()]);
  const headers = JSON.parse(event.headers) as Record<string, string>;
  const earlierReceipts = event.source === "webhook" ? await countEarlierReceipts(shop.id, event.bodyHash, event.receivedAt) : 0;

  // Instants in the shop's time zone, as on every other page, to the second: enough to match a
  // receipt with the platform's delivery log. The platform's codes stay too (the heading says them in words).
  const instant = (value: Date) => format.date(value, "dateTimeSeconds");
  const reference = event.orderId ? (await readReferences(shop.id, [event.orderId])).get(event.orderId) : undefined;
  // What a seller reads; the platform's codes and ids, the signature and the raw body are one click away below.
  const facts: [string, React.ReactNode][] = [
    [t("event.received"), t("event.receivedValue", { received: instant(event.receivedAt), lastCopy: instant(event.lastReceivedAt) })],
    [
      t("event.about"),
      event.orderId ? (
        <ShopLink key="order" href={`/orders/${event.orderId}`} className="text-brand-700 hover:underline">
          {orderLabel({ id: event.orderId, reference: reference ?? null })}
        </ShopLink>
      ) : (
        eventSubject({ orderId: null, orderReference: null, code: event.code, resourceId: event.resourceId })
      ),
    ],
    [
      t("event.source"),
      event.source === "reconciliation"
        ? t("event.sourceReconciliation")
        : earlierReceipts > 0
          ? t("event.sourceRepeat", { receipt: String(earlierReceipts + 1) })
          : t("event.sourceNotification"),
    ],
    [
      t("event.processing"),
      t("event.processingValue", {
        state: processingStateWord(t, event.processingState),
        hasProcessedAt: event.processedAt ? "yes" : "no",
        processedAt: event.processedAt ? instant(event.processedAt) : "",
        attempts: event.attempts,
        hasError: event.processingError ? "yes" : "no",
        error: event.processingError ?? "",
      }),
    ],
  ];
  const technical: [string, React.ReactNode][] = [
    [t("event.domainStatus"), <code key="codes" className="font-mono text-xs">{`${event.domain ?? "—"} / ${event.status ?? "—"}`}</code>],
    [t("event.resourceId"), event.resourceId ?? "—"],
    [t("event.code"), event.code ?? "—"],
    [t("event.orderDelivery"), `${event.orderId ?? "—"} / ${event.deliveryId ?? "—"}`],
    [t("event.signature"), event.signatureResult === "valid" ? t("event.signatureValid") : t("event.signatureNone")],
    [
      t("event.shape"),
      event.valid ? t("event.shapeKnown") : t("event.shapeInvalid", { reason: event.invalidReason ?? t("event.unknownReason") }),
    ],
    [t("event.duplicates"), format.count(event.duplicateCount)],
  ];
  if (event.heldUntil) {
    facts.push([
      t("event.held"),
      t("event.heldValue", { limit: env.WEBHOOK_REPLAY_LIMIT_PER_MINUTE, heldUntil: instant(event.heldUntil) }),
    ]);
  }

  return (
    <section className="space-y-6">
      <ShopLink href="/webhooks/events" className="inline-flex min-h-11 items-center text-sm text-brand-700 hover:underline md:min-h-0">
        {t("event.backToLog")}
      </ShopLink>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between sm:gap-4">
        <h1 className="text-2xl font-semibold tracking-tight">{eventWord(words, event.domain, event.status)}</h1>
        {can(access.role, "events.processAgain") ? <ProcessAgainButton eventId={event.id} /> : null}
      </div>
      <Facts facts={facts} />
      {/* The technical detail, for whoever needs it (an integrator, support): folded. */}
      <details
        className="group space-y-4 rounded-lg border border-zinc-200 bg-white p-4 sm:p-6"
        data-technical
        data-testid="event-technical"
      >
        <summary className="cursor-pointer font-medium">{t("event.technical")}</summary>
        <div className="mt-4 space-y-6">
          <Facts facts={technical} />
          <div className="grid gap-6 lg:grid-cols-2">
            <div className="min-w-0">
              <h2 className="mb-2 font-medium">{t("event.body")}</h2>
              {/* Focusable, so the keyboard can scroll what is wider than the screen. */}
              <pre tabIndex={0} className="overflow-x-auto rounded-lg bg-zinc-900 p-4 text-xs text-zinc-100" data-testid="event-body">
                {prettyBody(event.rawBody)}
              </pre>
            </div>
            <div className="min-w-0">
              <h2 className="mb-2 font-medium">{t("event.headers")}</h2>
              <pre tabIndex={0} className="overflow-x-auto rounded-lg bg-zinc-900 p-4 text-xs text-zinc-100">
                {JSON.stringify(headers, null, 2)}
              </pre>
            </div>
          </div>
        </div>
      </details>
    </section>
  );
}

/** On a phone each label sits above its value; from `sm` up, two columns. */
function Facts({ facts }: { facts: [string, React.ReactNode][] }) {
  return (
    <dl className="space-y-3 rounded-lg border border-zinc-200 bg-white p-4 text-sm sm:grid sm:grid-cols-[12rem_minmax(0,1fr)] sm:gap-x-4 sm:gap-y-2 sm:space-y-0 sm:p-6">
      {facts.map(([label, value]) => (
        <div key={label} className="sm:contents">
          <dt className="text-zinc-600">{label}</dt>
          <dd className="break-all">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
