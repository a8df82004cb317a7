import "server-only";
import { withSellerLock } from "@/lib/data/locks";
import { everyPage, FIRST_PAGE_LIMIT, retryWhileRateLimited, withPlatform } from "@/lib/data/platform";
import type { PlatformProblem } from "@/lib/data/platform";
import { markBackfillRunning, recordPageStored, recordRunFailed, recordRunFinished, sellerSyncState, sellersDueForReconciliation } from "@/lib/data/seller-sync";
import { findCurrentSeller } from "@/lib/data/sellers";
import type { CurrentSeller } from "@/lib/data/sellers";
import { ordersWithWaitingEvents, recordReconciledEvents } from "@/lib/data/webhook-queue";
import type { ReconciledOrder } from "@/lib/data/webhook-queue";
import { env } from "@/lib/env";
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
// MIRROR_BACKFILL_DAYS go into the mirror without events, with progress shown on the Webhooks page. One instance per seller at a time (advisory lock); the
// cursor moves only once a page is stored, so a run cut short resumes where it stopped.

/** Orders updated this long before the cursor are listed again: clocks and commits are not instantaneous. */
const OVERLAP_MS = 5 * 60_000;
/** A rate-limited page is asked this many times in all (retryWhileRateLimited). */
const RATE_LIMIT_ATTEMPTS = 5;
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

/**
 * Reconciles one seller now (the caller holds the seller's lock). Throws ReconcileError when the
 * platform refuses; what was stored before that stays stored, and the cursor with it.
 */
export async function reconcileSeller(sellerId: string, now = new Date()): Promise<ReconcileResult | null> {
  const seller = await findCurrentSeller(sellerId);
  if (!seller || !canReadOrders(seller)) return null;
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
  if (mode === "backfill") await mirrorOpenOrders(seller);

  let limit = FIRST_PAGE_LIMIT;
  let offset = 0;
  let recovered = 0;
  let cursor = sync.cursor;
  for (;;) {
    const page = await listOrdersPage(seller, ordersQuery({ updatedFrom: from, sort: { field: "updated_at", direction: "asc" }, limit, offset }));
    // Orders changed in the last moments wait for the next run: their notification may be on its
    // way, and reporting them now would tell the seller twice. Sorted by updated_at, they are the
    // tail; the cursor stays before them.
    const freshIndex = page.items.findIndex((order) => isFresh(order, now));
    const orders = freshIndex === -1 ? page.items : page.items.slice(0, freshIndex);
    if (orders.length > 0) {
      const changes = mode === "reconcile" ? await unexplainedChanges(sellerId, orders) : [];
      await upsertMirrorOrders(sellerId, orders);
      await recordReconciledEvents(sellerId, changes);
      listed += orders.length;
      recovered += changes.length;
      // Stored: the cursor may move past this page (sorted by updated_at, its last is the latest).
      const latest = new Date(Math.max(...orders.map((order) => Date.parse(order.updated_at))));
      if (!cursor || latest > cursor) cursor = latest;
      await recordPageStored(sellerId, cursor, mode === "backfill" ? orders.length : 0);
    }
    if (!page.next || freshIndex !== -1 || orders.length === 0) break;
    offset += orders.length;
    limit = page.maxLimit;
  }

  // A seller with no order yet still gets a cursor: the next run is a reconciliation.
  await recordRunFinished(sellerId, { cursor: cursor ?? now, at: now, mode, recovered });
  return { mode, listed, recovered };
}

/** The seller's open orders (new, approved), all pages, into the mirror without events. */
async function mirrorOpenOrders(seller: CurrentSeller): Promise<void> {
  const pages = everyPage((limit, offset) =>
    listOrdersPage(seller, ordersQuery({ statuses: ["new", "approved"], sort: { field: "created_at", direction: "asc" }, limit, offset })),
  );
  for await (const orders of pages) await upsertMirrorOrders(seller.id, orders);
}

/** One page of endpoint 9; a rate-limited page (429) is asked again after the wait the platform gave. */
async function listOrdersPage(seller: CurrentSeller, query: URLSearchParams) {
  const result = await retryWhileRateLimited(() => withPlatform(seller, "listOrders", (client) => client.listOrderSummaries(query)), RATE_LIMIT_ATTEMPTS);
  if (!result.ok) throw new ReconcileError(result.problem);
  return result.data;
}

/** Reconciles a seller unless another instance is doing it; records a failure for the Webhooks page. */
export async function reconcileSellerOnce(sellerId: string, now = new Date()): Promise<ReconcileResult | null> {
  const outcome = await withSellerLock("reconcile", sellerId, async () => {
    try {
      return await reconcileSeller(sellerId, now);
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      // Best effort: the failure is shown on the Webhooks page; the next interval tries again anyway.
      await recordRunFailed(sellerId, error instanceof ReconcileError ? { problem: error.problem } : { message }).catch(() => {});
      console.error(`[reconcile] seller ${sellerId}: ${message}`);
      return null;
    }
  });
  return outcome.ran ? outcome.value : null;
}

/**
 * Every connected seller whose last reconciliation is older than the interval (another instance may
 * have just done it), one after the other.
 */
export async function reconcileDueSellers(now = new Date()): Promise<number> {
  const dueBefore = new Date(now.getTime() - env.RECONCILE_INTERVAL_SECONDS * 1000 * 0.9);
  let done = 0;
  for (const sellerId of await sellersDueForReconciliation(dueBefore)) {
    if (stopped) break;
    if (await reconcileSellerOnce(sellerId)) done++;
  }
  return done;
}

let timer: NodeJS.Timeout | null = null;
let running: Promise<unknown> | null = null;
let stopped = false;

/** Starts this instance's reconciliation: at once, then every RECONCILE_INTERVAL_SECONDS. */
export function startReconciliation() {
  if (timer || stopped) return;
  const loop = async () => {
    running = reconcileDueSellers().catch((error: unknown) => console.error(`[reconcile] ${error instanceof Error ? error.message : String(error)}`));
    await running;
    running = null;
    if (!stopped) {
      timer = setTimeout(() => void loop(), env.RECONCILE_INTERVAL_SECONDS * 1000);
      timer.unref();
    }
  };
  timer = setTimeout(() => void loop(), 0);
  timer.unref();
}

/** A seller just connected: fill their mirror now (in the background), not at the next interval. */
export function reconcileSoon(sellerId: string) {
  if (stopped) return;
  void reconcileSellerOnce(sellerId);
}

export async function stopReconciliation() {
  stopped = true;
  if (timer) clearTimeout(timer);
  timer = null;
  await running;
}
