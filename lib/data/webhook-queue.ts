import "server-only";
import { LIVE_CHANNEL } from "@/lib/live/bus";
import type { SellerLiveMessage } from "@/lib/live/bus";
import { DB_NOW, pool } from "@/lib/pg-pool";
import type { StoredEvent } from "@/lib/webhooks/receiver";

// The processing queue: a "WebhookWork" row per event not yet processed, written by the statement
// that stores the event (lib/data/webhook-store.ts) and deleted by the one that records its
// outcome. No polling delay for events an instance received itself: it claims them at once. An
// event is processed by one instance: the one in `claimedBy`, until `availableAt` passes (its
// lease). A sweep on every instance claims due rows with FOR UPDATE SKIP LOCKED, so two sweeping
// instances never take the same row: events nobody claimed (written while their instance was
// stopping) and claims whose lease expired (an instance that died). Times are the database's
// clock, so instances with skewed clocks agree.

/** How long a claim holds before another instance may take the event. */
export const CLAIM_LEASE_SECONDS = 60;
/**
 * An unclaimed event becomes due this long after it is written: the instance that received it
 * gets a moment to take it first; after that any instance's sweep may.
 */
export const ORPHAN_AFTER_SECONDS = 2;

const EVENT_FIELDS = `e."id", e."sellerId", e."domain", e."status", e."resourceId", e."code", e."orderId", e."deliveryId", e."valid"`;

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
    )
    SELECT ${EVENT_FIELDS} FROM claimed JOIN "WebhookEvent" e ON e."id" = claimed."eventId"
    ORDER BY e."receivedAt", e."id"`,
};

/** Claims up to `limit` due events: unclaimed ones past their moment, and expired claims. Oldest first. */
export async function claimDueEvents(instanceId: string, limit: number): Promise<StoredEvent[]> {
  const result = await pool.query<StoredEvent>({ ...CLAIM_DUE, values: [instanceId, CLAIM_LEASE_SECONDS, limit] });
  return result.rows;
}

export interface EventOutcome {
  id: string;
  state: "processed" | "skipped" | "failed";
  error?: string | null;
}

/**
 * One NOTIFY carries as many messages as fit in about this many bytes: one notification per
 * several messages instead of one each costs every instance less. PostgreSQL refuses payloads of
 * 8,000 bytes or more; a message is usually ~250 bytes and at most ~4,000 (its fields are capped
 * by lib/webhooks/parse.ts), so a chunk stays below 4,000 + one message.
 */
const NOTIFY_CHUNK_BYTES = 4_000;

/**
 * Records the outcome of a batch and the live messages it produced, in one statement (so one
 * transaction): the NOTIFY that carries the messages to every instance is delivered at COMMIT, so
 * an open page never hears of processing that did not stick. Only events this instance still
 * holds are recorded, and only their messages sent: an event whose claim expired and was taken
 * over is left to its new owner, who will announce it. The event's update touches no indexed
 * column (a HOT update); the queue row is deleted.
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
      WITH finished AS (
        DELETE FROM "WebhookWork" AS work
        USING json_to_recordset($1::json) AS outcome(id text, state text, error text)
        WHERE work."eventId" = outcome.id AND work."claimedBy" = $2
        RETURNING work."eventId", outcome.state, outcome.error
      ),
      recorded AS (
        UPDATE "WebhookEvent" AS event
        SET "processingState" = finished.state, "processingError" = finished.error, "processedAt" = ${DB_NOW}
        FROM finished
        WHERE event."id" = finished."eventId"
        RETURNING event."id"
      ),
      inserted AS (
        INSERT INTO "LiveMessage" ("sellerId", "payload", "createdAt")
        SELECT message."sellerId", message.message, ${DB_NOW}
        FROM json_to_recordset($3::json) AS message("sellerId" text, message jsonb)
        WHERE message.message->>'eventId' IN (SELECT "id" FROM recorded)
        RETURNING "id", "sellerId", "payload"
      )
      SELECT pg_notify('${LIVE_CHANNEL}', json_agg(json_build_object('id', "id"::text, 'sellerId', "sellerId", 'message', "payload") ORDER BY "id")::text)
      FROM (SELECT *, SUM(octet_length("payload"::text) + 100) OVER (ORDER BY "id") / ${NOTIFY_CHUNK_BYTES} AS chunk FROM inserted) AS numbered
      GROUP BY chunk`,
    // As JSON parameters, like the receiver's batch (lib/data/webhook-store.ts): cheaper on this
    // thread than pg's escaping of text arrays.
    values: [JSON.stringify(outcomes), instanceId, JSON.stringify(messages)],
  });
}

/** Hands this instance's claims back (graceful shutdown): due at once, for any instance. */
export async function releaseClaims(instanceId: string): Promise<number> {
  const result = await pool.query(`UPDATE "WebhookWork" SET "claimedBy" = NULL, "availableAt" = ${DB_NOW} WHERE "claimedBy" = $1`, [
    instanceId,
  ]);
  return result.rowCount ?? 0;
}

/**
 * "Process again" from the event log: queues one of the seller's events, claimed by this
 * instance, whatever its state, unless an instance is working on it right now. Null when it is
 * not theirs or is being processed.
 */
export async function claimEventForReprocessing(instanceId: string, sellerId: string, id: string): Promise<StoredEvent | null> {
  const result = await pool.query<StoredEvent>(
    `WITH claimed AS (
       INSERT INTO "WebhookWork" ("eventId", "claimedBy", "availableAt")
       SELECT "id", $1, ${DB_NOW} + make_interval(secs => $2) FROM "WebhookEvent" WHERE "id" = $3 AND "sellerId" = $4
       ON CONFLICT ("eventId") DO UPDATE SET "claimedBy" = excluded."claimedBy", "availableAt" = excluded."availableAt"
         WHERE "WebhookWork"."claimedBy" IS NULL OR "WebhookWork"."availableAt" < ${DB_NOW}
       RETURNING "eventId"
     )
     SELECT ${EVENT_FIELDS} FROM claimed JOIN "WebhookEvent" e ON e."id" = claimed."eventId"`,
    [instanceId, CLAIM_LEASE_SECONDS, id, sellerId],
  );
  return result.rows[0] ?? null;
}
