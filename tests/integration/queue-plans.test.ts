import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, useTestDatabase } from "../support/database";

// The queue table fills and empties by the second, so its statistics are often those of an empty
// table while 500 events wait in it. Statements that joined the queue with a batch's ids or
// outcomes were then planned as a loop that compared each queue row with each id: 500 × 500, 160
// ms of a 186 ms statement (bench:webhooks). The take-up and the record of outcomes must stay
// linear whatever the statistics say: no part of their plans may be run again for each row,
// except a lookup through an index.
let sql: pg.Client;
const SHOP = "queue-plans-shop";
const INSTANCE = "instance-a";
const BATCH = 500;
const ids = Array.from({ length: BATCH }, (_, n) => `queue-plans-${n}`);

type PlanNode = { "Node Type": string; "Relation Name"?: string; "Actual Loops": number; Plans?: PlanNode[] };

/** Nodes run more than once that are not an index lookup: each of those runs reads all its rows again. */
function repeatedScans(node: PlanNode): string[] {
  const own =
    node["Actual Loops"] > 1 && !["Index Scan", "Index Only Scan", "Memoize"].includes(node["Node Type"])
      ? [`${node["Node Type"]}${node["Relation Name"] ? ` on ${node["Relation Name"]}` : ""} × ${node["Actual Loops"]}`]
      : [];
  return [...own, ...(node.Plans ?? []).flatMap(repeatedScans)];
}

/**
 * Runs the statement under EXPLAIN ANALYZE in a transaction rolled back, and answers its plan: the
 * generic plan, as a prepared statement gets once it has run five times.
 */
async function plan(query: { text: string; values: unknown[] }, before?: string): Promise<PlanNode> {
  await sql.query("BEGIN");
  try {
    await sql.query("SET LOCAL plan_cache_mode = force_generic_plan");
    if (before) await sql.query(before);
    const { rows } = await sql.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${query.text}`, query.values);
    return rows[0]!["QUERY PLAN"][0].Plan;
  } finally {
    await sql.query("ROLLBACK");
  }
}

beforeAll(async () => {
  sql = await connect(await useTestDatabase());
  await sql.query(`INSERT INTO "Seller" ("id", "email", "name", "updatedAt") VALUES ($1, 'queue-plans@example.com', 'Loja Fila', now())`, [
    SHOP,
  ]);
  await sql.query(`INSERT INTO "Person" ("id", "name") VALUES ('queue-plans-person', 'Ana')`);
  await sql.query(`ALTER TABLE "WebhookWork" SET (autovacuum_enabled = false)`);
  await sql.query(
    `INSERT INTO "WebhookEvent" ("id", "sellerId", "receivedAt", "lastReceivedAt", "rawBody", "bodyHash", "headers", "signatureResult", "valid", "processingState")
     SELECT id, $1, now(), now(), '{}', md5(id), '{}', 'valid', true, 'processing' FROM unnest($2::text[]) AS id`,
    [SHOP, ids],
  );
  // Statistics of the queue nearly empty after a flood, as autovacuum leaves them: one row left
  // in pages that held thousands, so the planner expects about one row wherever it looks.
  await sql.query(
    `INSERT INTO "WebhookEvent" ("id", "sellerId", "receivedAt", "lastReceivedAt", "rawBody", "bodyHash", "headers", "signatureResult", "valid", "processingState")
     SELECT 'flood-' || n, $1, now(), now(), '{}', md5(n::text), '{}', 'valid', true, 'processed' FROM generate_series(1, 5000) n`,
    [SHOP],
  );
  await sql.query(`DELETE FROM "WebhookWork"`);
  await sql.query(`INSERT INTO "WebhookWork" ("eventId", "availableAt") SELECT 'flood-' || n, now() FROM generate_series(1, 5000) n`);
  await sql.query(`DELETE FROM "WebhookWork" WHERE "eventId" <> 'flood-5000'`);
  await sql.query(`VACUUM ANALYZE "WebhookWork"`);
  await sql.query(
    `INSERT INTO "WebhookWork" ("eventId", "sellerId", "waitingHash", "claimedBy", "availableAt")
     SELECT id, $1, md5(id), $2, now() + interval '1 minute' FROM unnest($3::text[]) AS id`,
    [SHOP, INSTANCE, ids],
  );
});

afterAll(async () => {
  await sql?.query(`ALTER TABLE "WebhookWork" RESET (autovacuum_enabled)`);
  await sql?.query(`ALTER TABLE "NotificationFanOut" RESET (autovacuum_enabled)`);
  await sql?.query(`ALTER TABLE "NotificationMessage" RESET (autovacuum_enabled)`);
  await sql?.end();
});

describe("the queue's statements, planned while its statistics say it is empty", () => {
  it("take up a batch of 500 without comparing each queue row with each id", async () => {
    const { takeUpQuery } = await import("@/features/webhooks/process/queue-statements.server");
    const taken = await plan(takeUpQuery(INSTANCE, ids));
    expect(repeatedScans(taken)).toEqual([]);
  });

  it("claim 500 due events without running the locking subquery again for each row", async () => {
    const { CLAIM_DUE } = await import("@/features/webhooks/process/queue-statements.server");
    const claimed = await plan(
      { text: CLAIM_DUE.text, values: [INSTANCE, 15, BATCH] },
      `UPDATE "WebhookWork" SET "claimedBy" = NULL, "availableAt" = now() - interval '1 minute'`,
    );
    expect(repeatedScans(claimed)).toEqual([]);
  });

  it("record a batch's outcomes, retries and dead events included, without comparing each queue row with each outcome", async () => {
    const { finishQuery } = await import("@/features/webhooks/process/queue-statements.server");
    const outcomes = ids.map((id, n) =>
      n % 50 === 0
        ? { id, state: "retrying" as const, error: "The platform answered 503", retryInSeconds: 30 }
        : n % 99 === 0
          ? { id, state: "dead" as const, error: "The platform answered 503" }
          : { id, state: "processed" as const },
    );
    const messages = ids.slice(0, 20).map((id) => ({
      sellerId: SHOP,
      message: { type: "order" as const, eventId: id, domain: "order.order", status: "paid", orderId: "65a0", deliveryId: null },
    }));
    const recorded = await plan(finishQuery(INSTANCE, outcomes, messages));
    expect(repeatedScans(recorded)).toEqual([]);
  });

  it("take notifications to fan out without comparing each waiting row with each one taken", async () => {
    const { FAN_OUT_TAKE } = await import("@/features/notifications/fan-out.server");
    await sql.query(`ALTER TABLE "NotificationFanOut" SET (autovacuum_enabled = false)`);
    await sql.query(
      `INSERT INTO "Notification" ("id", "personId", "sellerId", "kind", "subject")
       SELECT 'queue-plans-n' || n, 'queue-plans-person', $1, 'order.new', 'order-' || n FROM generate_series(1, 5000) n`,
      [SHOP],
    );
    // As for the events' queue: one row left in pages that held thousands.
    await sql.query(`INSERT INTO "NotificationFanOut" ("notificationId") SELECT 'queue-plans-n' || n FROM generate_series(1, 5000) n`);
    await sql.query(`DELETE FROM "NotificationFanOut" WHERE "notificationId" <> 'queue-plans-n5000'`);
    await sql.query(`VACUUM ANALYZE "NotificationFanOut"`);
    await sql.query(`INSERT INTO "NotificationFanOut" ("notificationId") SELECT 'queue-plans-n' || n FROM generate_series(1, ${BATCH}) n`);
    const taken = await plan({ text: FAN_OUT_TAKE.text, values: [BATCH] });
    expect(repeatedScans(taken)).toEqual([]);
  });

  it("claim 500 messages to send without running the locking subquery again for each row", async () => {
    const { OUTBOX_CLAIM } = await import("@/features/notifications/delivery.server");
    await sql.query(`ALTER TABLE "NotificationMessage" SET (autovacuum_enabled = false)`);
    const message = (id: string, dueAt: string) =>
      `SELECT '${id}' || n, 'queue-plans-person', '${SHOP}', 'order.new', 'email', 'waiting', ${dueAt} FROM generate_series(1, ${BATCH * 10}) n`;
    const insert = `INSERT INTO "NotificationMessage" ("id", "personId", "sellerId", "kind", "channel", "state", "dueAt")`;
    await sql.query(`${insert} ${message("flood-m", "now()")}`);
    await sql.query(`DELETE FROM "NotificationMessage" WHERE "id" <> 'flood-m1'`);
    await sql.query(`VACUUM ANALYZE "NotificationMessage"`);
    await sql.query(`${insert} ${message("due-m", "now() - interval '1 minute'")} LIMIT ${BATCH}`);
    const claimed = await plan({ text: OUTBOX_CLAIM.text, values: [INSTANCE, 60, BATCH, ["email", "push"]] });
    expect(repeatedScans(claimed)).toEqual([]);
  });
});
