import "server-only";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { db } from "@/lib/db";
import { claimDueEvents, claimEventForReprocessing, finishEvents, releaseClaims } from "@/lib/data/webhook-queue";
import type { EventOutcome } from "@/lib/data/webhook-queue";
import { webhookWritesSettled } from "@/lib/data/webhook-store";
import { pruneLiveMessages } from "@/lib/live/bus";
import type { LiveMessage, SellerLiveMessage } from "@/lib/live/bus";
import type { StoredEvent } from "@/lib/webhooks/receiver";

// Processing runs after the acknowledgement, never before (spec: Receiver guidance: respond
// quickly). The receiver writes a new event already claimed by this instance (the same statement,
// lib/data/webhook-store.ts) and hands it here; on the next turn of the event loop the batch is
// acted on, and the outcomes and live messages are recorded in one statement. With several
// instances nothing here must run once per cluster by luck: the claim decides who processes an
// event (lib/data/webhook-queue.ts). A sweep, on every instance, takes what nobody is working on:
// events written while their instance was stopping, and claims whose lease expired (an instance
// that died).

/** This process among the instances: written on its claims. */
export const INSTANCE_ID = `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;

const BATCH_SIZE = 500;
const SWEEP_EVERY_MS = 5_000;
const PRUNE_EVERY_MS = 5 * 60_000;
/** Recording a batch's outcome is retried this many times before its claims are left to expire. */
const FINISH_ATTEMPTS = 5;

interface WorkerState {
  queue: StoredEvent[];
  draining: Promise<void> | null;
  sweeping: Promise<void> | null;
  sweepTimer: NodeJS.Timeout | null;
  lastPruneAt: number;
  stopped: boolean;
}

const globalForWorker = globalThis as unknown as { webhookWorker?: WorkerState };
const worker: WorkerState = globalForWorker.webhookWorker ?? { queue: [], draining: null, sweeping: null, sweepTimer: null, lastPruneAt: 0, stopped: false };
globalForWorker.webhookWorker = worker;

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

/** The instance a newly received event is claimed for: this one, unless it is shutting down. */
export function processingClaimant(): string | null {
  return worker.stopped ? null : INSTANCE_ID;
}

/**
 * Queues an event this instance just committed and claimed. Ignored while shutting down: the
 * claim is handed back (stopWebhookProcessing) and another instance takes the event.
 */
export function enqueueProcessing(event: StoredEvent) {
  if (worker.stopped) return;
  worker.queue.push(event);
  if (!worker.draining) worker.draining = new Promise<void>((resolve) => setImmediate(resolve)).then(drain);
}

async function drain() {
  try {
    while (worker.queue.length > 0 && !worker.stopped) {
      await processClaimed(worker.queue.splice(0, BATCH_SIZE));
    }
  } finally {
    worker.draining = null;
  }
}

/** Acts on claimed events and records the outcome; the claims are released by the same write. */
async function processClaimed(events: readonly StoredEvent[]) {
  if (events.length === 0) return;
  const outcomes: EventOutcome[] = [];
  const messages: SellerLiveMessage[] = [];
  for (const event of events) outcomes.push(await applyEvent(event, messages));
  for (let attempt = 1; ; attempt++) {
    try {
      await finishEvents(INSTANCE_ID, outcomes, messages);
      return;
    } catch (error) {
      if (attempt >= FINISH_ATTEMPTS) {
        // The claims stay until their lease expires; then the events are processed again
        // (processing is idempotent). Nothing is lost, only delayed.
        console.error(`[webhooks] could not record the processing of ${outcomes.length} events: ${errorText(error)}`);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
    }
  }
}

/**
 * Acts on one event and adds the one live message it produces (what open pages refresh: the
 * event log always, and the resource's table). Idempotent: processing an event again leads to
 * the same state.
 */
async function applyEvent(event: StoredEvent, messages: SellerLiveMessage[]): Promise<EventOutcome> {
  const { sellerId, domain, status } = event;
  const eventId = event.id;
  let outcome: EventOutcome = { id: eventId, state: event.valid ? "processed" : "skipped" };
  let message: LiveMessage = { type: "event", eventId, domain, status };
  if (event.valid) {
    try {
      if (domain === "portfolio.sku" && event.resourceId) {
        // Only SKUs this dashboard created are in the local catalogue; others are left alone.
        await db.sku.updateMany({
          where: { id: event.resourceId, sellerId },
          data: { status: "created", confirmedAt: new Date() },
        });
        message = { type: "sku", eventId, status: status ?? "created", skuId: event.resourceId, code: event.code };
      } else if (domain?.startsWith("order.") && event.orderId) {
        message = { type: "order", eventId, domain, status: status ?? "", orderId: event.orderId, deliveryId: event.deliveryId };
      } else if (domain === "portfolio.price" && event.resourceId) {
        message = { type: "price", eventId, status: status ?? "", priceId: event.resourceId, sku: event.code };
      }
    } catch (error) {
      outcome = { id: eventId, state: "failed", error: errorText(error) };
    }
  }
  messages.push({ sellerId, message });
  return outcome;
}

/** "Process again" from the event log: runs one of the seller's stored events once more, now. */
export async function reprocessWebhookEvent(sellerId: string, eventId: string): Promise<boolean> {
  const event = await claimEventForReprocessing(INSTANCE_ID, sellerId, eventId);
  if (!event) return false;
  await processClaimed([event]);
  return true;
}

/**
 * Takes everything due that nobody is working on, oldest first, batch after batch until none is
 * left (no cap: a backlog drains completely). Returns how many events it processed.
 */
export async function sweepDueEvents(): Promise<number> {
  let total = 0;
  while (!worker.stopped) {
    const claimed = await claimDueEvents(INSTANCE_ID, BATCH_SIZE);
    if (claimed.length === 0) break;
    await processClaimed(claimed);
    total += claimed.length;
  }
  return total;
}

async function sweepOnce() {
  try {
    await sweepDueEvents();
    if (Date.now() - worker.lastPruneAt > PRUNE_EVERY_MS) {
      worker.lastPruneAt = Date.now();
      await pruneLiveMessages();
    }
  } catch (error) {
    console.error(`[webhooks] sweep failed: ${errorText(error)}`);
  }
}

/** Starts this instance's sweep: once now (what a previous run left), then every few seconds. */
export function startWebhookProcessing() {
  if (worker.sweepTimer || worker.stopped) return;
  const loop = async () => {
    worker.sweeping = sweepOnce();
    await worker.sweeping;
    worker.sweeping = null;
    if (!worker.stopped) {
      worker.sweepTimer = setTimeout(() => void loop(), SWEEP_EVERY_MS);
      worker.sweepTimer.unref();
    }
  };
  worker.sweepTimer = setTimeout(() => void loop(), 0);
  worker.sweepTimer.unref();
}

/**
 * Graceful shutdown: takes no more work, lets the batch in hand finish (up to `graceMs`), and
 * hands back every claim it still holds so another instance takes those events at once.
 */
export async function stopWebhookProcessing(graceMs = 10_000): Promise<void> {
  worker.stopped = true;
  if (worker.sweepTimer) clearTimeout(worker.sweepTimer);
  worker.sweepTimer = null;
  worker.queue.length = 0;
  // Events being written now were claimed for this instance: wait for them, then hand them back.
  await Promise.race([webhookWritesSettled(), new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
  const inHand = [worker.draining, worker.sweeping].filter(Boolean);
  if (inHand.length > 0) {
    await Promise.race([Promise.all(inHand), new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
  }
  const released = await releaseClaims(INSTANCE_ID).catch((error: unknown) => {
    console.error(`[webhooks] could not release claims (they expire by themselves): ${errorText(error)}`);
    return 0;
  });
  if (released > 0) console.log(`[webhooks] released ${released} claimed events for other instances`);
}
