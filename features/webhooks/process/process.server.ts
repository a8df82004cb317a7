import "server-only";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import {
  claimDueEvents,
  claimEventForReprocessing,
  finishEvents,
  releaseClaims,
  renewClaims,
  startClaimedEvents,
} from "@/features/webhooks/process/queue.server";
import { PRUNE_BATCH, pruneOldEvents } from "@/features/webhooks/process/prune.server";
import type { EventOutcome, QueuedEvent } from "@/features/webhooks/process/queue.server";
import { pruneAuditEntries } from "@/lib/audit/audit-retention.server";
import { pruneEndedSessions } from "@/lib/people/sessions.server";
import { analyzeTablesWithoutStatistics } from "@/lib/planner-statistics.server";
import { webhookWritesSettled } from "@/features/webhooks/store.server";
import { env } from "@/lib/env";
import { log, shopLog } from "@/lib/log.server";
import { metrics } from "@/lib/metrics.server";
import { pruneLiveMessages } from "@/features/webhooks/live/live.server";
import type { ShopLiveMessage } from "@/features/webhooks/live/live-messages";
import type { StoredEvent } from "@/features/webhooks/parse";
import { ProcessingGate } from "@/features/webhooks/process/processing-gate";
import { applyEvent, BatchReads, chunksOf, eachLimited, FETCH_CONCURRENCY } from "@/features/webhooks/process/apply-event.server";

// Processing runs after the acknowledgement (spec: Receiver guidance). With several instances the
// claim decides who processes an event, never luck; a sweep on every instance takes the unclaimed.

export const INSTANCE_ID = `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;

/** Events in one take-up, one mirror write and one record of outcomes. */
const BATCH_SIZE = 500;
/**
 * Batches of a pass processed at once when the loop has room (an overdue pass takes one at a
 * time). A batch's time goes mostly to waiting for the database and
 * the platform (bench:webhooks: about 150 ms for 500 events, 50 ms of them on this thread), so
 * several overlap: with three, a round's backlog was processed in 0.20 ms an event against 0.28
 * with two (docs/benchmarks.md). Each batch asks the platform for its orders FETCH_CONCURRENCY
 * lists at a time, so a catching-up shop has up to three times that in flight.
 */
const BATCHES_AT_ONCE = 3;
const WRITE_RETRY_MAX_MS = 5_000;

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
      // A pass takes everything waiting, so one overdue pass catches up however long the flood.
      // Overdue, requests still fill the loop: one batch at a time leaves it to them while the
      // batch waits on the database and the platform.
      const waiting = processing.queue.splice(0);
      await eachLimited(chunksOf(waiting, BATCH_SIZE), room === "room" ? BATCHES_AT_ONCE : 1, takeUpAndProcess);
      processing.gate.batchEnded();
    }
  } finally {
    processing.draining = null;
  }
}

/** Left to another instance once this one stops: its claims are handed back. */
async function takeUpAndProcess(batch: readonly StoredEvent[]) {
  if (processing.stopped) return;
  const held = await untilWritten("take up received events", () =>
    startClaimedEvents(
      INSTANCE_ID,
      batch.map((event) => event.id),
    ),
  );
  if (held) await processClaimed(batch.filter((event) => held.has(event.id)));
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

/** The claims are released by the write that records the outcomes. */
async function processClaimed(events: readonly QueuedEvent[]) {
  if (events.length === 0) return;
  const reads = new BatchReads();
  await reads.loadShops(events);
  await reads.prefetchOrders(events);
  const results = new Map<string, { outcome: EventOutcome; message: ShopLiveMessage | null }>();
  await eachLimited(events, FETCH_CONCURRENCY, async (event) => {
    results.set(event.id, await applyEvent(event, reads));
  });
  // In the order received, so live messages keep that order.
  const outcomes: EventOutcome[] = [];
  const messages: ShopLiveMessage[] = [];
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

/** "busy" while an instance processes it; "missing" when it is not the seller's. */
export async function reprocessWebhookEvent(shopId: string, eventId: string): Promise<"processed" | "busy" | "missing"> {
  const claim = await claimEventForReprocessing(INSTANCE_ID, shopId, eventId);
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
    const analyzed = await analyzeTablesWithoutStatistics();
    if (analyzed.length > 0) processingLog.info({ analyzed }, `analyzed ${analyzed.join(", ")}, which had no planner statistics yet`);
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
