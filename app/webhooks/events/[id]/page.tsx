import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ProcessAgainButton } from "@/components/webhooks/webhook-action-buttons";
import { requireSeller } from "@/lib/auth/session";
import { countEarlierReceipts, getWebhookEvent } from "@/lib/data/webhook-events";

export const metadata: Metadata = { title: "Event" };

function prettyBody(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

export default async function EventPage({ params }: PageProps<"/webhooks/events/[id]">) {
  const seller = await requireSeller();
  const { id } = await params;
  const event = await getWebhookEvent(seller.id, id);
  if (!event) notFound();
  const headers = JSON.parse(event.headers) as Record<string, string>;
  const earlierReceipts = event.source === "webhook" ? await countEarlierReceipts(seller.id, event.bodyHash, event.receivedAt) : 0;

  const facts: [string, React.ReactNode][] = [
    ["Received", `${event.receivedAt.toISOString()} (last copy ${event.lastReceivedAt.toISOString()})`],
    ["Domain / status", `${event.domain ?? "—"} / ${event.status ?? "—"}`],
    ["Resource id", event.resourceId ?? "—"],
    ["Code", event.code ?? "—"],
    ["Order / delivery", `${event.orderId ?? "—"} / ${event.deliveryId ?? "—"}`],
    [
      "Source",
      event.source === "reconciliation"
        ? "Reconciliation: the order changed on the marketplace and no notification told of it"
        : earlierReceipts > 0
          ? `Notification — receipt ${earlierReceipts + 1} of this same notification (identical body), processed again`
          : "Notification",
    ],
    ["Signature", event.signatureResult === "valid" ? "Valid (HMAC-SHA256 of the raw body with your access token)" : "Not signed (found by reconciliation)"],
    ["Shape", event.valid ? "Known message shape" : `Invalid: ${event.invalidReason ?? "unknown reason"}`],
    [
      "Processing",
      `${event.processingState}${event.processedAt ? ` at ${event.processedAt.toISOString()}` : ""}, ${event.attempts} attempt${event.attempts === 1 ? "" : "s"}${event.processingError ? ` — last error: ${event.processingError}` : ""}`,
    ],
    ["Duplicates received while waiting", String(event.duplicateCount)],
  ];

  return (
    <section className="space-y-6">
      <Link href="/webhooks/events" className="text-sm text-brand-700 hover:underline">
        ← Event log
      </Link>
      <div className="flex items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold tracking-tight">
          {event.domain ?? "Unknown"} · {event.status ?? "—"}
        </h1>
        <ProcessAgainButton eventId={event.id} />
      </div>
      <dl className="grid grid-cols-[12rem_1fr] gap-y-2 rounded-lg border border-zinc-200 bg-white p-6 text-sm">
        {facts.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-zinc-500">{label}</dt>
            <dd className="break-all">{value}</dd>
          </div>
        ))}
      </dl>
      <div className="grid gap-6 lg:grid-cols-2">
        <div>
          <h2 className="mb-2 font-medium">Body</h2>
          <pre className="overflow-x-auto rounded-lg bg-zinc-900 p-4 text-xs text-zinc-100" data-testid="event-body">
            {prettyBody(event.rawBody)}
          </pre>
        </div>
        <div>
          <h2 className="mb-2 font-medium">Headers</h2>
          <pre className="overflow-x-auto rounded-lg bg-zinc-900 p-4 text-xs text-zinc-100">{JSON.stringify(headers, null, 2)}</pre>
        </div>
      </div>
    </section>
  );
}
