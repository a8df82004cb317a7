import "server-only";
import { DB_NOW, pool } from "@/lib/pg-pool.server";

// Events older than the retention are deleted in batches, between sweeps (./process.server.ts).

/** Events deleted per pruning statement, so none holds locks for long. */
export const PRUNE_BATCH = 5_000;

/**
 * Finished events only; the caller repeats while a full batch went. OFFSET 0 keeps the queue check
 * a lookup per row (as an anti-join the planner may sort every old event per batch). SKIP LOCKED:
 * instances pruning at once take different rows instead of waiting or deadlocking.
 */
export async function pruneOldEvents(days: number, limit = PRUNE_BATCH): Promise<number> {
  const result = await pool.query(
    `DELETE FROM "WebhookEvent" WHERE "id" IN (
       SELECT e."id" FROM "WebhookEvent" e
       WHERE e."receivedAt" < ${DB_NOW} - make_interval(days => $1)
         AND NOT EXISTS (SELECT 1 FROM "WebhookWork" w WHERE w."eventId" = e."id" OFFSET 0)
       ORDER BY e."receivedAt"
       LIMIT $2
       FOR UPDATE OF e SKIP LOCKED)`,
    [days, limit],
  );
  return result.rowCount ?? 0;
}
