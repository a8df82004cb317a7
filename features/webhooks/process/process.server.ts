import "server-only";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { withPlatform } from "@/lib/platform/platform.server";
import type { PlatformResult } from "@/lib/platform/platform.server";
import { findConnectedShops } from "@/lib/shops/shops.server";
import type { ConnectedShop } from "@/lib/shops/shops.server";
import { confirmSku } from "@/lib/catalogue/sku-confirmation.server";
import {
  claimDueEvents,
  claimEventForReprocessing,
  finishEvents,
  PRUNE_BATCH,
  pruneOldEvents,
  releaseClaims,
  renewClaims,
  startClaimedEvents,
} from "@/features/webhooks/process/queue.server";
import type { EventOutcome, QueuedEvent } from "@/features/webhooks/process/queue.server";
import { pruneAuditEntries } from "@/lib/audit/audit-retention.server";
import { pruneEndedSessions } from "@/lib/people/sessions.server";
import { webhookWritesSettled } from "@/features/webhooks/store.server";
import { env } from "@/lib/env";
import { log, shopLog } from "@/lib/log.server";
import { metrics } from "@/lib/metrics.server";
import { ordersQuery } from "@marketplace/api/list-query";
import { objectIdSchema } from "@marketplace/api/schemas/common";
import { pruneLiveMessages } from "@/features/webhooks/live/live.server";
import type { LiveMessage, SellerLiveMessage } from "@/features/webhooks/live/live-messages";
import { upsertMirrorOrders, upsertMirrorPrice, upsertShopsMirrorOrders } from "@/lib/orders/order-mirror.server";
import type { ShopOrders } from "@/lib/catalogue/product-names.server";
import type { EndpointName, MarketplaceClient } from "@marketplace/api/client";
import type { StoredEvent } from "@/features/webhooks/parse";
import { ProcessingGate } from "@/features/webhooks/process/processing-gate";
import { classifyProblem, nextAttemptDelaySeconds } from "@/features/webhooks/process/retry-policy";
import type { AttemptFailure, RetryPolicy } from "@/features/webhooks/process/retry-policy";

// Processing runs after the acknowledgement (spec: Receiver guidance). With several instances the
// claim decides who processes an event, never luck; a sweep on every instance takes the unclaimed.

export const INSTANCE_ID = `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;

/** An overdue batch takes this many too, so under lasting load processing keeps pace (decision 0004). */
const BATCH_SIZE = 500;
/** Platform calls in flight per batch; none holds a database connection while it waits. */
const FETCH_CONCURRENCY = 16;
/** The spec's example reports max_limit 50. */
const ORDER_LIST_CHUNK = 50;
const WRITE_RETRY_MAX_MS = 5_000;

const retryPolicy: RetryPolicy = {
  maxAttempts: env.WEBHOOK_MAX_ATTEMPTS,
  baseSeconds: env.WEBHOOK_RETRY_BASE_SECONDS,
  capSeconds: 30 * 60,
};

export function configureRetryPolicy(policy: Partial<RetryPolicy>) {
  Object.assign(retryPolicy, policy);
}
const SWEEP_EVERY_MS = 5_000;
/** Well within CLAIM_LEASE_SECONDS. */
const RENEW_EVERY_MS = 5_000;
const PRUNE_EVERY_MS = 5 * 60_000;
/** A pruning backlog is worked off over several passes while due events keep being swept. */
const PRUNE_BATCHES_PER_PASS = 20;

interface ProcessingState {
  queue: StoredEvent[];
  draining: Promise<void> | null;
  sweeping: Promise<void> | null;
  sweepAgain: boolean;
  sweepTimer: NodeJS.Timeout | null;
  renewTimer: NodeJS.Timeout | null;
  lastPruneAt: number;
  stopped: boolean;
  gate: ProcessingGate;
}

const globalForProcessing = globalThis as unknown as { webhookProcessing?: ProcessingState };
const processing: ProcessingState = globalForProcessing.webhookProcessing ?? {
  queue: [],
  draining: null,
  sweeping: null,
  sweepAgain: false,
  sweepTimer: null,
  renewTimer: null,
  lastPruneAt: 0,
  stopped: false,
  gate: new ProcessingGate(),
};
// The state on globalThis survives hot reloads, so it may lack fields added since.
processing.gate ??= new ProcessingGate();
globalForProcessing.webhookProcessing = processing;

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

const processingLog = log.child({ component: "webhooks" });

export function processingGateCounts() {
  return { ...processing.gate.counts };
}

/** Received here and not yet taken into a batch: the batches in flight fill the gate. */
export function eventsWaitingForBatch(): number {
  return processing.queue.length;
}

/** Null while shutting down or when workers process. */
export function processingClaimant(): string | null {
  return processing.stopped || env.WEBHOOK_PROCESSING === "worker" ? null : INSTANCE_ID;
}

/** Ignored while shutting down: the claim is handed back and another instance takes the event. */
export function enqueueProcessing(event: StoredEvent) {
  if (processing.stopped) return;
  processing.queue.push(event);
  if (!processing.draining) processing.draining = new Promise<void>((resolve) => setImmediate(resolve)).then(drain);
}

async function drain() {
  try {
    while (processing.queue.length > 0 && !processing.stopped) {
      const room = await processing.gate.room(() => processing.stopped);
      if (processing.stopped) break;
      metrics.processingBatches.inc({ gate: room });
      const batch = processing.queue.splice(0, BATCH_SIZE);
      const held = await untilWritten("take up received events", () =>
        startClaimedEvents(
          INSTANCE_ID,
          batch.map((event) => event.id),
        ),
      );
      if (held) await processClaimed(batch.filter((event) => held.has(event.id)));
      processing.gate.batchEnded();
    }
  } finally {
    processing.draining = null;
  }
}

/**
 * Never just logged: tried until it works or the instance stops; then the claims expire and
 * another instance processes the events again (idempotent). Null when it gave up.
 */
async function untilWritten<T>(what: string, write: () => Promise<T>): Promise<T | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (processing.stopped) {
        processingLog.error({ err: error }, `could not ${what} before stopping (their claims expire)`);
        return null;
      }
      if (attempt === 1) processingLog.error({ err: error }, `could not ${what}, trying again`);
      await new Promise((resolve) => setTimeout(resolve, Math.min(WRITE_RETRY_MAX_MS, 100 * 2 ** attempt)));
    }
  }
}

async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(lanes);
}

/** Each order or price is read once per batch however many events name it; orders many per request (`id__in`). */
class BatchReads {
  private shops = new Map<string, ConnectedShop>();
  private readonly reads = new Map<string, Promise<PlatformResult<unknown>>>();
  private readonly orders = new Map<string, { ok: true } | { ok: false; failure: AttemptFailure }>();

  async loadShops(events: readonly QueuedEvent[]) {
    const ids = [...new Set(events.filter((event) => event.valid && callsPlatform(event)).map((event) => event.sellerId))];
    if (ids.length === 0) return;
    this.shops = await findConnectedShops(ids);
  }

  /** An event of a shop no longer connected fails for good. */
  platform<T>(sellerId: string, endpoint: EndpointName, call: (client: MarketplaceClient) => Promise<T>): Promise<PlatformResult<T>> {
    const shop = this.shops.get(sellerId);
    if (!shop) throw new AttemptFailed({ retry: false, error: "The seller is no longer connected: connect again, then process again" });
    return withPlatform(shop.seller, endpoint, call, { accessToken: shop.accessToken });
  }

  once<T>(key: string, read: () => Promise<PlatformResult<T>>): Promise<PlatformResult<T>> {
    let result = this.reads.get(key);
    if (!result) this.reads.set(key, (result = read()));
    return result as Promise<PlatformResult<T>>;
  }

  /** Undefined when not fetched ahead: then fetch it alone. */
  prefetched(sellerId: string, orderId: string) {
    return this.orders.get(`${sellerId}:${orderId}`);
  }

  async prefetchOrders(events: readonly QueuedEvent[]) {
    const wanted = new Map<string, Set<string>>();
    for (const event of events) {
      if (!event.valid || !event.domain?.startsWith("order.") || !event.orderId || !objectIdSchema.safeParse(event.orderId).success)
        continue;
      if (!this.shops.has(event.sellerId)) continue; // each event then says why
      let ids = wanted.get(event.sellerId);
      if (!ids) wanted.set(event.sellerId, (ids = new Set()));
      ids.add(event.orderId);
    }
    const requests = [...wanted].flatMap(([sellerId, ids]) => {
      const all = [...ids];
      return Array.from({ length: Math.ceil(all.length / ORDER_LIST_CHUNK) }, (_, index) => ({
        sellerId,
        ids: all.slice(index * ORDER_LIST_CHUNK, (index + 1) * ORDER_LIST_CHUNK),
      }));
    });
    const fetched: ShopOrders[] = [];
    await eachLimited(requests, FETCH_CONCURRENCY, async ({ sellerId, ids }) => {
      const result = await this.platform(sellerId, "listOrders", (client) =>
        client.listOrderSummaries(ordersQuery({ ids, limit: ids.length })),
      );
      if (result.ok) fetched.push({ sellerId, orders: result.data.items });
      else {
        const failure = classifyProblem(result.problem);
        for (const id of ids) this.orders.set(`${sellerId}:${id}`, { ok: false, failure });
      }
    });
    // An order the list left out (a page smaller than asked, say) is fetched alone later.
    let outcome: { ok: true } | { ok: false; failure: AttemptFailure } = { ok: true };
    try {
      await upsertShopsMirrorOrders(fetched);
    } catch (error) {
      outcome = { ok: false, failure: { retry: true, error: `The order mirror could not be written: ${errorText(error)}` } };
    }
    for (const { sellerId, orders } of fetched) for (const order of orders) this.orders.set(`${sellerId}:${order.id}`, outcome);
  }
}

const callsPlatform = (event: QueuedEvent) =>
  (event.domain?.startsWith("order.") && Boolean(event.orderId)) || (event.domain === "portfolio.price" && Boolean(event.resourceId));

/** The claims are released by the write that records the outcomes. */
async function processClaimed(events: readonly QueuedEvent[]) {
  if (events.length === 0) return;
  const reads = new BatchReads();
  await reads.loadShops(events);
  await reads.prefetchOrders(events);
  const results = new Map<string, { outcome: EventOutcome; message: SellerLiveMessage | null }>();
  await eachLimited(events, FETCH_CONCURRENCY, async (event) => {
    results.set(event.id, await applyEvent(event, reads));
  });
  // In the order received, so live messages keep that order.
  const outcomes: EventOutcome[] = [];
  const messages: SellerLiveMessage[] = [];
  for (const event of events) {
    const { outcome, message } = results.get(event.id)!;
    outcomes.push(outcome);
    if (message) messages.push(message);
  }
  logFailures(events, outcomes);
  const written = await untilWritten(`record the processing of ${outcomes.length} events`, () =>
    finishEvents(INSTANCE_ID, outcomes, messages),
  );
  if (written !== null) countOutcomes(outcomes);
}

/** One line per shop, with its first error. */
function logFailures(events: readonly QueuedEvent[], outcomes: readonly EventOutcome[]) {
  const byShop = new Map<string, { retrying: number; dead: number; error: string }>();
  outcomes.forEach((outcome, index) => {
    if (outcome.state !== "retrying" && outcome.state !== "dead") return;
    const shopId = events[index]!.sellerId;
    const shop = byShop.get(shopId) ?? { retrying: 0, dead: 0, error: outcome.error };
    shop[outcome.state]++;
    byShop.set(shopId, shop);
  });
  for (const [shopId, { retrying, dead, error }] of byShop) {
    shopLog(shopId, { component: "webhooks" }).warn(
      { retrying, dead },
      `${retrying + dead} events failed (retried later or dead): ${error}`,
    );
  }
}

function countOutcomes(outcomes: readonly EventOutcome[]) {
  let processed = 0;
  let retrying = 0;
  let dead = 0;
  for (const { state } of outcomes) {
    if (state === "retrying") retrying++;
    else if (state === "dead") dead++;
    else processed++;
  }
  if (processed > 0) metrics.eventsProcessed.inc(processed);
  if (retrying > 0) metrics.eventsFailed.inc(retrying);
  if (dead > 0) metrics.eventsDead.inc(dead);
}

class AttemptFailed extends Error {
  constructor(readonly failure: AttemptFailure) {
    super(failure.error);
  }
}

function fromPlatform<T>(result: PlatformResult<T>): T {
  if (result.ok) return result.data;
  throw new AttemptFailed(classifyProblem(result.problem));
}

/** Idempotent: processing an event again leads to the same state (the mirror only moves forward). */
async function applyEvent(event: QueuedEvent, reads: BatchReads): Promise<{ outcome: EventOutcome; message: SellerLiveMessage | null }> {
  const { sellerId, domain, status } = event;
  const eventId = event.id;
  let message: LiveMessage = { type: "event", eventId, domain, status };
  if (!event.valid) return { outcome: { id: eventId, state: "skipped" }, message: { sellerId, message } };
  try {
    if (domain === "portfolio.sku" && event.resourceId) {
      await confirmSku(sellerId, event.resourceId);
      message = { type: "sku", eventId, status: status ?? "created", skuId: event.resourceId, code: event.code };
    } else if (domain?.startsWith("order.") && event.orderId) {
      const orderId = event.orderId;
      const prefetched = reads.prefetched(sellerId, orderId);
      if (prefetched && !prefetched.ok) throw new AttemptFailed(prefetched.failure);
      if (!prefetched) {
        const order = fromPlatform(
          await reads.once(`order:${sellerId}:${orderId}`, () =>
            reads.platform(sellerId, "getOrder", (client) => client.getOrderSummary(orderId)),
          ),
        );
        await upsertMirrorOrders(sellerId, [order]);
      }
      message = { type: "order", eventId, domain, status: status ?? "", orderId, deliveryId: event.deliveryId };
    } else if (domain === "portfolio.price" && event.resourceId) {
      const priceId = event.resourceId;
      const price = fromPlatform(
        await reads.once(`price:${sellerId}:${priceId}`, () => reads.platform(sellerId, "getPrice", (client) => client.getPrice(priceId))),
      );
      await upsertMirrorPrice(sellerId, price);
      message = { type: "price", eventId, status: status ?? "", priceId, sku: event.code };
    }
    return { outcome: { id: eventId, state: "processed" }, message: { sellerId, message } };
  } catch (error) {
    // Anything not judged by the policy (the database failing mid-way, a bug) is worth a retry.
    const failure: AttemptFailure = error instanceof AttemptFailed ? error.failure : { retry: true, error: errorText(error) };
    const attempt = (event.attempts ?? 0) + 1;
    const delay = failure.retry ? nextAttemptDelaySeconds(retryPolicy, attempt, failure.retryAfterSeconds) : null;
    const outcome: EventOutcome =
      delay === null
        ? { id: eventId, state: "dead", error: `${failure.error} (after ${attempt} attempt${attempt === 1 ? "" : "s"})` }
        : { id: eventId, state: "retrying", error: failure.error, retryInSeconds: delay };
    return { outcome, message: { sellerId, message } };
  }
}

/** "busy" while an instance processes it; "missing" when it is not the seller's. */
export async function reprocessWebhookEvent(sellerId: string, eventId: string): Promise<"processed" | "busy" | "missing"> {
  const claim = await claimEventForReprocessing(INSTANCE_ID, sellerId, eventId);
  if (!claim) return "missing";
  if ("busy" in claim) return "busy";
  await processClaimed([claim.event]);
  return "processed";
}

/** Asked during a sweep, another follows it, so events queued meanwhile do not wait for the next tick. */
function runSweep(): Promise<void> {
  if (processing.sweeping) {
    processing.sweepAgain = true;
    return processing.sweeping;
  }
  processing.sweepAgain = false;
  processing.sweeping = sweepOnce().finally(() => {
    processing.sweeping = null;
    if (processing.sweepAgain && !processing.stopped) void runSweep();
  });
  return processing.sweeping;
}

export function sweepSoon() {
  if (!processing.stopped) void runSweep();
}

/** No cap: a backlog drains completely. Returns how many events it processed. */
export async function sweepDueEvents(): Promise<number> {
  let total = 0;
  while (!processing.stopped) {
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
    if (Date.now() - processing.lastPruneAt > PRUNE_EVERY_MS) {
      processing.lastPruneAt = Date.now();
      await pruneLiveMessages();
      for (let batch = 0; batch < PRUNE_BATCHES_PER_PASS && !processing.stopped; batch++) {
        if ((await pruneOldEvents(env.EVENT_RETENTION_DAYS)) < PRUNE_BATCH) break;
      }
      await pruneEndedSessions();
      await pruneAuditEntries();
    }
  } catch (error) {
    processingLog.error({ err: error }, "sweep failed");
  }
}

export function startWebhookProcessing() {
  if (processing.sweepTimer || processing.stopped) return;
  const loop = async () => {
    await runSweep();
    if (!processing.stopped) {
      processing.sweepTimer = setTimeout(() => void loop(), SWEEP_EVERY_MS);
      processing.sweepTimer.unref();
    }
  };
  processing.sweepTimer = setTimeout(() => void loop(), 0);
  processing.sweepTimer.unref();
  // Its own timer: a long batch must not let a live instance's leases run out.
  processing.renewTimer = setInterval(() => {
    renewClaims(INSTANCE_ID).catch((error: unknown) => processingLog.error({ err: error }, "could not renew claims"));
  }, RENEW_EVERY_MS);
  processing.renewTimer.unref();
}

/** Lets the batch in hand finish (up to `graceMs`), then hands back every claim for another instance. */
export async function stopWebhookProcessing(graceMs = 10_000): Promise<void> {
  processing.stopped = true;
  if (processing.sweepTimer) clearTimeout(processing.sweepTimer);
  processing.sweepTimer = null;
  if (processing.renewTimer) clearInterval(processing.renewTimer);
  processing.renewTimer = null;
  processing.queue.length = 0;
  // Events being written now were claimed for this instance: wait for them, then hand them back.
  await Promise.race([webhookWritesSettled(), new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
  const inHand = [processing.draining, processing.sweeping].filter(Boolean);
  if (inHand.length > 0) {
    await Promise.race([Promise.all(inHand), new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
  }
  const released = await releaseClaims(INSTANCE_ID).catch((error: unknown) => {
    processingLog.error({ err: error }, "could not release claims (they expire by themselves)");
    return 0;
  });
  if (released > 0) processingLog.info({ released }, `released ${released} claimed events for other instances`);
}
