import "server-only";
import { everyPage, FIRST_PAGE_LIMIT, withPlatform } from "@/lib/data/platform";
import type { PlatformProblem } from "@/lib/data/platform";
import {
  claimDueShops,
  claimShop,
  markBackfillRunning,
  recordPageStored,
  recordRunFailed,
  recordRunFinished,
  releaseShop,
  scheduleNewShops,
  sellerSyncState,
} from "@/lib/data/seller-sync";
import type { ClaimedShop, NextRun } from "@/lib/data/seller-sync";
import { findConnectedShops } from "@/lib/data/sellers";
import type { ConnectedShop, CurrentSeller } from "@/lib/data/sellers";
import { ordersWithWaitingEvents, recordReconciledEvents } from "@/lib/data/webhook-queue";
import type { ReconciledOrder } from "@/lib/data/webhook-queue";
import { env } from "@/lib/env";
import { log, shopLog } from "@/lib/log";
import { metrics } from "@/lib/metrics";
import { INSTANCE_ID } from "@/lib/webhooks/process";
import { ordersQuery } from "@/lib/marketplace/list-query";
import type { OrderSummary } from "@/lib/marketplace/schemas/order";
import { mirroredOrderStates, upsertMirrorOrders } from "@/lib/data/order-mirror";

// Reconciliation: notifications can be lost (the dashboard down longer than the platform retries,
// a delivery the platform never made), so every seller's orders are also listed, changed ones
// first (`updated_at__ge` the seller's cursor minus an overlap, `updated_at:asc`), and compared
// with the mirror. An order whose status or updated_at differs and that no waiting event explains
// is written to the mirror and recorded in the event log as a "reconciliation" event, so the seller
// is told like for a received one. The first run for a seller (after connecting) is the back-fill:
// every open order (new or approved, however old) and the orders updated in the last
// MIRROR_BACKFILL_DAYS go into the mirror without events, with progress shown on the Webhooks page.
// The cursor moves only once a page is stored, so a run cut short resumes where it stopped.
//
// Scheduling (docs/decisions/0004-duplicates-and-durable-processing.md, Reconciliation): each shop
// has a slot in SellerSync.nextRunAt, spread at random over the interval; every instance claims
// due shops a few at a time with a lease (FOR UPDATE SKIP LOCKED) and runs at most
// RECONCILE_CONCURRENCY at once, holding no database connection while the platform answers. A
// shop's trouble stays its own: a 429 moves only its next slot to the Retry-After, and a run that
// exceeds RECONCILE_SHOP_TIMEOUT_SECONDS is cut off and tried again at its next slot.

/** Orders updated this long before the cursor are listed again: clocks and commits are not instantaneous. */
const OVERLAP_MS = 5 * 60_000;
const ORDER_READ_SCOPE = "order-order:read";
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

/**
 * The platform refused a page. The problem itself is stored (lastError), so that the Webhooks page
 * describes it in the language of whoever reads it; the message is for the log.
 */
export class ReconcileError extends Error {
  constructor(readonly problem: PlatformProblem) {
    super(problem.kind === "error" ? `platform: ${problem.status ?? "unreachable"} ${problem.message}` : `platform: ${problem.kind}`);
  }
}


function canReadOrders(seller: CurrentSeller) {
  return (
    !seller.connection.needsReconnect &&
    seller.connection.scopesRequested.includes(ORDER_READ_SCOPE) &&
    !seller.connection.scopesMissing.includes(ORDER_READ_SCOPE)
  );
}

/** What of a page the mirror did not know and no waiting event explains. */
async function unexplainedChanges(sellerId: string, orders: readonly OrderSummary[]): Promise<ReconciledOrder[]> {
  const ids = orders.map((order) => order.id);
  const [mirrored, waiting] = await Promise.all([mirroredOrderStates(sellerId, ids), ordersWithWaitingEvents(sellerId, ids)]);
  return orders
    .filter((order) => {
      if (waiting.has(order.id)) return false;
      const known = mirrored.get(order.id);
      return !known || known.status !== order.status || known.updatedAt.getTime() < Date.parse(order.updated_at);
    })
    .map((order) => ({ orderId: order.id, status: order.status, updatedAt: order.updated_at }));
}

/** What a run may spend: it stops, storing nothing more, once `signal` aborts. */
export interface RunBudget {
  signal?: AbortSignal;
  /** Pages stored so far by this run, counted as they are stored. */
  progress?: { pages: number };
}

/**
 * Reconciles one seller now (the caller holds the shop's claim). Throws ReconcileError when the
 * platform refuses; what was stored before that stays stored, and the cursor with it.
 */
export async function reconcileSeller(sellerId: string, now = new Date(), budget: RunBudget = {}): Promise<ReconcileResult | null> {
  const { signal, progress = { pages: 0 } } = budget;
  const shop = (await findConnectedShops([sellerId])).get(sellerId);
  if (!shop || !canReadOrders(shop.seller)) return null;
  const sync = await sellerSyncState(sellerId);
  // Until the back-fill has finished once, runs go on with it (from where a cut-short one stopped).
  const mode = sync.backfillState === "done" ? "reconcile" : "backfill";
  const from = sync.cursor
    ? new Date(sync.cursor.getTime() - OVERLAP_MS)
    : (sync.backfillFrom ?? new Date(now.getTime() - env.MIRROR_BACKFILL_DAYS * 86_400_000));
  if (mode === "backfill") await markBackfillRunning(sellerId, from, sync.backfillStartedAt ?? now);

  let listed = 0;
  // Every order still to approve or to ship, however old: "what needs me now" (deadlines, the
  // overview) must not miss one because it has not changed for longer than the window.
  // (Not counted in `listed`: most of them are in the window too.)
  if (mode === "backfill") await mirrorOpenOrders(shop, signal);

  let limit = FIRST_PAGE_LIMIT;
  let offset = 0;
  let recovered = 0;
  let cursor = sync.cursor;
  for (;;) {
    const page = await listOrdersPage(shop, ordersQuery({ updatedFrom: from, sort: { field: "updated_at", direction: "asc" }, limit, offset }), signal);
    // Orders changed in the last moments wait for the next run: their notification may be on its
    // way, and reporting them now would tell the seller twice. Sorted by updated_at, they are the
    // tail; the cursor stays before them.
    const freshIndex = page.items.findIndex((order) => isFresh(order, now));
    const orders = freshIndex === -1 ? page.items : page.items.slice(0, freshIndex);
    if (orders.length > 0) {
      const changes = mode === "reconcile" ? await unexplainedChanges(sellerId, orders) : [];
      signal?.throwIfAborted();
      await upsertMirrorOrders(sellerId, orders);
      await recordReconciledEvents(sellerId, changes);
      listed += orders.length;
      recovered += changes.length;
      // Stored: the cursor may move past this page (sorted by updated_at, its last is the latest).
      const latest = new Date(Math.max(...orders.map((order) => Date.parse(order.updated_at))));
      if (!cursor || latest > cursor) cursor = latest;
      await recordPageStored(sellerId, cursor, mode === "backfill" ? orders.length : 0);
      progress.pages++;
    }
    if (!page.next || freshIndex !== -1 || orders.length === 0) break;
    offset += orders.length;
    limit = page.maxLimit;
  }

  signal?.throwIfAborted();
  // A seller with no order yet still gets a cursor: the next run is a reconciliation.
  await recordRunFinished(sellerId, { cursor: cursor ?? now, at: now, mode, recovered });
  return { mode, listed, recovered };
}

/** The seller's open orders (new, approved), all pages, into the mirror without events. */
async function mirrorOpenOrders(shop: ConnectedShop, signal: AbortSignal | undefined): Promise<void> {
  const pages = everyPage((limit, offset) =>
    listOrdersPage(shop, ordersQuery({ statuses: ["new", "approved"], sort: { field: "created_at", direction: "asc" }, limit, offset }), signal),
  );
  for await (const orders of pages) {
    signal?.throwIfAborted();
    await upsertMirrorOrders(shop.seller.id, orders);
  }
}

/**
 * One page of endpoint 9. A 429 is not waited out here: the run ends, and only this shop's next
 * slot moves to the Retry-After (Reconciler). A request still hanging when the run's time is up is
 * left behind: its answer is never stored.
 */
async function listOrdersPage({ seller, accessToken }: ConnectedShop, query: URLSearchParams, signal: AbortSignal | undefined) {
  signal?.throwIfAborted();
  const result = await withPlatform(seller, "listOrders", (client) => client.listOrderSummaries(query), { accessToken });
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

/** A run took longer than RECONCILE_SHOP_TIMEOUT_SECONDS. */
export class RunTimeout extends Error {
  constructor(readonly afterMs: number) {
    super(`reconciliation took longer than ${afterMs} ms`);
  }
}

export type RunOutcome = "ok" | "skipped" | "failed" | "rate_limited" | "timeout";

export interface ReconcilerOptions {
  instanceId: string;
  intervalMs: number;
  /** Runs at once on this instance. */
  concurrency: number;
  /** A run is cut off after this long. */
  shopTimeoutMs: number;
  /** Called as each run ends (tests, metrics). */
  onRun?: (run: { sellerId: string; outcome: RunOutcome; result: ReconcileResult | null; startedAt: number; endedAt: number }) => void;
}

/** A claim outlives the longest run by half as long again (30 s at most), so that it never expires under a live run. */
const MAX_LEASE_MARGIN_MS = 30_000;
/** A long run that made progress yields its place and goes on this soon. */
const CONTINUE_AFTER_MS = 1_000;
/** A 429 without Retry-After waits this long; a Retry-After is kept to, up to an hour. */
const DEFAULT_RATE_LIMIT_WAIT_MS = 30_000;
const MAX_RATE_LIMIT_WAIT_MS = 3_600_000;

/**
 * One instance's reconciliation: claims due shops as run slots free up, runs them, schedules each
 * one's next slot. Any number of instances share the work through the shops' claims.
 */
export class Reconciler {
  private readonly running = new Map<string, { done: Promise<unknown>; abort: AbortController }>();
  private stopped = false;
  private abandoned = false;
  private loopDone: Promise<void> | null = null;
  private wake: (() => void) | null = null;

  constructor(readonly options: ReconcilerOptions) {}

  private get leaseMs() {
    return this.options.shopTimeoutMs + Math.min(MAX_LEASE_MARGIN_MS, this.options.shopTimeoutMs / 2);
  }

  /** Starts claiming and running due shops until stop(). */
  start(): void {
    this.loopDone ??= this.loop();
  }

  private async loop(): Promise<void> {
    // Idle polls are spread a little, so that instances started together do not ask in step.
    const pollMs = Math.min(5_000, Math.max(200, this.options.intervalMs / 60));
    let nextScheduleCheck = 0;
    while (!this.stopped) {
      const free = this.options.concurrency - this.running.size;
      let claimed: ClaimedShop[] = [];
      try {
        if (Date.now() >= nextScheduleCheck) {
          await scheduleNewShops(this.options.intervalMs);
          nextScheduleCheck = Date.now() + pollMs * 10;
        }
        if (free > 0) claimed = await claimDueShops(this.options.instanceId, free, this.leaseMs);
      } catch (error) {
        log.error({ err: error }, "reconciliation: could not claim shops");
      }
      if (this.stopped) {
        // Claimed just as the instance stopped: handed back as they were.
        for (const shop of claimed) await releaseShop(this.options.instanceId, shop.sellerId, { kind: "keep", intervalMs: this.options.intervalMs }).catch(() => {});
        break;
      }
      for (const shop of claimed) this.launch(shop, "scheduled");
      if (claimed.length > 0 && claimed.length === free) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs * (0.8 + Math.random() * 0.4));
        timer.unref();
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }

  /** Reconciles one shop now, out of schedule (a shop just connected), unless another instance holds it. */
  async runNow(sellerId: string, now?: Date): Promise<ReconcileResult | null> {
    if (this.stopped) return null;
    const shop = await claimShop(this.options.instanceId, sellerId, this.leaseMs);
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

  private async run(shop: ClaimedShop, kind: "scheduled" | "now", abort: AbortController, now = new Date()): Promise<ReconcileResult | null> {
    const { intervalMs, shopTimeoutMs } = this.options;
    const timer = setTimeout(() => abort.abort(new RunTimeout(shopTimeoutMs)), shopTimeoutMs);
    const progress = { pages: 0 };
    const startedAt = Date.now();
    let next: NextRun = kind === "scheduled" ? { kind: "interval", intervalMs } : { kind: "keep", intervalMs };
    let outcome: RunOutcome;
    let result: ReconcileResult | null = null;
    const runLog = shopLog(shop.sellerId, { component: "reconcile" });
    try {
      result = await raceAbort(reconcileSeller(shop.sellerId, now, { signal: abort.signal, progress }), abort.signal);
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
        // Best effort: the failure is shown on the Webhooks page; the next slot tries again anyway.
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

  /** Stops claiming, lets the runs under way end (each within its timeout), hands back nothing else. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loopDone;
    await Promise.all([...this.running.values()].map((run) => run.done));
  }

  /**
   * What a killed instance leaves (tests): the loop stops, the runs under way are dropped where they
   * are, and their claims stay in the database until they expire.
   */
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
  };
}

let reconciler: Reconciler | null = null;
let stopped = false;

/** Starts this instance's reconciliation. */
export function startReconciliation() {
  if (reconciler || stopped) return;
  reconciler = new Reconciler(defaultOptions());
  reconciler.start();
}

/**
 * Reconciles a shop now, out of its schedule, unless another instance holds it (then null). Runs
 * on this instance's reconciler when it has one, so that stopping waits for it.
 */
export function reconcileSellerOnce(sellerId: string, now?: Date): Promise<ReconcileResult | null> {
  return (reconciler ?? new Reconciler(defaultOptions())).runNow(sellerId, now);
}

/** A seller just connected: fill their mirror now (in the background), not at their first slot. */
export function reconcileSoon(sellerId: string) {
  if (stopped) return;
  void reconcileSellerOnce(sellerId).catch((error: unknown) => log.error({ err: error, shopId: sellerId }, "reconciliation: could not start"));
}

export async function stopReconciliation() {
  stopped = true;
  await reconciler?.stop();
}
