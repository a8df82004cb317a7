import "server-only";
import { db } from "@/lib/db.server";
import { env } from "@/lib/env";
import { queueCounts } from "@/features/webhooks/process/queue.server";
import { readRunFailure } from "@/features/webhooks/sync/shop-sync.server";
import type { RunFailure } from "@/features/webhooks/sync/shop-sync.server";

export interface ConnectionHealth {
  lastEventAt: Date | null;
  waiting: number;
  dead: number;
  lastReconciledAt: Date | null;
  /** When the shop's orders are next checked (its slot); null when that is now (due, or never scheduled). */
  nextReconcileAt: Date | null;
  /** Minutes since the last reconciliation (or connecting) when over two intervals, else null. */
  behindMinutes: number | null;
  lastRecovered: number;
  recoveredTotal: number;
  /** Why the last reconciliation failed; null once one succeeds. */
  lastError: RunFailure | null;
  backfill: { state: string; orders: number; from: Date | null; startedAt: Date | null; finishedAt: Date | null };
  /** Refused bodies at this seller's URL that named another shop's order or SKU (features/webhooks/receive/receiver.server.ts). */
  otherShops: { count: number; lastAt: Date | null };
}

export async function getConnectionHealth(shopId: string, now = new Date()): Promise<ConnectionHealth> {
  const [lastEvent, counts, sync, connection] = await Promise.all([
    db.webhookEvent.findFirst({ where: { shopId, source: "webhook" }, orderBy: { receivedAt: "desc" }, select: { receivedAt: true } }),
    queueCounts(shopId),
    db.shopSync.findUnique({ where: { shopId } }),
    db.connection.findUnique({
      where: { shopId },
      select: { misSignedForeignCount: true, misSignedForeignAt: true, connectedAt: true, needsReconnectAt: true },
    }),
  ]);
  const since = sync?.lastReconciledAt ?? connection?.connectedAt ?? null;
  const lagMs = since ? now.getTime() - since.getTime() : 0;
  const behind = since !== null && !connection?.needsReconnectAt && lagMs > 2 * env.RECONCILE_INTERVAL_SECONDS * 1000;
  return {
    lastEventAt: lastEvent?.receivedAt ?? null,
    ...counts,
    lastReconciledAt: sync?.lastReconciledAt ?? null,
    nextReconcileAt: sync?.nextRunAt && sync.nextRunAt > now ? sync.nextRunAt : null,
    behindMinutes: behind ? Math.floor(lagMs / 60_000) : null,
    lastRecovered: sync?.lastRecovered ?? 0,
    recoveredTotal: sync?.recoveredTotal ?? 0,
    lastError: readRunFailure(sync?.lastError ?? null),
    backfill: {
      state: sync?.backfillState ?? "idle",
      orders: sync?.backfilledOrders ?? 0,
      from: sync?.backfillFrom ?? null,
      startedAt: sync?.backfillStartedAt ?? null,
      finishedAt: sync?.backfillFinishedAt ?? null,
    },
    otherShops: { count: connection?.misSignedForeignCount ?? 0, lastAt: connection?.misSignedForeignAt ?? null },
  };
}
