import "server-only";
import type { ShopLiveMessage } from "@/features/webhooks/live/live-messages";
import { DEAD_UNTIL } from "@/lib/webhook-work";
import { DB_NOW, pool } from "@/lib/pg-pool.server";
import type { StoredEvent } from "@/features/webhooks/parse";
import { CLAIM_DUE, END_WAITING, EVENT_FIELDS, finishQuery, START, takeUpQuery } from "@/features/webhooks/process/queue-statements.server";
import type { EventOutcome } from "@/features/webhooks/process/queue-statements.server";

// The queue (decision 0002): an event belongs to `claimedBy` until its lease, `availableAt`,
// passes; sweeps claim with SKIP LOCKED so two instances never take one row. Times are the
// database's clock, so instances with skewed clocks agree.

/** Renewed every few seconds (renewClaims), so it runs out only when its instance died or hung. */
export const CLAIM_LEASE_SECONDS = 15;
/** The receiving instance gets this long to take an unclaimed event first. */
export const ORPHAN_AFTER_SECONDS = 2;

export type QueuedEvent = StoredEvent & { attempts?: number };

/** Due: unclaimed events past their moment, expired claims, retries; oldest first. */
export async function claimDueEvents(instanceId: string, limit: number): Promise<QueuedEvent[]> {
  const result = await pool.query<QueuedEvent>({ ...CLAIM_DUE, values: [instanceId, CLAIM_LEASE_SECONDS, limit] });
  return result.rows;
}

/**
 * Answers the ids still held: after a long stall a claim may have been taken over. The queue rows
 * are locked in the order the receiver's batches lock them (features/webhooks/store.server.ts: by
 * shop, then body hash, as JavaScript compares them): a take-up and a batch folding repeats into
 * the same waiting events deadlocked about once a bench run when each went its own way. Either
 * changes an event only once it holds its queue row. The queue's rows are found by their ids
 * alone (`= ANY`), never joined with a list: the queue's statistics often say it is nearly empty
 * (it fills and empties by the second), and the planner trusted that and compared each queue row
 * with each id, 67 ms of the statement's 81 ms for 500 (EXPLAIN ANALYZE on bench:webhooks' table);
 * as a filter the array is hashed, and the whole statement takes 18 ms.
 */
export async function startClaimedEvents(instanceId: string, ids: readonly string[]): Promise<Set<string>> {
  const result = await pool.query<{ id: string }>(takeUpQuery(instanceId, ids));
  return new Set(result.rows.map((row) => row.id));
}

export type { EventOutcome } from "@/features/webhooks/process/queue-statements.server";

/**
 * One statement, so the NOTIFY is delivered at COMMIT and a page never hears of processing that
 * did not stick. Only events this instance still holds are recorded; one taken over is left to
 * its new owner. The event's update touches no indexed column (a HOT update). The queue's rows
 * are found by their ids alone (`= ANY`, a retry's delay looked up by id in a JSON object), never
 * joined with the outcomes: the queue's statistics often say it is nearly empty (it fills and
 * empties by the second), and the planner then compared each queue row with each outcome, 160 ms
 * of a 186 ms statement for 500 events (EXPLAIN ANALYZE on bench:webhooks' table).
 */
export async function finishEvents(
  instanceId: string,
  outcomes: readonly EventOutcome[],
  messages: readonly ShopLiveMessage[],
): Promise<void> {
  if (outcomes.length === 0) return;
  await pool.query(finishQuery(instanceId, outcomes, messages));
}

export async function renewClaims(instanceId: string): Promise<number> {
  const result = await pool.query({
    name: "webhook_work_renew",
    text: `UPDATE "WebhookWork" SET "availableAt" = ${DB_NOW} + make_interval(secs => $2) WHERE "claimedBy" = $1`,
    values: [instanceId, CLAIM_LEASE_SECONDS],
  });
  return result.rowCount ?? 0;
}

/** Graceful shutdown: due at once, for any instance. */
export async function releaseClaims(instanceId: string): Promise<number> {
  const result = await pool.query(`UPDATE "WebhookWork" SET "claimedBy" = NULL, "availableAt" = ${DB_NOW} WHERE "claimedBy" = $1`, [
    instanceId,
  ]);
  return result.rowCount ?? 0;
}

export type ReprocessClaim = { event: QueuedEvent } | { busy: true } | null;

/** Whatever its state, dead included; `busy` while an instance works on it; null when not the seller's. */
export async function claimEventForReprocessing(instanceId: string, shopId: string, id: string): Promise<ReprocessClaim> {
  const result = await pool.query<QueuedEvent & { receivedAt: Date }>(
    `WITH claimed AS (
       INSERT INTO "WebhookWork" ("eventId", "claimedBy", "availableAt")
       SELECT "id", $1, ${DB_NOW} + make_interval(secs => $2) FROM "WebhookEvent" WHERE "id" = $3 AND "sellerId" = $4
       ON CONFLICT ("eventId") DO UPDATE SET "claimedBy" = excluded."claimedBy", "availableAt" = excluded."availableAt", ${END_WAITING}
         WHERE "WebhookWork"."claimedBy" IS NULL OR "WebhookWork"."availableAt" < ${DB_NOW}
       RETURNING "eventId"
     ),
     started AS (
       UPDATE "WebhookEvent" e ${START}, "attempts" = 0 FROM claimed WHERE e."id" = claimed."eventId"
       RETURNING ${EVENT_FIELDS}, e."receivedAt"
     )
     SELECT * FROM started e`,
    [instanceId, CLAIM_LEASE_SECONDS, id, shopId],
  );
  const event = result.rows[0];
  if (event) return { event };
  const exists = await pool.query(`SELECT 1 FROM "WebhookEvent" WHERE "id" = $1 AND "sellerId" = $2`, [id, shopId]);
  return exists.rowCount ? { busy: true } : null;
}

/** Due now with a fresh budget of attempts; the caller starts a sweep. */
export async function requeueDeadEvents(shopId: string): Promise<number> {
  const result = await pool.query(
    `WITH requeued AS (
       UPDATE "WebhookWork" w SET "availableAt" = ${DB_NOW}, "claimedBy" = NULL
       FROM "WebhookEvent" e
       WHERE e."id" = w."eventId" AND e."sellerId" = $1 AND w."availableAt" = ${DEAD_UNTIL}
       RETURNING w."eventId"
     )
     UPDATE "WebhookEvent" e SET "processingState" = 'retrying', "attempts" = 0
     FROM requeued WHERE e."id" = requeued."eventId"`,
    [shopId],
  );
  return result.rowCount ?? 0;
}

export async function queueCounts(shopId: string): Promise<{ waiting: number; dead: number }> {
  const result = await pool.query<{ waiting: number; dead: number }>(
    `SELECT COUNT(*) FILTER (WHERE w."availableAt" <> ${DEAD_UNTIL})::int AS waiting,
            COUNT(*) FILTER (WHERE w."availableAt" = ${DEAD_UNTIL})::int AS dead
     FROM "WebhookWork" w JOIN "WebhookEvent" e ON e."id" = w."eventId"
     WHERE e."sellerId" = $1`,
    [shopId],
  );
  return result.rows[0] ?? { waiting: 0, dead: 0 };
}
