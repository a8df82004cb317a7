import "server-only";
import { DB_NOW, pool } from "@/lib/pg-pool.server";

// What the notifications leave behind is deleted once it has done its work (issue 41), in batches
// like the event log's (features/webhooks/process/prune.server.ts), by every instance's delivery
// loop once an hour: SKIP LOCKED, so instances pruning at once take different rows.

/** Rows deleted per statement, so none holds locks for long. */
export const NOTIFICATION_PRUNE_BATCH = 5_000;

/** The inbox keeps 90 days (it shows the newest of them). */
export const NOTIFICATION_RETENTION_DAYS = 90;
/** A message sent, dropped or failed is kept 30 days: the failed count of the last 7 days reads them. */
export const MESSAGE_RETENTION_DAYS = 30;
/** A push handed to a device guards the message's retries, which end within a day. */
export const PUSH_SENT_RETENTION_DAYS = 7;

const STATEMENTS = [
  // Finished only; their dueAt is when they were last claimed, about when they were sent. Locked
  // once, then found by id: the outbox's statistics swing as the events' queue's do
  // (tests/integration/queue-plans.test.ts).
  `DELETE FROM "NotificationMessage" WHERE "id" = ANY(ARRAY(
     SELECT "id" FROM "NotificationMessage"
     WHERE "state" IN ('sent', 'dropped', 'failed') AND "dueAt" < ${DB_NOW} - make_interval(days => ${MESSAGE_RETENTION_DAYS})
     LIMIT $1 FOR UPDATE SKIP LOCKED))`,
  `DELETE FROM "PushSent" WHERE ("messageId", "subscriptionId") IN (
     SELECT "messageId", "subscriptionId" FROM "PushSent" WHERE "sentAt" < ${DB_NOW} - make_interval(days => ${PUSH_SENT_RETENTION_DAYS})
     LIMIT $1 FOR UPDATE SKIP LOCKED)`,
  // Not one still waiting for its fan-out (its row would go with it: told nowhere).
  `DELETE FROM "Notification" WHERE "id" IN (
     SELECT n."id" FROM "Notification" n
     WHERE n."createdAt" < ${DB_NOW} - make_interval(days => ${NOTIFICATION_RETENTION_DAYS})
       AND NOT EXISTS (SELECT 1 FROM "NotificationFanOut" f WHERE f."notificationId" = n."id")
     LIMIT $1 FOR UPDATE OF n SKIP LOCKED)`,
];

/** One pass: each table until a batch comes back short, at most `maxBatches` each. Answers the rows deleted. */
export async function pruneNotifications(maxBatches = 20, limit = NOTIFICATION_PRUNE_BATCH): Promise<number> {
  let total = 0;
  for (const text of STATEMENTS) {
    for (let batch = 0; batch < maxBatches; batch++) {
      const deleted = (await pool.query(text, [limit])).rowCount ?? 0;
      total += deleted;
      if (deleted < limit) break;
    }
  }
  return total;
}
