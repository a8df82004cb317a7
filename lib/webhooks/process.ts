import "server-only";
import { db } from "@/lib/db";
import { webhookFieldsSelect } from "@/lib/data/webhook-events";
import { setWebhookEventStates } from "@/lib/data/webhook-store";
import type { EventStateUpdate } from "@/lib/data/webhook-store";
import { publishToSeller } from "@/lib/live/bus";
import type { StoredEvent } from "@/lib/webhooks/receiver";

// Processing runs after the acknowledgement, never before (spec: Receiver guidance: respond
// quickly). The receiver commits an event as "pending" and queues it here; the queue drains on
// the next turn of the event loop, acting on each event and recording every outcome of the batch
// in one transaction. If the process stops first, the events stay "pending" in the database and
// are picked up again at the next start (resumePendingEvents) or with "Process again".

const queue: StoredEvent[] = [];
let draining = false;

export function enqueueProcessing(event: StoredEvent) {
  queue.push(event);
  if (!draining) {
    draining = true;
    setImmediate(() => void drain());
  }
}

async function drain() {
  try {
    while (queue.length > 0) {
      const batch = queue.splice(0, 500);
      const updates: EventStateUpdate[] = [];
      for (const event of batch) updates.push(await applyEvent(event));
      try {
        setWebhookEventStates(updates);
      } catch (error) {
        console.error(`[webhooks] could not record processing of ${updates.length} events: ${String(error)}`);
      }
      for (const event of batch) {
        publishToSeller(event.sellerId, { type: "event", eventId: event.id, domain: event.domain, status: event.status });
      }
    }
  } finally {
    draining = false;
  }
}

/** Acts on one event. Idempotent: processing an event again leads to the same state. */
async function applyEvent(event: StoredEvent): Promise<EventStateUpdate> {
  if (!event.valid) return { id: event.id, state: "skipped" };
  try {
    const { sellerId, domain, status } = event;
    if (domain === "portfolio.sku" && event.resourceId) {
      // Only SKUs this dashboard created are in the local catalogue; others are left alone.
      await db.sku.updateMany({
        where: { id: event.resourceId, sellerId },
        data: { status: "created", confirmedAt: new Date() },
      });
      publishToSeller(sellerId, { type: "sku", status: status ?? "created", skuId: event.resourceId, code: event.code });
    } else if (domain?.startsWith("order.") && event.orderId) {
      publishToSeller(sellerId, { type: "order", domain, status: status ?? "", orderId: event.orderId, deliveryId: event.deliveryId });
    } else if (domain === "portfolio.price" && event.resourceId) {
      publishToSeller(sellerId, { type: "price", status: status ?? "", priceId: event.resourceId, sku: event.code });
    }
    return { id: event.id, state: "processed" };
  } catch (error) {
    return { id: event.id, state: "failed", error: (error instanceof Error ? error.message : String(error)).slice(0, 500) };
  }
}

/** "Process again" from the event log: re-reads the stored event and runs it once more, now. */
export async function reprocessWebhookEvent(sellerId: string, eventId: string): Promise<boolean> {
  const event = await db.webhookEvent.findFirst({ where: { id: eventId, sellerId }, select: webhookFieldsSelect });
  if (!event) return false;
  const update = await applyEvent(event);
  setWebhookEventStates([update]);
  publishToSeller(sellerId, { type: "event", eventId: event.id, domain: event.domain, status: event.status });
  return true;
}

let resumed = false;

/** Queues events left "pending" by a previous run of the process (once per process). */
export async function resumePendingEvents() {
  if (resumed) return;
  resumed = true;
  const pending = await db.webhookEvent.findMany({ where: { processingState: "pending" }, select: webhookFieldsSelect, take: 10_000 });
  for (const event of pending) enqueueProcessing(event);
}
