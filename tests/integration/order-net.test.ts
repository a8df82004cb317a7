import { readFileSync } from "node:fs";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Mirror from "@/lib/orders/order-mirror.server";
import type * as OverviewData from "@/features/overview/overview.server";
import type * as Reconcile from "@/features/webhooks/sync/reconcile.server";
import { orderSchema } from "@marketplace/api/schemas/order";
import { startOfDay } from "@/lib/orders/ship-by";
import { SEED_BASE_TIME } from "@marketplace/sandbox/seed";
import { startTestSandbox } from "@marketplace/sandbox/testing";
import type { TestSandbox } from "@marketplace/sandbox/testing";
import { connect, useTestDatabase } from "../support/database";
import { connectTestShop } from "../support/shops";

// Net per order (issue 29, docs/decisions/0012-net-per-order.md) against a real database and the
// sandbox's seeded shop: the mirror keeps each order's net, worked out here again from the
// sandbox's own JSON, and the overview's net sales are the sum of those nets over its periods.

const TIME_ZONE = "America/Sao_Paulo";
/** The seeded orders run up to this instant: the overview is asked as of then, so its periods hold some. */
const NOW = new Date(SEED_BASE_TIME);

/** The amounts as the sandbox sends them (spec: Resources → Order). */
interface WireAmounts {
  currency: string;
  normalizer: number;
  total: number;
  freight: { currency: string; normalizer: number; total: number; shared: number };
  comission: { currency: string; normalizer: number; total: number };
}

interface WireOrder {
  id: string;
  status: string;
  created_at: string;
  updated_at: string;
  amounts: WireAmounts;
}

/**
 * The net as decision 0012 words it, written out again: the total, less the commission and the
 * part of the freight not shared back, each in the order's normalizer (rounded up).
 */
function expectedNet(amounts: WireAmounts) {
  const inOrder = (value: number, normalizer: number) => Math.ceil((value * amounts.normalizer) / normalizer);
  const commission = inOrder(amounts.comission.total, amounts.comission.normalizer);
  const shopFreight = inOrder(Math.max(0, amounts.freight.total - amounts.freight.shared), amounts.freight.normalizer);
  return { commission, sellerFreight: shopFreight, net: amounts.total - commission - shopFreight };
}

let sandbox: TestSandbox;
let sql: pg.Client;
let token: string;
let shopId: string;
let mirror: typeof Mirror;
let overview: typeof OverviewData;
let reconcile: typeof Reconcile;
/** Every order of the shop, as the sandbox's API gives it. */
let wire: WireOrder[];

beforeAll(async () => {
  const url = await useTestDatabase();
  sandbox = await startTestSandbox({ config: { seedOrders: 150, seedBase: SEED_BASE_TIME } });
  process.env.MARKETPLACE_BASE_URL = sandbox.url;
  sql = await connect(url);
  ({ token, sellerId: shopId } = await connectTestShop({ sandboxUrl: sandbox.url }));
  mirror = await import("@/lib/orders/order-mirror.server");
  overview = await import("@/features/overview/overview.server");
  reconcile = await import("@/features/webhooks/sync/reconcile.server");
  wire = [];
  for (let offset = 0; ; offset += 200) {
    const response = await sandbox.api(`/v1.0/marketplace/orders?_limit=200&_offset=${offset}`, { token });
    const { results } = (await response.json()) as { results: WireOrder[] };
    wire.push(...results);
    if (results.length < 200) break;
  }
}, 60_000);

afterAll(async () => {
  await sql?.end();
  await sandbox?.close();
});

const mirrored = async () =>
  new Map(
    (
      await sql.query<{ orderId: string; commission: number | null; sellerFreight: number | null; net: number | null }>(
        `SELECT "orderId", "commission", "sellerFreight", "net" FROM "OrderMirror" WHERE "sellerId" = $1`,
        [shopId],
      )
    ).rows.map(({ orderId, ...parts }) => [orderId, parts]),
  );

/** The orders of the overview's last `days` days as of NOW, cancelled ones left out, as the sandbox has them. */
const ordersOfLast = (days: number) => {
  const since = startOfDay(NOW, TIME_ZONE, -(days - 1)).getTime();
  return wire.filter((order) => order.status !== "cancelled" && Date.parse(order.created_at) >= since);
};

describe("net per order", () => {
  it("the mirror keeps each order's commission, freight the seller pays and net, as the sandbox's JSON gives them", async () => {
    // The seeded shop has orders whose freight is partly shared: the reading of `shared` matters.
    expect(wire.some((order) => order.amounts.freight.shared > 0)).toBe(true);
    expect(wire.some((order) => order.amounts.freight.total > 0 && order.amounts.freight.shared === 0)).toBe(true);

    await mirror.upsertMirrorOrders(
      shopId,
      wire.map((order) => orderSchema.parse(order)),
    );
    const rows = await mirrored();
    expect(rows.size).toBe(wire.length);
    for (const order of wire) expect(rows.get(order.id), order.id).toEqual(expectedNet(order.amounts));
  });

  it("the overview's net sales are the sum of those nets, beside the gross sales of the same orders", async () => {
    const result = await overview.getOverview(shopId, TIME_ZONE, NOW);
    for (const [period, days] of [
      ["last7Days", 7],
      ["last30Days", 30],
    ] as const) {
      const orders = ordersOfLast(days);
      expect(result.sales[period].orders, period).toBe(orders.length);
      const gross = orders.reduce((sum, order) => sum + order.amounts.total, 0);
      const net = orders.reduce((sum, order) => sum + expectedNet(order.amounts).net, 0);
      if (orders.length === 0) {
        expect(result.netSales[period]).toEqual({ nets: [], withoutNet: 0 });
        continue;
      }
      expect(result.sales[period].totals).toEqual([{ currency: "BRL", total: gross, normalizer: 100 }]);
      expect(result.netSales[period]).toEqual({ nets: [{ currency: "BRL", net, normalizer: 100 }], withoutNet: 0 });
    }
    expect(ordersOfLast(30).length).toBeGreaterThan(1);
  });

  it("orders mirrored before the net was kept are left out of net sales and said so, and the migration sends the shop through the back-fill again", async () => {
    await sql.query(`UPDATE "OrderMirror" SET "commission" = NULL, "sellerFreight" = NULL, "net" = NULL WHERE "sellerId" = $1`, [shopId]);
    const result = await overview.getOverview(shopId, TIME_ZONE, NOW);
    expect(result.netSales.last30Days).toEqual({ nets: [], withoutNet: ordersOfLast(30).length });
    // Gross sales do not wait for it.
    expect(result.sales.last30Days.orders).toBe(ordersOfLast(30).length);

    // A shop whose back-fill finished long ago.
    await sql.query(
      `INSERT INTO "SellerSync" ("sellerId", "backfillState", "cursor", "backfilledOrders", "backfillFinishedAt")
       VALUES ($1, 'done', now() AT TIME ZONE 'UTC', 42, now() AT TIME ZONE 'UTC')
       ON CONFLICT ("sellerId") DO UPDATE SET "backfillState" = 'done', "cursor" = now() AT TIME ZONE 'UTC', "backfilledOrders" = 42`,
      [shopId],
    );
    await sql.query(readFileSync("prisma/migrations/20261126020000_refill_order_nets/migration.sql", "utf8"));
    const sync = (
      await sql.query(
        `SELECT "backfillState", "cursor", ("backfillFrom" AT TIME ZONE 'UTC') AS "backfillFrom", "backfilledOrders" FROM "SellerSync" WHERE "sellerId" = $1`,
        [shopId],
      )
    ).rows[0];
    // From the oldest closed order: the open ones are read again whatever their age.
    const oldestClosed = Math.min(
      ...wire.filter((order) => order.status !== "new" && order.status !== "approved").map((order) => Date.parse(order.updated_at)),
    );
    expect(sync).toEqual({ backfillState: "running", cursor: null, backfillFrom: new Date(oldestClosed), backfilledOrders: 0 });
  });

  it("the back-fill the migration starts writes every such order's net again", async () => {
    expect(await reconcile.reconcileShop(shopId)).toMatchObject({ mode: "backfill" });
    const rows = await mirrored();
    for (const order of wire) expect(rows.get(order.id), order.id).toEqual(expectedNet(order.amounts));
    const result = await overview.getOverview(shopId, TIME_ZONE, NOW);
    expect(result.netSales.last30Days.withoutNet).toBe(0);
  });
});
