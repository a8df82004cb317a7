import "server-only";
import { everyPage, FIRST_PAGE_LIMIT, mayCall, withPlatform } from "@/lib/platform/platform.server";
import { ReconcileError } from "@/features/webhooks/sync/reconcile-error";
import { fillPriceMirror } from "@/features/webhooks/sync/price-fill.server";
import {
  claimDueShops,
  claimShop,
  markBackfillRunning,
  recordPageStored,
  recordRunFailed,
  recordRunFinished,
  releaseShop,
  scheduleNewShops,
  shopSyncState,
} from "@/features/webhooks/sync/shop-sync.server";
import type { ClaimedShop, NextRun } from "@/features/webhooks/sync/shop-sync.server";
import { whenShop } from "@/lib/shops/shop-events.server";
import { findConnectedShops } from "@/lib/shops/shops.server";
import type { ConnectedShop } from "@/lib/shops/shops.server";
import { ordersWithWaitingEvents, recordReconciledEvents } from "@/features/webhooks/sync/reconciled-events.server";
import { tellLateOrders } from "@/lib/orders/late-orders.server";
import { checkCallbackStillHere } from "@/features/webhooks/sync/callback-check.server";
import type { ReconciledOrder } from "@/features/webhooks/sync/reconciled-events.server";
import { env } from "@/lib/env";
import { log, shopLog } from "@/lib/log.server";
import { metrics } from "@/lib/metrics.server";
import { eventsWaitingForBatch, INSTANCE_ID } from "@/features/webhooks/process/process.server";
import { ordersQuery } from "@marketplace/api/list-query";
import type { OrderSummary } from "@marketplace/api/schemas/order";
import { mirroredOrderStates, upsertMirrorOrders } from "@/lib/orders/order-mirror.server";

// Notifications can be lost, so every shop's changed orders are also listed and compared with the
// mirror; a change no event explains is told like a received one. Scheduling, leases and the
// back-fill: decision 0004, Reconciliation.

/** Clocks and commits are not instantaneous. */
const OVERLAP_MS = 5 * 60_000;
/** How long a change is left to its notification before reconciliation reports it itself. */
const SETTLE_MS = Math.min(10_000, (env.RECONCILE_INTERVAL_SECONDS * 1000) / 2);
/** An updated_at this far ahead of our clock is the platform's clock being off, not a fresh change. */
const CLOCK_SKEW_MS = 60_000;

function isFresh(order: OrderSummary, now: Date): boolean {
  const updatedAt = Date.parse(order.updated_at);
  return updatedAt > now.getTime() - SETTLE_MS && updatedAt <= now.getTime() + CLOCK_SKEW_MS;
}

export interface ReconcileResult {
  mode: "backfill" | "reconcile";
  listed: number;
  recovered: number;
}

async function unexplainedChanges(shopId: string, orders: readonly OrderSummary[]): Promise<ReconciledOrder[]> {
  const ids = orders.map((order) => order.id);
  const [mirrored, waiting] = await Promise.all([mirroredOrderStates(shopId, ids), ordersWithWaitingEvents(shopId, ids)]);
  return orders
    .filter((order) => {
      if (waiting.has(order.id)) return false;
      const known = mirrored.get(order.id);
      return !known || known.status !== order.status || known.updatedAt.getTime() < Date.parse(order.updated_at);
    })
    .map((order) => ({ orderId: order.id, status: order.status, updatedAt: order.updated_at }));
}

export interface RunBudget {
  signal?: AbortSignal;
  progress?: { pages: number };
}

/** The caller holds the shop's claim. On ReconcileError, what was stored stays, and the cursor with it. */
export async function reconcileShop(shopId: string, now = new Date(), budget: RunBudget = {}): Promise<ReconcileResult | null> {
  const { signal, progress = { pages: 0 } } = budget;
  const shop = (await findConnectedShops([shopId])).get(shopId);
  if (!shop || !mayCall(shop.shop, "listOrders")) return null;
  const sync = await shopSyncState(shopId);
  const mode = sync.backfillState === "done" ? "reconcile" : "backfill";
  const from = sync.cursor
    ? new Date(sync.cursor.getTime() - OVERLAP_MS)
    : (sync.backfillFrom ?? new Date(now.getTime() - env.MIRROR_BACKFILL_DAYS * 86_400_000));
  if (mode === "backfill") await markBackfillRunning(shopId, from, sync.backfillStartedAt ?? now);

  let listed = 0;
  // Open orders however old: "what needs me now" must not miss one that has not changed lately.
  if (mode === "backfill") await mirrorOpenOrders(shop, signal);
  if (!sync.pricesListedAt && mayCall(shop.shop, "listPrices")) await fillPriceMirror(shop, signal);

  let limit = FIRST_PAGE_LIMIT;
  let offset = 0;
  let recovered = 0;
  let cursor = sync.cursor;
  for (;;) {
    const page = await listOrdersPage(
      shop,
      ordersQuery({ updatedFrom: from, sort: { field: "updated_at", direction: "asc" }, limit, offset }),
      signal,
    );
    // The freshest wait for the next run: their notification may be on its way, and the seller
    // would be told twice. Sorted by updated_at, they are the tail; the cursor stays before them.
    const freshIndex = page.items.findIndex((order) => isFresh(order, now));
    const orders = freshIndex === -1 ? page.items : page.items.slice(0, freshIndex);
    if (orders.length > 0) {
      const changes = mode === "reconcile" ? await unexplainedChanges(shopId, orders) : [];
      signal?.throwIfAborted();
      // The back-fill mirrors history; a reconciliation finds what notifications missed, new orders included.
      await upsertMirrorOrders(shopId, orders, { tellNew: mode === "reconcile" });
      await recordReconciledEvents(shopId, changes);
      listed += orders.length;
      recovered += changes.length;
      const latest = new Date(Math.max(...orders.map((order) => Date.parse(order.updated_at))));
      if (!cursor || latest > cursor) cursor = latest;
      await recordPageStored(shopId, cursor, mode === "backfill" ? orders.length : 0);
      progress.pages++;
    }
    if (!page.next || freshIndex !== -1 || orders.length === 0) break;
    offset += orders.length;
    limit = page.maxLimit;
  }

  signal?.throwIfAborted();
  // Orders whose handling time ran out since the last run are news to those who ship (issue 41).
  if (mode === "reconcile") await tellLateOrders(shopId);
  // Changes no notification told: is the platform still sending them here?
  if (recovered > 0) await checkCallbackStillHere(shop, signal);
  // A seller with no order yet still gets a cursor: the next run is a reconciliation.
  await recordRunFinished(shopId, { cursor: cursor ?? now, at: now, mode, recovered });
  return { mode, listed, recovered };
}

async function mirrorOpenOrders(shop: ConnectedShop, signal: AbortSignal | undefined): Promise<void> {
  const pages = everyPage((limit, offset) =>
    listOrdersPage(
      shop,
      ordersQuery({ statuses: ["new", "approved"], sort: { field: "created_at", direction: "asc" }, limit, offset }),
      signal,
    ),
  );
  for await (const orders of pages) {
    signal?.throwIfAborted();
    await upsertMirrorOrders(shop.shop.id, orders);
  }
}

/** A 429 is not waited out: the run ends and only this shop's next slot moves. */
async function listOrdersPage({ shop, accessToken }: ConnectedShop, query: URLSearchParams, signal: AbortSignal | undefined) {
  signal?.throwIfAborted();
  const result = await withPlatform(shop, "listOrders", (client) => client.listOrderSummaries(query), { accessToken });
  if (!result.ok) throw new ReconcileError(result.problem);
  return result.data;
}

function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

export class RunTimeout extends Error {
  constructor(readonly afterMs: number) {
    super(`reconciliation took longer than ${afterMs} ms`);
  }
}

export type RunOutcome = "ok" | "skipped" | "failed" | "rate_limited" | "timeout";

export interface ReconcilerOptions {
  instanceId: string;
  intervalMs: number;
  concurrency: number;
  shopTimeoutMs: number;
  /**
   * True while live events wait in this instance for processing: reconciliation, the safety net,
   * then starts no run, so a seller's new order is not queued behind the checks of other shops. It
   * gives way a quarter of the interval at most, then checks for as long again: a flood that never
   * ends can only halve its pace.
   */
  liveEventsWaiting?: () => boolean;
  onRun?: (run: { sellerId: string; outcome: RunOutcome; result: ReconcileResult | null; startedAt: number; endedAt: number }) => void;
}

/** The lease outlives the longest run, so it never expires under a live one. */
const MAX_LEASE_MARGIN_MS = 30_000;
const CONTINUE_AFTER_MS = 1_000;
/** While giving way to live events, how often it looks again. */
const GIVE_WAY_POLL_MS = 100;
const DEFAULT_RATE_LIMIT_WAIT_MS = 30_000;
const MAX_RATE_LIMIT_WAIT_MS = 3_600_000;

/** Any number of instances share the work through the shops' claims. */
export class Reconciler {
  private readonly running = new Map<string, { done: Promise<unknown>; abort: AbortController }>();
  private stopped = false;
  private abandoned = false;
  private loopDone: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private yieldingSince: number | null = null;
  private checksUntil = 0;

  constructor(readonly options: ReconcilerOptions) {}

  private givesWay(now: number): boolean {
    const quarter = this.options.intervalMs / 4;
    if (now < this.checksUntil) return false;
    if (!this.options.liveEventsWaiting?.()) {
      this.yieldingSince = null;
      return false;
    }
    this.yieldingSince ??= now;
    if (now - this.yieldingSince < quarter) return true;
    this.yieldingSince = null;
    this.checksUntil = now + quarter;
    return false;
  }

  private get leaseMs() {
    return this.options.shopTimeoutMs + Math.min(MAX_LEASE_MARGIN_MS, this.options.shopTimeoutMs / 2);
  }

  start(): void {
    this.loopDone ??= this.loop();
  }

  private async loop(): Promise<void> {
    // Idle polls are spread a little, so that instances started together do not ask in step.
    const pollMs = Math.min(5_000, Math.max(200, this.options.intervalMs / 60));
    let nextScheduleCheck = 0;
    while (!this.stopped) {
      const free = this.options.concurrency - this.running.size;
      const givingWay = free > 0 && this.givesWay(Date.now());
      let claimed: ClaimedShop[] = [];
      try {
        if (Date.now() >= nextScheduleCheck) {
          await scheduleNewShops(this.options.intervalMs);
          nextScheduleCheck = Date.now() + pollMs * 10;
        }
        if (free > 0 && !givingWay) claimed = await claimDueShops(this.options.instanceId, free, this.leaseMs);
      } catch (error) {
        log.error({ err: error }, "reconciliation: could not claim shops");
      }
      if (this.stopped) {
        for (const shop of claimed)
          await releaseShop(this.options.instanceId, shop.sellerId, { kind: "keep", intervalMs: this.options.intervalMs }).catch(() => {});
        break;
      }
      for (const shop of claimed) this.launch(shop, "scheduled");
      if (claimed.length > 0 && claimed.length === free) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, (givingWay ? GIVE_WAY_POLL_MS : pollMs) * (0.8 + Math.random() * 0.4));
        timer.unref();
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }

  /** Out of schedule, unless another instance holds the shop. */
  async runNow(shopId: string, now?: Date): Promise<ReconcileResult | null> {
    if (this.stopped) return null;
    const shop = await claimShop(this.options.instanceId, shopId, this.leaseMs);
    if (!shop) return null;
    return this.launch(shop, "now", now);
  }

  private launch(shop: ClaimedShop, kind: "scheduled" | "now", now?: Date): Promise<ReconcileResult | null> {
    const abort = new AbortController();
    const done = this.run(shop, kind, abort, now).finally(() => {
      this.running.delete(shop.sellerId);
      this.wake?.();
    });
    this.running.set(shop.sellerId, { done, abort });
    return done;
  }

  private async run(
    shop: ClaimedShop,
    kind: "scheduled" | "now",
    abort: AbortController,
    now = new Date(),
  ): Promise<ReconcileResult | null> {
    const { intervalMs, shopTimeoutMs } = this.options;
    const timer = setTimeout(() => abort.abort(new RunTimeout(shopTimeoutMs)), shopTimeoutMs);
    const progress = { pages: 0 };
    const startedAt = Date.now();
    let next: NextRun = kind === "scheduled" ? { kind: "interval", intervalMs } : { kind: "keep", intervalMs };
    let outcome: RunOutcome;
    let result: ReconcileResult | null = null;
    const runLog = shopLog(shop.sellerId, { component: "reconcile" });
    try {
      result = await raceAbort(reconcileShop(shop.sellerId, now, { signal: abort.signal, progress }), abort.signal);
      outcome = result ? "ok" : "skipped";
    } catch (error) {
      if (this.abandoned) return null;
      if (error instanceof RunTimeout) {
        outcome = "timeout";
        // A long back-fill that is getting somewhere goes on soon; one that is stuck waits its slot.
        if (progress.pages > 0) next = { kind: "after", delayMs: CONTINUE_AFTER_MS };
        await recordRunFailed(shop.sellerId, { problem: { kind: "error", status: null, message: error.message } }).catch(() => {});
      } else if (error instanceof ReconcileError && error.problem.kind === "error" && error.problem.status === 429) {
        outcome = "rate_limited";
        next = { kind: "after", delayMs: Math.min(MAX_RATE_LIMIT_WAIT_MS, error.problem.retryAfterMs ?? DEFAULT_RATE_LIMIT_WAIT_MS) };
        await recordRunFailed(shop.sellerId, { problem: error.problem }).catch(() => {});
      } else {
        outcome = "failed";
        const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
        await recordRunFailed(shop.sellerId, error instanceof ReconcileError ? { problem: error.problem } : { message }).catch(() => {});
      }
      runLog.warn({ outcome, err: error }, "reconciliation run failed");
    } finally {
      clearTimeout(timer);
    }
    if (this.abandoned) return null;
    await releaseShop(this.options.instanceId, shop.sellerId, next).catch((error: unknown) =>
      // The claim expires on its own; the shop is then due again.
      runLog.error({ err: error }, "reconciliation: could not release the shop"),
    );
    if (outcome !== "skipped") metrics.reconcileRuns.inc({ outcome });
    if (result) metrics.reconcileRecovered.inc(result.recovered);
    this.options.onRun?.({ sellerId: shop.sellerId, outcome, result, startedAt, endedAt: Date.now() });
    return result;
  }

  /** Lets the runs under way end, each within its timeout. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loopDone;
    await Promise.all([...this.running.values()].map((run) => run.done));
  }

  /** What a killed instance leaves (tests): runs dropped, their claims left to expire. */
  abandon(): void {
    this.stopped = true;
    this.abandoned = true;
    this.wake?.();
    for (const run of this.running.values()) run.abort.abort(new Error("instance gone"));
  }
}

function defaultOptions(): ReconcilerOptions {
  return {
    instanceId: INSTANCE_ID,
    intervalMs: env.RECONCILE_INTERVAL_SECONDS * 1000,
    concurrency: env.RECONCILE_CONCURRENCY,
    shopTimeoutMs: env.RECONCILE_SHOP_TIMEOUT_SECONDS * 1000,
    liveEventsWaiting: () => eventsWaitingForBatch() > 0,
  };
}

let reconciler: Reconciler | null = null;
let stopped = false;

export function startReconciliation() {
  if (reconciler || stopped) return;
  reconciler = new Reconciler(defaultOptions());
  reconciler.start();
}

/** Null when another instance holds the shop. On this instance's reconciler if any, so stopping waits for it. */
export function reconcileShopOnce(shopId: string, now?: Date): Promise<ReconcileResult | null> {
  return (reconciler ?? new Reconciler(defaultOptions())).runNow(shopId, now);
}

/** A seller just connected: fill their mirror now, not at their first slot. */
export function reconcileSoon(shopId: string) {
  if (stopped) return;
  void reconcileShopOnce(shopId).catch((error: unknown) => log.error({ err: error, shopId }, "reconciliation: could not start"));
}

// The back-fill starts as soon as a seller connects, not at the next round.
whenShop("connected", "reconciliation", reconcileSoon);

export async function stopReconciliation() {
  stopped = true;
  await reconciler?.stop();
}
