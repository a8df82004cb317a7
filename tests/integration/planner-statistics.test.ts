import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, useTestDatabase } from "../support/database";

// A statement prepared on a table without statistics keeps a plan made as if it were nearly empty
// (lib/planner-statistics.server.ts). The processing sweep analyzes such a table once it has grown,
// and every connection then plans its statements on the table as it is: here the mirror's write,
// whose check for an order's short reference otherwise reads every reference of every shop.
let sql: pg.Client;
const SHOP = "stats-shop";

beforeAll(async () => {
  sql = await connect(await useTestDatabase());
  await sql.query(`INSERT INTO "Seller" ("id", "email", "name", "updatedAt") VALUES ($1, 'stats@example.com', 'Loja Estatística', now())`, [
    SHOP,
  ]);
  // No statistics but what the tables' sizes say, as before autovacuum's first pass.
  for (const table of ["OrderReference", "OrderMirror"]) await sql.query(`ALTER TABLE "${table}" SET (autovacuum_enabled = false)`);
});

afterAll(async () => {
  for (const table of ["OrderReference", "OrderMirror"]) await sql?.query(`ALTER TABLE "${table}" RESET (autovacuum_enabled)`);
  await sql?.end();
});

const amount = { currency: "BRL", normalizer: 100, total: 0, shared: 0 };
const order = (n: number) => ({
  id: n.toString(16).padStart(24, "0"),
  status: "approved",
  created_at: "2026-11-20T12:00:00.000Z",
  updated_at: "2026-11-20T12:00:00.000Z",
  approved_at: "2026-11-20T12:00:00.000Z",
  customer: { name: "Cliente" },
  amounts: { currency: "BRL", normalizer: 100, total: 10_000, freight: amount, comission: { ...amount, type: "percentage" } },
  deliveries: [],
});

describe("tables without statistics", () => {
  it("are analyzed by the sweep once grown, and the mirror's write stops reading every order reference", async () => {
    const { pool } = await import("@/lib/pg-pool.server");
    const { upsertMirrorOrders } = await import("@/lib/orders/order-mirror.server");
    const { analyzeTablesWithoutStatistics, ANALYZE_AFTER_ROWS } = await import("@/lib/planner-statistics.server");
    const { orderSummarySchema } = await import("@marketplace/api/schemas/order");

    // Every connection of the pool writes more than the five times after which PostgreSQL may keep a generic plan.
    let next = 0;
    const writes = async (rounds: number) => {
      for (let round = 0; round < rounds; round++) {
        await Promise.all(
          Array.from({ length: 6 }, () => upsertMirrorOrders(SHOP, [orderSummarySchema.parse(order(next++))], { tellNew: false })),
        );
      }
    };
    /** How each connection that prepared the write checks for an existing reference. */
    const referencePlans = async () => {
      const clients = await Promise.all(Array.from({ length: 6 }, () => pool.connect()));
      try {
        const plans = await Promise.all(
          clients.map(async (client) => {
            const { rows } = await client.query<{ name: string }>(
              `SELECT name FROM pg_prepared_statements WHERE name = 'order_mirror_upsert'`,
            );
            if (rows.length === 0) return null;
            await client.query("BEGIN");
            const rowsJson = JSON.stringify([
              {
                sellerId: SHOP,
                orderId: order(next++).id,
                status: "approved",
                createdAt: "2026-11-20T12:00:00Z",
                updatedAt: "2026-11-20T12:00:00Z",
                total: 1,
                currency: "BRL",
                normalizer: 100,
                itemCount: 0,
              },
            ]);
            const plan = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN EXECUTE order_mirror_upsert('${rowsJson}', false, '{}')`);
            await client.query("ROLLBACK");
            return plan.rows
              .map((row) => row["QUERY PLAN"])
              .find((line) => line.includes(`on "OrderReference" r`))!
              .replace(/^\s*(->\s*)?/, "");
          }),
        );
        return plans.filter((plan) => plan !== null);
      } finally {
        for (const client of clients) client.release();
      }
    };

    await writes(8);
    await sql.query(
      `INSERT INTO "OrderReference" ("sellerId", "orderId", "number") SELECT $1, 'old-' || n, n + 100000 FROM generate_series(1, 20000) n`,
      [SHOP],
    );
    const kept = await referencePlans();
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.some((plan) => plan.startsWith("Seq Scan"))).toBe(true);

    // Statistics arrive in the cumulative counters a moment after the writes' transactions end.
    let analyzed: string[] = [];
    for (let attempt = 0; attempt < 50 && !analyzed.includes("OrderReference"); attempt++) {
      analyzed = analyzed.concat(await analyzeTablesWithoutStatistics());
      if (!analyzed.includes("OrderReference")) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(analyzed).toContain("OrderReference");
    // OrderMirror had a few dozen rows written: not yet worth analyzing.
    expect(analyzed).not.toContain("OrderMirror");
    expect(ANALYZE_AFTER_ROWS).toBeLessThan(20_000);

    const replanned = await referencePlans();
    expect(replanned.length).toBeGreaterThan(0);
    for (const plan of replanned) expect(plan).toMatch(/^Index (Only )?Scan using "OrderReference_pkey"/);
    // Analyzed once: the next sweep finds nothing to do.
    expect(await analyzeTablesWithoutStatistics()).not.toContain("OrderReference");
  });
});
