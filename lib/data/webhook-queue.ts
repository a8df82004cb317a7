import "server-only";
import { createHash, randomUUID } from "node:crypto";
import { LIVE_CHANNEL } from "@/lib/live/bus";
import type { SellerLiveMessage } from "@/lib/live/messages";
import { DB_NOW, pool } from "@/lib/pg-pool";
import type { StoredEvent } from "@/lib/webhooks/parse";

// The durable processing queue: a "WebhookWork" row per event not yet processed, written by the
// statement that stores the event (lib/data/webhook-store.ts) and deleted by the one that records
// its processing. No polling delay for events an instance received itself: it claims them at once.
// An event is processed by one instance: the one in `claimedBy`, until `availableAt` passes (its
// lease). A sweep on every instance claims due rows with FOR UPDATE SKIP LOCKED, so two sweeping
// instances never take the same row: events nobody claimed (written while their instance was
// stopping), claims whose lease expired (an instance that died) and failed events whose next
// attempt is due. A dead event keeps its row, never due, until it is processed again on request.
// Times are the database's clock, so instances with skewed clocks agree.

/**
 * How long a claim holds before another instance may take the event. The instance holding it
 * renews its claims every few seconds (renewClaims), so the lease only runs out when the instance
 * died or hung: then its events are processed by another within this many seconds.
 */
export const CLAIM_LEASE_SECONDS = 15;
/**
 * An unclaimed event becomes due this long after it is written: the instance that received it
 * gets a moment to take it first; after that any instance's sweep may.
 */
export const ORPHAN_AFTER_SECONDS = 2;
/** A dead event's queue row: never due by itself. */
const DEAD_UNTIL = `TIMESTAMP '9999-12-31 00:00:00'`;

/** A claimed event as processing needs it, with the attempts already made. */
export type QueuedEvent = StoredEvent & { attempts?: number };

const EVENT_FIELDS = `e."id", e."sellerId", e."domain", e."status", e."resourceId", e."code", e."orderId", e."deliveryId", e."valid", e."attempts"`;

/**
 * Taking an event up ends its coalescing window (waitingHash = null): an identical body that
 * arrives from now on is a new receipt, since what this processing reads may already be older
 * than the change it announces.
 */
const START = `SET "processingState" = 'processing', "waitingHash" = NULL`;

const CLAIM_DUE = {
  name: "webhook_work_claim_due",
  text: `
    WITH claimed AS (
      UPDATE "WebhookWork"
      SET "claimedBy" = $1, "availableAt" = ${DB_NOW} + make_interval(secs => $2)
      WHERE "eventId" IN (
        SELECT "eventId" FROM "WebhookWork"
        WHERE "availableAt" < ${DB_NOW}
        ORDER BY "availableAt"
        LIMIT $3
        FOR UPDATE SKIP LOCKED
      )
      RETURNING "eventId"
    ),
    started AS (
      UPDATE "WebhookEvent" e ${START} FROM claimed WHERE e."id" = claimed."eventId"
      RETURNING ${EVENT_FIELDS}, e."receivedAt"
    )
    SELECT * FROM started e ORDER BY e."receivedAt", e."id"`,
};

/** Claims up to `limit` due events: unclaimed ones past their moment, expired claims, due retries. Oldest first. */
export async function claimDueEvents(instanceId: string, limit: number): Promise<QueuedEvent[]> {
  const result = await pool.query<QueuedEvent>({ ...CLAIM_DUE, values: [instanceId, CLAIM_LEASE_SECONDS, limit] });
  return result.rows;
}

/**
 * Takes up events this instance claimed when it received them. Answers the ids it still holds
 * (a claim can have expired and been taken over meanwhile, after a long stall).
 */
export async function startClaimedEvents(instanceId: string, ids: readonly string[]): Promise<Set<string>> {
  const result = await pool.query<{ id: string }>({
    name: "webhook_work_start",
    text: `
      UPDATE "WebhookEvent" e ${START}
      FROM "WebhookWork" w
      WHERE w."eventId" = e."id" AND w."claimedBy" = $1 AND e."id" = ANY($2::text[])
      RETURNING e."id"`,
    values: [instanceId, ids],
  });
  return new Set(result.rows.map((row) => row.id));
}

export type EventOutcome =
  | { id: string; state: "processed" | "skipped" }
  | { id: string; state: "retrying"; error: string; retryInSeconds: number }
  | { id: string; state: "dead"; error: string };

/**
 * One NOTIFY carries as many messages as fit in about this many bytes: one notification per
 * several messages instead of one each costs every instance less. PostgreSQL refuses payloads of
 * 8,000 bytes or more; a message is usually ~250 bytes and at most ~4,000 (its fields are capped
 * by lib/webhooks/parse.ts), so a chunk stays below 4,000 + one message.
 */
const NOTIFY_CHUNK_BYTES = 4_000;

/** The end of a statement whose CTE `inserted` wrote LiveMessage rows: announces them, in chunks. */
const ANNOUNCE_INSERTED_MESSAGES = `
  SELECT pg_notify('${LIVE_CHANNEL}', json_agg(json_build_object('id', "id"::text, 'sellerId', "sellerId", 'message', "payload") ORDER BY "id")::text)
  FROM (SELECT *, SUM(octet_length("payload"::text) + 100) OVER (ORDER BY "id") / ${NOTIFY_CHUNK_BYTES} AS chunk FROM inserted) AS numbered
  GROUP BY chunk`;

/**
 * Records the outcome of a batch and the live messages it produced, in one statement (so one
 * transaction): the NOTIFY that carries the messages to every instance is delivered at COMMIT, so
 * an open page never hears of processing that did not stick. Only events this instance still
 * holds are recorded, and only their messages sent: an event whose claim expired and was taken
 * over is left to its new owner, who will announce it. A processed event's queue row is deleted;
 * a failed one's is handed back, due at its next attempt (or never, when dead). The event's
 * update touches no indexed column (a HOT update).
 */
export async function finishEvents(
  instanceId: string,
  outcomes: readonly EventOutcome[],
  messages: readonly SellerLiveMessage[],
): Promise<void> {
  if (outcomes.length === 0) return;
  await pool.query({
    name: "webhook_work_finish",
    text: `
      WITH outcome AS (
        SELECT * FROM json_to_recordset($1::json) AS outcome(id text, state text, error text, "retryInSeconds" float8)
      ),
      done AS (
        DELETE FROM "WebhookWork" AS work USING outcome
        WHERE work."eventId" = outcome.id AND work."claimedBy" = $2 AND outcome.state IN ('processed', 'skipped')
        RETURNING work."eventId"
      ),
      held AS (
        UPDATE "WebhookWork" AS work
        SET "claimedBy" = NULL,
            "availableAt" = CASE WHEN outcome.state = 'dead' THEN ${DEAD_UNTIL}
                                 ELSE ${DB_NOW} + make_interval(secs => outcome."retryInSeconds") END
        FROM outcome
        WHERE work."eventId" = outcome.id AND work."claimedBy" = $2 AND outcome.state IN ('retrying', 'dead')
        RETURNING work."eventId"
      ),
      recorded AS (
        UPDATE "WebhookEvent" AS event
        SET "processingState" = outcome.state, "processingError" = outcome.error, "processedAt" = ${DB_NOW},
            "attempts" = event."attempts" + 1
        FROM outcome
        WHERE event."id" = outcome.id AND event."id" IN (SELECT "eventId" FROM done UNION ALL SELECT "eventId" FROM held)
        RETURNING event."id"
      ),
      inserted AS (
        INSERT INTO "LiveMessage" ("sellerId", "payload", "createdAt")
        SELECT message."sellerId", message.message, ${DB_NOW}
        FROM json_to_recordset($3::json) AS message("sellerId" text, message jsonb)
        WHERE message.message->>'eventId' IN (SELECT "id" FROM recorded)
        RETURNING "id", "sellerId", "payload"
      )
      ${ANNOUNCE_INSERTED_MESSAGES}`,
    // As JSON parameters, like the receiver's batch (lib/data/webhook-store.ts): cheaper on this
    // thread than pg's escaping of text arrays.
    values: [JSON.stringify(outcomes), instanceId, JSON.stringify(messages)],
  });
}

/** Extends the leases of every claim this instance holds: it is alive. Answers how many. */
export async function renewClaims(instanceId: string): Promise<number> {
  const result = await pool.query({
    name: "webhook_work_renew",
    text: `UPDATE "WebhookWork" SET "availableAt" = ${DB_NOW} + make_interval(secs => $2) WHERE "claimedBy" = $1`,
    values: [instanceId, CLAIM_LEASE_SECONDS],
  });
  return result.rowCount ?? 0;
}

/** Hands this instance's claims back (graceful shutdown): due at once, for any instance. */
export async function releaseClaims(instanceId: string): Promise<number> {
  const result = await pool.query(`UPDATE "WebhookWork" SET "claimedBy" = NULL, "availableAt" = ${DB_NOW} WHERE "claimedBy" = $1`, [
    instanceId,
  ]);
  return result.rowCount ?? 0;
}

export type ReprocessClaim = { event: QueuedEvent } | { busy: true } | null;

/**
 * "Process again" from the event log: queues one of the seller's events, claimed by this
 * instance, whatever its state (dead included), unless an instance is working on it right now
 * (`busy`). Null when the seller has no such event.
 */
export async function claimEventForReprocessing(instanceId: string, sellerId: string, id: string): Promise<ReprocessClaim> {
  const result = await pool.query<QueuedEvent & { receivedAt: Date }>(
    `WITH claimed AS (
       INSERT INTO "WebhookWork" ("eventId", "claimedBy", "availableAt")
       SELECT "id", $1, ${DB_NOW} + make_interval(secs => $2) FROM "WebhookEvent" WHERE "id" = $3 AND "sellerId" = $4
       ON CONFLICT ("eventId") DO UPDATE SET "claimedBy" = excluded."claimedBy", "availableAt" = excluded."availableAt"
         WHERE "WebhookWork"."claimedBy" IS NULL OR "WebhookWork"."availableAt" < ${DB_NOW}
       RETURNING "eventId"
     ),
     started AS (
       UPDATE "WebhookEvent" e ${START}, "attempts" = 0 FROM claimed WHERE e."id" = claimed."eventId"
       RETURNING ${EVENT_FIELDS}, e."receivedAt"
     )
     SELECT * FROM started e`,
    [instanceId, CLAIM_LEASE_SECONDS, id, sellerId],
  );
  const event = result.rows[0];
  if (event) return { event };
  const exists = await pool.query(`SELECT 1 FROM "WebhookEvent" WHERE "id" = $1 AND "sellerId" = $2`, [id, sellerId]);
  return exists.rowCount ? { busy: true } : null;
}

/**
 * "Process all dead again": makes every dead event of the seller due now, with a fresh budget of
 * attempts; the next sweep (started by the caller) takes them. Answers how many.
 */
export async function requeueDeadEvents(sellerId: string): Promise<number> {
  const result = await pool.query(
    `WITH requeued AS (
       UPDATE "WebhookWork" w SET "availableAt" = ${DB_NOW}, "claimedBy" = NULL
       FROM "WebhookEvent" e
       WHERE e."id" = w."eventId" AND e."sellerId" = $1 AND w."availableAt" = ${DEAD_UNTIL}
       RETURNING w."eventId"
     )
     UPDATE "WebhookEvent" e SET "processingState" = 'retrying', "attempts" = 0
     FROM requeued WHERE e."id" = requeued."eventId"`,
    [sellerId],
  );
  return result.rowCount ?? 0;
}

/** A seller's queue at a glance: events waiting (or being processed), and dead ones. */
export async function queueCounts(sellerId: string): Promise<{ waiting: number; dead: number }> {
  const result = await pool.query<{ waiting: number; dead: number }>(
    `SELECT COUNT(*) FILTER (WHERE w."availableAt" <> ${DEAD_UNTIL})::int AS waiting,
            COUNT(*) FILTER (WHERE w."availableAt" = ${DEAD_UNTIL})::int AS dead
     FROM "WebhookWork" w JOIN "WebhookEvent" e ON e."id" = w."eventId"
     WHERE e."sellerId" = $1`,
    [sellerId],
  );
  return result.rows[0] ?? { waiting: 0, dead: 0 };
}

export interface ReconciledOrder {
  orderId: string;
  status: string;
  updatedAt: string;
}

/**
 * Records order changes reconciliation found that no notification told (source "reconciliation"):
 * one processed event per order in the event log, and its live message (the seller is told like
 * for a received one), in one statement. The body stored is the message the platform would have
 * sent, with the order's updated_at.
 */
export async function recordReconciledEvents(sellerId: string, orders: readonly ReconciledOrder[]): Promise<void> {
  if (orders.length === 0) return;
  const rows = orders.map((order) => {
    const rawBody = JSON.stringify({ data: { domain: "order.order", status: order.status, order_id: order.orderId }, updated_at: order.updatedAt });
    return { ...order, id: randomUUID(), rawBody, bodyHash: createHash("sha256").update(rawBody).digest("hex") };
  });
  await pool.query({
    name: "webhook_event_reconciled",
    text: `
      WITH recorded AS (
        INSERT INTO "WebhookEvent" ("id", "sellerId", "source", "receivedAt", "lastReceivedAt", "domain", "status", "resourceId",
          "orderId", "rawBody", "bodyHash", "headers", "signatureResult", "valid", "processingState", "processedAt", "attempts")
        SELECT r.id, $1, 'reconciliation', ${DB_NOW}, ${DB_NOW}, 'order.order', r.status, r."orderId", r."orderId",
               r."rawBody", r."bodyHash", '{}', 'none', true, 'processed', ${DB_NOW}, 1
        FROM json_to_recordset($2::json) AS r(id text, "orderId" text, status text, "rawBody" text, "bodyHash" text)
        RETURNING "id", "status", "orderId"
      ),
      inserted AS (
        INSERT INTO "LiveMessage" ("sellerId", "payload", "createdAt")
        SELECT $1, json_build_object('type', 'order', 'eventId', "id", 'domain', 'order.order', 'status', "status",
                                     'orderId', "orderId", 'deliveryId', NULL, 'source', 'reconciliation')::jsonb, ${DB_NOW}
        FROM recorded
        RETURNING "id", "sellerId", "payload"
      )
      ${ANNOUNCE_INSERTED_MESSAGES}`,
    values: [sellerId, JSON.stringify(rows)],
  });
}

/** Events deleted per pruning statement, so none holds locks for long. */
export const PRUNE_BATCH = 5_000;

/**
 * Deletes events older than `days` that are finished (not waiting, not dead), at most `limit` per
 * call, oldest first; the caller repeats while a full batch went. Answers how many were deleted.
 * The batch is found through the index on receivedAt alone (no seller narrows it), oldest first,
 * and the walk stops once the batch is full: OFFSET 0 keeps the queue check a lookup per row, as
 * an anti-join the planner may read and sort every event past the cutoff for each batch. Rows are
 * locked with SKIP LOCKED: instances pruning at once take different rows instead of waiting on
 * (or deadlocking with) each other, and a row someone holds is left for the next run.
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

/** Orders with an event still to be processed: that event explains them, and will update the mirror. */
export async function ordersWithWaitingEvents(sellerId: string, orderIds: readonly string[]): Promise<Set<string>> {
  if (orderIds.length === 0) return new Set();
  const result = await pool.query<{ orderId: string }>(
    `SELECT DISTINCT e."orderId" FROM "WebhookEvent" e JOIN "WebhookWork" w ON w."eventId" = e."id"
     WHERE e."sellerId" = $1 AND e."orderId" = ANY($2::text[]) AND e."processingState" IN ('pending', 'processing', 'retrying')`,
    [sellerId, orderIds],
  );
  return new Set(result.rows.map((row) => row.orderId));
}
