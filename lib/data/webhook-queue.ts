import "server-only";
import type pg from "pg";
import { LIVE_CHANNEL } from "@/lib/live/bus";
import type { SellerLiveMessage } from "@/lib/live/bus";
import { DB_NOW, pool } from "@/lib/pg-pool";
import type { StoredEvent } from "@/lib/webhooks/receiver";

// The webhook event log is also the processing queue: no other table, no polling delay for
// events this instance received. An event is processed by exactly one instance: the one whose id
// is in `claimedBy`, until its lease (`claimedUntil`) expires. The receiving instance claims a
// new event in the statement that writes it (lib/data/webhook-store.ts); a sweep claims the rest
// with FOR UPDATE SKIP LOCKED, so two sweeping instances never take the same row. An instance that
// dies keeps its claims only until the lease expires; then any instance takes them back.
// Lease times use the database's clock, so instances with skewed clocks agree.

/** How long a claim holds before another instance may take the event. */
export const CLAIM_LEASE_SECONDS = 60;
/**
 * A pending event this old was not taken by the instance that received it (it stopped, or its
 * queue is behind): any instance's sweep may claim it. Younger ones are left to their receiver.
 */
export const ORPHAN_AFTER_SECONDS = 2;

const EVENT_FIELDS = `"id", "sellerId", "domain", "status", "resourceId", "code", "orderId", "deliveryId", "valid"`;

const CLAIM_DUE = {
  name: "webhook_event_claim_due",
  text: `
    UPDATE "WebhookEvent"
    SET "processingState" = 'processing', "claimedBy" = $1,
        "claimedUntil" = ${DB_NOW} + make_interval(secs => $2)
    WHERE "id" IN (
      SELECT "id" FROM "WebhookEvent"
      WHERE ("processingState" = 'pending' AND "receivedAt" < ${DB_NOW} - make_interval(secs => $3))
         OR ("processingState" = 'processing' AND "claimedUntil" < ${DB_NOW})
      ORDER BY "receivedAt", "id"
      LIMIT $4
      FOR UPDATE SKIP LOCKED
    )
    RETURNING ${EVENT_FIELDS}`,
};

/**
 * Claims up to `limit` events nobody is working on: pending ones their receiver did not take,
 * and those whose claim expired. Oldest first.
 */
export async function claimDueEvents(instanceId: string, limit: number): Promise<StoredEvent[]> {
  const result = await pool.query<StoredEvent>({
    ...CLAIM_DUE,
    values: [instanceId, CLAIM_LEASE_SECONDS, ORPHAN_AFTER_SECONDS, limit],
  });
  return result.rows;
}

/**
 * One NOTIFY carries as many messages as fit in about this many bytes: one notification per
 * several messages instead of one each costs every instance less. PostgreSQL refuses payloads of
 * 8,000 bytes or more; a message is usually ~250 bytes and at most ~4,000 (its fields are capped
 * by lib/webhooks/parse.ts), so a chunk stays below 4,000 + one message.
 */
const NOTIFY_CHUNK_BYTES = 4_000;

export interface EventOutcome {
  id: string;
  state: "processed" | "skipped" | "failed";
  error?: string | null;
}

/**
 * Records the outcome of a batch and the live messages it produced, in one statement (so one
 * transaction): the NOTIFY that carries the messages to every instance is delivered at COMMIT, so
 * an open page never hears of processing that did not stick. Only events this instance still
 * holds are updated, and only their messages are sent: an event whose claim expired and was taken
 * over is left to its new owner, who will announce it.
 */
export async function finishEvents(
  instanceId: string,
  outcomes: readonly EventOutcome[],
  messages: readonly SellerLiveMessage[],
): Promise<void> {
  if (outcomes.length === 0) return;
  await pool.query({
    name: "webhook_event_finish",
    text: `
      WITH finished AS (
        UPDATE "WebhookEvent" AS event
        SET "processingState" = outcome.state, "processingError" = outcome.error,
            "processedAt" = ${DB_NOW}, "claimedBy" = NULL, "claimedUntil" = NULL
        FROM json_to_recordset($1::json) AS outcome(id text, state text, error text)
        WHERE event."id" = outcome.id AND event."claimedBy" = $2
        RETURNING event."id"
      ),
      inserted AS (
        INSERT INTO "LiveMessage" ("sellerId", "payload", "createdAt")
        SELECT message."sellerId", message.message, ${DB_NOW}
        FROM json_to_recordset($3::json) AS message("sellerId" text, message jsonb)
        WHERE message.message->>'eventId' IN (SELECT "id" FROM finished)
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

/** Hands this instance's unfinished claims back (graceful shutdown): they are pending again. */
export async function releaseClaims(instanceId: string, client: pg.Pool | pg.PoolClient = pool): Promise<number> {
  const result = await client.query(
    `UPDATE "WebhookEvent" SET "processingState" = 'pending', "claimedBy" = NULL, "claimedUntil" = NULL
     WHERE "claimedBy" = $1 AND "processingState" = 'processing'`,
    [instanceId],
  );
  return result.rowCount ?? 0;
}

/**
 * "Process again" from the event log: claims one of the seller's events whatever its state,
 * unless an instance is working on it right now. Null when it is not theirs or is being processed.
 */
export async function claimEventForReprocessing(instanceId: string, sellerId: string, id: string): Promise<StoredEvent | null> {
  const result = await pool.query<StoredEvent>(
    `UPDATE "WebhookEvent"
     SET "processingState" = 'processing', "claimedBy" = $1, "claimedUntil" = ${DB_NOW} + make_interval(secs => $2)
     WHERE "id" = $3 AND "sellerId" = $4
       AND ("processingState" <> 'processing' OR "claimedUntil" < ${DB_NOW})
     RETURNING ${EVENT_FIELDS}`,
    [instanceId, CLAIM_LEASE_SECONDS, id, sellerId],
  );
  return result.rows[0] ?? null;
}
