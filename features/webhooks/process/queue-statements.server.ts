import "server-only";
import { ANNOUNCE_INSERTED_MESSAGES } from "@/features/webhooks/live/announce-sql";
import type { ShopLiveMessage } from "@/features/webhooks/live/live-messages";
import { DEAD_UNTIL } from "@/lib/webhook-work";
import { DB_NOW, QUEUE_TOLD_FOR_FAN_OUT } from "@/lib/pg-pool.server";
import { toldOwnersOfMarked } from "@/lib/shops/shop-attention.server";

// The statements that claim, take up and finish the queue's events (./queue.server.ts runs them).
// The queue's rows are always found by id, never joined: its statistics often say it is nearly
// empty while hundreds of rows wait (decision 0004; tests/integration/queue-plans.test.ts plans
// each of these against such statistics).

export type EventOutcome =
  | { id: string; state: "processed" | "skipped" }
  | { id: string; state: "retrying"; error: string; retryInSeconds: number }
  | { id: string; state: "dead"; error: string };

export const EVENT_FIELDS = `e."id", e."sellerId", e."domain", e."status", e."resourceId", e."code", e."orderId", e."deliveryId", e."valid", e."attempts"`;

/**
 * Set on the queue row when an event is taken up: ends coalescing, as what this processing reads
 * may be older than a body arriving now (decision 0004).
 */
export const END_WAITING = `"waitingHash" = NULL`;
/** The event's update changes no indexed column, so it is HOT (prisma/migrations/…_hot_updates). */
export const START = `SET "processingState" = 'processing'`;

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

const TELL_OWNERS_OF_DEAD = `,
      marked AS (
        SELECT DISTINCT event."sellerId", ${DB_NOW} AS "at"
        FROM held JOIN "WebhookEvent" event ON event."id" = held."eventId"
        WHERE NOT ($5::jsonb ? held."eventId")
      ),
      ${toldOwnersOfMarked("deadEvents", `to_char(marked."at", 'YYYY-MM-DD')`)},
      queued AS (${QUEUE_TOLD_FOR_FAN_OUT})`;

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
