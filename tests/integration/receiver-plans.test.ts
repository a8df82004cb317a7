import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, useTestDatabase } from "../support/database";

// The receiver's batch statement counts a body's earlier copies this minute (the replay limit).
// PostgreSQL keeps a prepared statement's generic plan for the connection's life; one made while the
// event table was nearly empty — a new install, its first notifications — counts them by reading
// every event of the shop, and goes on doing so as the events pile up, each batch slower than the
// last (a bench:webhooks run fell to 0.29 of the floor that way, its database CPU per request rising
// round after round). The receiver's connections are therefore replaced every RECEIVER_CONNECTION_USES
// batches, and a new one plans against the table as it is.
let sql: pg.Client;
const SHOP = "plans-shop";

beforeAll(async () => {
  sql = await connect(await useTestDatabase());
  await sql.query(`INSERT INTO "Seller" ("id", "email", "name", "updatedAt") VALUES ($1, 'plans@example.com', 'Loja Planos', now())`, [
    SHOP,
  ]);
  // No statistics but what the table's size says, as before autovacuum's first pass.
  await sql.query(`ALTER TABLE "WebhookEvent" SET (autovacuum_enabled = false)`);
});

afterAll(async () => {
  await sql?.query(`ALTER TABLE "WebhookEvent" RESET (autovacuum_enabled)`);
  await sql?.end();
});

describe("the receiver's connections", () => {
  it("do not keep counting a body's copies by reading the shop's every event once the table has grown", async () => {
    const { receiverBatchStatement } = await import("@/features/webhooks/store.server");
    const { receiverPool, RECEIVER_WRITES_IN_FLIGHT, RECEIVER_CONNECTION_USES } = await import("@/lib/pg-pool.server");
    // An empty batch runs the statement, and its plan, without writing anything.
    const batches = async (rounds: number) => {
      for (let round = 0; round < rounds; round++) {
        await Promise.all(
          Array.from({ length: RECEIVER_WRITES_IN_FLIGHT }, () =>
            receiverPool.query({ ...receiverBatchStatement, values: ["[]", 0, 0, 10] }),
          ),
        );
      }
    };
    /** How each of the pool's connections counts copies now, if it has run the statement. */
    const countingPlans = async () => {
      const clients = await Promise.all(Array.from({ length: RECEIVER_WRITES_IN_FLIGHT }, () => receiverPool.connect()));
      try {
        const plans = await Promise.all(
          clients.map(async (client) => {
            const { rows } = await client.query<{ name: string }>(`SELECT name FROM pg_prepared_statements`);
            if (!rows.some((row) => row.name === receiverBatchStatement.name)) return null;
            const plan = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN EXECUTE ${receiverBatchStatement.name}('[]', 0, 0, 10)`);
            const lines = plan.rows.map((row) => row["QUERY PLAN"]);
            const scan = lines.findIndex((line) => line.includes(`on "WebhookEvent" earlier`));
            return `${lines[scan]!.trim()} ${lines[scan + 1]!.trim()}`;
          }),
        );
        return plans.filter((plan) => plan !== null);
      } finally {
        for (const client of clients) client.release();
      }
    };
    const byShopAlone = /Index Cond: \("sellerId" = batch(_\d+)?\.seller_id\)$/;

    // Every connection runs it more than the five times after which PostgreSQL may keep a generic plan.
    await batches(8);
    await sql.query(
      `INSERT INTO "WebhookEvent" ("id", "sellerId", "receivedAt", "lastReceivedAt", "rawBody", "bodyHash", "headers", "signatureResult", "valid", "processingState")
       SELECT 'plans-' || n, $1, now(), now(), '{}', md5(n::text), '{}', 'valid', true, 'done' FROM generate_series(1, 20000) n`,
      [SHOP],
    );
    // The plans kept from the empty table read the shop's 20,000 events for each body of a batch.
    const kept = await countingPlans();
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.some((plan) => byShopAlone.test(plan))).toBe(true);

    await batches(RECEIVER_CONNECTION_USES);
    const renewed = await countingPlans();
    expect(renewed.length).toBeGreaterThan(0);
    for (const plan of renewed) {
      expect(plan).not.toMatch(byShopAlone);
      expect(plan).toMatch(/"bodyHash" = batch(_\d+)?\.body_hash.*\)$/);
    }
  });
});
