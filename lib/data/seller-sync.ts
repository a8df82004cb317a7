import "server-only";
import type { PlatformProblem } from "@/lib/platform-problem";
import { db } from "@/lib/db";

// Reconciliation's state per seller (prisma/schema.prisma SellerSync), read and written by
// lib/sync/reconcile.ts and shown on the Webhooks page (lib/data/connection-health.ts).

/** The seller's sync state, created empty on first use. */
export function sellerSyncState(sellerId: string) {
  return db.sellerSync.upsert({ where: { sellerId }, create: { sellerId }, update: {} });
}

/** A back-fill (re)starts: from `from`, first started at `startedAt`. */
export async function markBackfillRunning(sellerId: string, from: Date, startedAt: Date) {
  await db.sellerSync.update({ where: { sellerId }, data: { backfillState: "running", backfillFrom: from, backfillStartedAt: startedAt, lastError: null } });
}

/** A page of orders is stored: the cursor may move past it (and the back-fill counts it). */
export async function recordPageStored(sellerId: string, cursor: Date, backfilledOrders: number) {
  await db.sellerSync.update({
    where: { sellerId },
    data: { cursor, ...(backfilledOrders > 0 ? { backfilledOrders: { increment: backfilledOrders } } : {}) },
  });
}

/** A run finished: a reconciliation records what it recovered, a back-fill that it is done. */
export async function recordRunFinished(sellerId: string, run: { cursor: Date; at: Date; mode: "backfill" | "reconcile"; recovered: number }) {
  await db.sellerSync.update({
    where: { sellerId },
    data: {
      cursor: run.cursor,
      lastReconciledAt: run.at,
      lastError: null,
      ...(run.mode === "reconcile"
        ? { lastRecovered: run.recovered, recoveredTotal: { increment: run.recovered } }
        : { backfillState: "done", backfillFinishedAt: new Date() }),
    },
  });
}

/**
 * Why a run failed, as stored in SellerSync.lastError (JSON): the platform's problem, described in
 * the reader's language when shown, or an unexpected error's message.
 */
export type RunFailure = { problem: PlatformProblem } | { message: string };

/** A stored lastError; a plain sentence from before it was JSON reads as a message. */
export function readRunFailure(stored: string | null): RunFailure | null {
  if (stored === null) return null;
  try {
    const parsed: unknown = JSON.parse(stored);
    if (parsed && typeof parsed === "object" && ("problem" in parsed || "message" in parsed)) return parsed as RunFailure;
  } catch {
    // not JSON: written before lastError held one
  }
  return { message: stored };
}

/** A run failed: shown on the Webhooks page; a running back-fill is marked failed (it resumes next time). */
export async function recordRunFailed(sellerId: string, failure: RunFailure) {
  await db.sellerSync.updateMany({ where: { sellerId }, data: { lastError: JSON.stringify(failure) } });
  await db.sellerSync.updateMany({ where: { sellerId, backfillState: "running" }, data: { backfillState: "failed" } });
}

/** Connected sellers never reconciled, or not since `dueBefore`. */
export async function sellersDueForReconciliation(dueBefore: Date): Promise<string[]> {
  const connections = await db.connection.findMany({
    where: { seller: { OR: [{ sync: null }, { sync: { lastReconciledAt: null } }, { sync: { lastReconciledAt: { lt: dueBefore } } }] } },
    select: { sellerId: true },
  });
  return connections.map((connection) => connection.sellerId);
}
