import "server-only";
import { ANNOUNCE_INSERTED_MESSAGES } from "@/features/webhooks/live/announce-sql";
import type { ShopLiveMessage } from "@/features/webhooks/live/live-messages";
import { DEAD_UNTIL } from "@/lib/webhook-work";
import { DB_NOW, pool, QUEUE_TOLD_FOR_FAN_OUT } from "@/lib/pg-pool.server";
import { toldOwnersOfMarked } from "@/lib/shops/shop-attention.server";
import type { StoredEvent } from "@/features/webhooks/parse";

// The queue (decision 0002): an event belongs to `claimedBy` until its lease, `availableAt`,
// passes; sweeps claim with SKIP LOCKED so two instances never take one row. Times are the
// database's clock, so instances with skewed clocks agree.

/** Renewed every few seconds (renewClaims), so it runs out only when its instance died or hung. */
export const CLAIM_LEASE_SECONDS = 15;
/** The receiving instance gets this long to take an unclaimed event first. */
export const ORPHAN_AFTER_SECONDS = 2;

export type QueuedEvent = StoredEvent & { attempts?: number };

const EVENT_FIELDS = `e."id", e."sellerId", e."domain", e."status", e."resourceId", e."code", e."orderId", e."deliveryId", e."valid", e."attempts"`;

/**
 * Set on the queue row when an event is taken up: ends coalescing, as what this processing reads
 * may be older than a body arriving now (decision 0004).
 */
const END_WAITING = `"waitingHash" = NULL`;
/** The event's update changes no indexed column, so it is HOT (prisma/migrations/…_hot_updates). */
const START = `SET "processingState" = 'processing'`;

/**
 * The rows to claim are locked once, then found by id (`= ANY(ARRAY(…))`): as `IN (…)`, with the
 * queue's statistics saying it is nearly empty, the planner may run the locking subquery again
 * for each row (tests/integration/queue-plans.test.ts).
 */
export const CLAIM_DUE = {
  name: "webhook_work_claim_due",
  text: `
    WITH claimed AS (
      UPDATE "WebhookWork"
      SET "claimedBy" = $1, "availableAt" = ${DB_NOW} + make_interval(secs => $2), ${END_WAITING}
      WHERE "eventId" = ANY(ARRAY(
        SELECT "eventId" FROM "WebhookWork"
        WHERE "availableAt" < ${DB_NOW}
        ORDER BY "availableAt"
        LIMIT $3
        FOR UPDATE SKIP LOCKED
      ))
      RETURNING "eventId"
    ),
    started AS (
      UPDATE "WebhookEvent" e ${START} FROM claimed WHERE e."id" = claimed."eventId"
      RETURNING ${EVENT_FIELDS}, e."receivedAt"
    )
    SELECT * FROM started e ORDER BY e."receivedAt", e."id"`,
};

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

/** startClaimedEvents' statement (its plan is tested in tests/integration/queue-plans.test.ts). */
export function takeUpQuery(instanceId: string, ids: readonly string[]) {
  return {
    name: "webhook_work_start",
    text: `
      WITH taken AS (
        SELECT w."eventId" FROM "WebhookWork" w
        WHERE w."eventId" = ANY($2::text[]) AND w."claimedBy" = $1
        ORDER BY w."sellerId" COLLATE "C", w."waitingHash" COLLATE "C"
        FOR UPDATE OF w
      ),
      ended AS (
        UPDATE "WebhookWork" w SET ${END_WAITING}
        WHERE w."eventId" = ANY(ARRAY(SELECT "eventId" FROM taken)) AND w."waitingHash" IS NOT NULL
      )
      UPDATE "WebhookEvent" e ${START}
      FROM taken WHERE e."id" = taken."eventId"
      RETURNING e."id"`,
    values: [instanceId, ids],
  };
}

export type EventOutcome =
  | { id: string; state: "processed" | "skipped" }
  | { id: string; state: "retrying"; error: string; retryInSeconds: number }
  | { id: string; state: "dead"; error: string };

const TELL_OWNERS_OF_DEAD = `,
      marked AS (
        SELECT DISTINCT event."sellerId", ${DB_NOW} AS "at"
        FROM held JOIN "WebhookEvent" event ON event."id" = held."eventId"
        WHERE NOT ($5::jsonb ? held."eventId")
      ),
      ${toldOwnersOfMarked("deadEvents", `to_char(marked."at", 'YYYY-MM-DD')`)},
      queued AS (${QUEUE_TOLD_FOR_FAN_OUT})`;

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

/** finishEvents' statement (its plan is tested in tests/integration/queue-plans.test.ts). */
export function finishQuery(instanceId: string, outcomes: readonly EventOutcome[], messages: readonly ShopLiveMessage[]) {
  // Events that gave up tell the shop's owners, once a day (lib/shops/shop-attention.server.ts): a
  // statement of its own shape, so the usual one carries no CTE for them.
  const died = outcomes.some((outcome) => outcome.state === "dead");
  const finished = outcomes.filter((outcome) => outcome.state === "processed" || outcome.state === "skipped");
  const failed = outcomes.filter((outcome) => outcome.state === "retrying" || outcome.state === "dead");
  // A dead event has no delay: it is parked (DEAD_UNTIL), and its shop's owners are told.
  const retryInSeconds = Object.fromEntries(
    failed.flatMap((outcome) => (outcome.state === "retrying" ? [[outcome.id, outcome.retryInSeconds]] : [])),
  );
  return {
    name: died ? "webhook_work_finish_died" : "webhook_work_finish",
    text: `
      WITH outcome AS (
        SELECT * FROM json_to_recordset($1::json) AS outcome(id text, state text, error text, "retryInSeconds" float8)
      ),
      done AS (
        DELETE FROM "WebhookWork" WHERE "eventId" = ANY($4::text[]) AND "claimedBy" = $2
        RETURNING "eventId"
      ),
      held AS (
        UPDATE "WebhookWork"
        SET "claimedBy" = NULL,
            "availableAt" = COALESCE(${DB_NOW} + make_interval(secs => ($5::jsonb ->> "eventId")::float8), ${DEAD_UNTIL})
        WHERE "eventId" = ANY($6::text[]) AND "claimedBy" = $2
        RETURNING "eventId"
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
      )${died ? TELL_OWNERS_OF_DEAD : ""}
      ${ANNOUNCE_INSERTED_MESSAGES}`,
    // JSON parameters: cheaper on this thread than pg's escaping of text arrays.
    values: [
      JSON.stringify(outcomes),
      instanceId,
      JSON.stringify(messages),
      finished.map((outcome) => outcome.id),
      JSON.stringify(retryInSeconds),
      failed.map((outcome) => outcome.id),
    ],
  };
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
