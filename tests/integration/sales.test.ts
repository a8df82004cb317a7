import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Sales from "@/features/sales/sales.server";
import { customPeriod, presetPeriod } from "@/features/sales/periods";
import type { Period } from "@/features/sales/periods";
import { orderNet } from "@/lib/orders/net";
import { createMarketplaceClient } from "@marketplace/api/client";
import { ordersQuery } from "@marketplace/api/list-query";
import type { Order } from "@marketplace/api/schemas/order";
import { startTestSandbox } from "@marketplace/sandbox/testing";
import type { TestSandbox } from "@marketplace/sandbox/testing";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type pg from "pg";
import { connect, useTestDatabase } from "../support/database";
import { connectTestShop } from "../support/shops";

// The sales page's figures (issue 42) against sums computed here from the sandbox's own orders, for
// the same period in São Paulo's zone: gross, net, orders, cancellations, by day and by state.
const ZONE = "America/Sao_Paulo";
let sandbox: TestSandbox;
let sales: typeof Sales;
let shopId: string;
let orders: Order[];
let sql: pg.Client;

beforeAll(async () => {
  sql = await connect(await useTestDatabase());
  sandbox = await startTestSandbox({ config: { seedOrders: 150 } });
  process.env.MARKETPLACE_BASE_URL = sandbox.url;
  sales = await import("@/features/sales/sales.server");
  const mirror = await import("@/lib/orders/order-mirror.server");
  const shop = await connectTestShop({ sandboxUrl: sandbox.url });
  shopId = shop.sellerId;
  const client = createMarketplaceClient({ baseUrl: sandbox.url, accessToken: shop.token });
  orders = [];
  for (let offset = 0; ; offset += 100) {
    const page = await client.listOrders(ordersQuery({ limit: 100, offset }));
    orders.push(...page.items);
    if (!page.next) break;
  }
  await mirror.upsertMirrorOrders(shopId, orders);
}, 60_000);

afterAll(async () => {
  await sql?.end();
  await sandbox?.close();
});

/** What the page must say for [from, to), summed from the sandbox's orders. */
function expected(from: Date, to: Date) {
  const placed = orders.filter((order) => {
    const at = Date.parse(order.created_at);
    return at >= from.getTime() && at < to.getTime() && order.amounts.currency === "BRL";
  });
  const sold = placed.filter((order) => order.status !== "cancelled");
  const centavos = (value: number, normalizer: number) => Math.round((value * 100) / normalizer);
  return {
    gross: sold.reduce((sum, order) => sum + centavos(order.amounts.total, order.amounts.normalizer), 0),
    net: sold.reduce((sum, order) => sum + centavos(orderNet(order.amounts)!.net, order.amounts.normalizer), 0),
    orders: sold.length,
    cancelled: placed.length - sold.length,
    sold,
  };
}

const dayIn = (instant: string) => new Intl.DateTimeFormat("en-CA", { timeZone: ZONE }).format(new Date(instant));

describe("sales", () => {
  it("sums one day of São Paulo, which crosses midnight in UTC, as the sandbox's orders of that day do", async () => {
    // The day with most orders, as a seller would pick it.
    const byDay = new Map<string, number>();
    for (const order of orders) byDay.set(dayIn(order.created_at), (byDay.get(dayIn(order.created_at)) ?? 0) + 1);
    const [day] = [...byDay].sort((a, b) => b[1] - a[1])[0]!;
    const period = customPeriod(day, day, ZONE)!;
    expect(period.from.toISOString()).toBe(`${day}T03:00:00.000Z`);
    const report = await sales.salesReport({ id: shopId, timeZone: ZONE }, period);
    const want = expected(period.from, period.to);
    expect(want.orders).toBeGreaterThan(0);
    expect(report.current).toMatchObject({
      gross: want.gross,
      net: want.net,
      orders: want.orders,
      cancelled: want.cancelled,
      withoutNet: 0,
    });
    expect(report.buckets).toEqual([{ day, gross: want.gross, net: want.net, orders: want.orders }]);
    // The day before is the previous period.
    const before = expected(period.previous.from, period.previous.to);
    expect(report.previous).toMatchObject({ gross: before.gross, net: before.net, orders: before.orders, cancelled: before.cancelled });
  });

  it("sums the last 30 days and the 30 before them, day by day and by state", async () => {
    const period: Period = presetPeriod("30d", new Date(), ZONE);
    const report = await sales.salesReport({ id: shopId, timeZone: ZONE }, period);
    const want = expected(period.from, period.to);
    expect(want.orders).toBeGreaterThan(10);
    expect(report.current).toMatchObject({ gross: want.gross, net: want.net, orders: want.orders, cancelled: want.cancelled });
    const before = expected(period.previous.from, period.previous.to);
    expect(report.previous).toMatchObject({ gross: before.gross, orders: before.orders });

    const days = new Map<string, number>();
    for (const order of want.sold) days.set(dayIn(order.created_at), (days.get(dayIn(order.created_at)) ?? 0) + order.amounts.total);
    expect(new Map(report.buckets.map((bucket) => [bucket.day, bucket.gross]))).toEqual(days);

    const states = new Map<string, number>();
    for (const order of want.sold) {
      const state = order.deliveries[0]!.shipping.recipient.address.state;
      states.set(state, (states.get(state) ?? 0) + order.amounts.total);
    }
    expect(new Map(report.states.map((row) => [row.state, row.gross]))).toEqual(states);
  });

  it("ranks the products sold in the last 30 days by revenue and units as the sandbox's items add up, with a margin where a cost is known", async () => {
    const { productSales } = await import("@/features/sales/best-products.server");
    const { bestProducts } = await import("@/features/sales/best-products");
    const { setProductCost, pricingSettings } = await import("@/features/prices/costs/product-costs.server");
    const period = presetPeriod("30d", new Date(), ZONE);
    const want = new Map<string, { units: number; revenue: number }>();
    for (const order of expected(period.from, period.to).sold)
      for (const item of order.deliveries.flatMap((delivery) => delivery.items)) {
        const known = want.get(item.info.sku) ?? { units: 0, revenue: 0 };
        known.units += item.quantity;
        known.revenue += Math.round((item.unit_price.value * item.quantity * 100) / item.unit_price.normalizer);
        want.set(item.info.sku, known);
      }
    expect(want.size).toBeGreaterThan(1);
    const [top] = [...want].sort((a, b) => b[1].revenue - a[1].revenue);
    await setProductCost(shopId, { id: "person-teste", name: "Teste" }, { sku: top![0], cost: 1234 }, "catalogue");

    const products = await productSales(shopId, period);
    expect(new Map(products.map((product) => [product.sku, { units: product.units, revenue: product.revenue }]))).toEqual(want);
    expect(bestProducts(products, "revenue")[0]!.sku).toBe(top![0]);
    const byUnits = bestProducts(products, "units");
    expect(byUnits[0]!.units).toBe(Math.max(...[...want.values()].map((product) => product.units)));
    const rate = (await pricingSettings(shopId)).commission.rateBps ?? 0;
    const withCost = products.find((product) => product.sku === top![0])!;
    expect(withCost.margin).toBe(top![1].revenue - Math.round((top![1].revenue * rate) / 10_000) - 1234 * top![1].units);
    expect(products.filter((product) => product.sku !== top![0]).every((product) => product.margin === null)).toBe(true);
  });

  it("charts a year by week, each bar a Monday in the shop's zone", async () => {
    const now = new Date();
    const period = customPeriod(dayIn(new Date(now.getTime() - 364 * 86_400_000).toISOString()), dayIn(now.toISOString()), ZONE)!;
    expect(period.bucket).toBe("week");
    const report = await sales.salesReport({ id: shopId, timeZone: ZONE }, period);
    for (const bucket of report.buckets) expect(new Date(`${bucket.day}T12:00:00Z`).getUTCDay()).toBe(1);
    expect(report.buckets.reduce((sum, bucket) => sum + bucket.gross, 0)).toBe(report.current.gross);
    expect(report.current.gross).toBe(expected(period.from, period.to).gross);
  });

  it("fills the roll-up from the orders already mirrored, as its migration does on an existing database", async () => {
    const period = presetPeriod("30d", new Date(), ZONE);
    const shop = { id: shopId, timeZone: ZONE };
    const before = await sales.salesReport(shop, period);
    // The orders as they were before the migration: mirrored, with no sums kept.
    await sql.query(`DELETE FROM "SalesRollup"`);
    expect((await sales.salesReport(shop, period)).current.gross).toBeLessThan(before.current.gross);
    const migrations = path.resolve(import.meta.dirname, "../../prisma/migrations");
    const migration = readdirSync(migrations).find((name) => name.endsWith("_sales_rollup"))!;
    const text = readFileSync(path.join(migrations, migration, "migration.sql"), "utf8");
    await sql.query(text.slice(text.indexOf("-- The orders mirrored so far.")));
    expect(await sales.salesReport(shop, period)).toEqual(before);
    expect(before.current.gross).toBe(expected(period.from, period.to).gross);
  });

  it("does not write an order listed again unchanged, and rewrites one whose row lacks what the order says", async () => {
    const mirror = await import("@/lib/orders/order-mirror.server");
    const order = orders[0]!;
    const version = async () =>
      (
        await sql.query<{ version: string; items: unknown[] }>(
          `SELECT xmin::text AS "version", "items" FROM "OrderMirror" WHERE "sellerId" = $1 AND "orderId" = $2`,
          [shopId, order.id],
        )
      ).rows[0]!;
    const before = await version();
    // Several notifications of one change: the same updated_at, the same data.
    expect(await mirror.upsertMirrorOrders(shopId, [order])).toEqual([]);
    expect((await version()).version).toBe(before.version);
    // A row written before a column existed: the refill migration's back-fill relies on this.
    await sql.query(`UPDATE "OrderMirror" SET "items" = '[]' WHERE "sellerId" = $1 AND "orderId" = $2`, [shopId, order.id]);
    expect(await mirror.upsertMirrorOrders(shopId, [order])).toEqual([order.id]);
    expect((await version()).items).toEqual(before.items);
  });

  it("keeps its sums as an order is cancelled, leaves the mirror and comes back (the roll-up's triggers)", async () => {
    const mirror = await import("@/lib/orders/order-mirror.server");
    const { productSales } = await import("@/features/sales/best-products.server");
    const year = customPeriod(dayIn(new Date(Date.now() - 364 * 86_400_000).toISOString()), dayIn(new Date().toISOString()), ZONE)!;
    const shop = { id: shopId, timeZone: ZONE };
    const figures = async () => {
      const report = await sales.salesReport(shop, year);
      const products = await productSales(shopId, year);
      return { current: report.current, states: report.states, buckets: report.buckets, products };
    };
    const before = await figures();
    // An order placed more than a day ago, so that the year reads it from the roll-up's whole days or months.
    const order = orders.find(
      (candidate) =>
        candidate.status !== "cancelled" &&
        candidate.amounts.currency === "BRL" &&
        Date.parse(candidate.created_at) < Date.now() - 2 * 86_400_000,
    )!;
    const gross = Math.round((order.amounts.total * 100) / order.amounts.normalizer);
    const sku = order.deliveries[0]!.items[0]!.info.sku;

    await mirror.upsertMirrorOrders(shopId, [
      { ...order, status: "cancelled", updated_at: new Date(Date.parse(order.updated_at) + 60_000).toISOString() },
    ]);
    const cancelled = await figures();
    expect(cancelled.current).toMatchObject({
      gross: before.current.gross - gross,
      orders: before.current.orders - 1,
      cancelled: before.current.cancelled + 1,
    });
    const unitsOf = (products: typeof before.products) => products.find((product) => product.sku === sku)?.units ?? 0;
    const units = order.deliveries.flatMap((delivery) => delivery.items).filter((item) => item.info.sku === sku);
    expect(unitsOf(cancelled.products)).toBe(unitsOf(before.products) - units.reduce((sum, item) => sum + item.quantity, 0));

    await sql.query(`DELETE FROM "OrderMirror" WHERE "sellerId" = $1 AND "orderId" = $2`, [shopId, order.id]);
    expect((await figures()).current).toMatchObject({ gross: cancelled.current.gross, cancelled: before.current.cancelled });

    // Gone from the mirror, it comes back as the platform has it.
    await mirror.upsertMirrorOrders(shopId, [order]);
    expect(await figures()).toEqual(before);
    // No row of the roll-up is left negative by the round trip.
    const negative = await sql.query(
      `SELECT 1 FROM "SalesRollup" WHERE "sellerId" = $1 AND ("gross" < 0 OR "orders" < 0 OR "cancelled" < 0 OR "units" < 0)`,
      [shopId],
    );
    expect(negative.rowCount).toBe(0);
  });

  it("gives orders mirrored before the search and items migrations their items, tracking codes and keys through a new back-fill", async () => {
    const { reconcileShop } = await import("@/features/webhooks/sync/reconcile.server");
    // As a mirror written before those migrations: the new columns at their defaults, the back-fill done.
    await sql.query(
      `UPDATE "OrderMirror" SET "items" = '[]', "trackingNumbers" = '', "customerKeys" = '{}', "state" = NULL WHERE "sellerId" = $1`,
      [shopId],
    );
    await sql.query(
      `INSERT INTO "SellerSync" ("sellerId", "backfillState", "cursor") VALUES ($1, 'done', now())
       ON CONFLICT ("sellerId") DO UPDATE SET "backfillState" = 'done', "cursor" = now()`,
      [shopId],
    );
    const migrations = path.resolve(import.meta.dirname, "../../prisma/migrations");
    const refill = readdirSync(migrations).find((name) => name.endsWith("_refill_mirror"))!;
    await sql.query(readFileSync(path.join(migrations, refill, "migration.sql"), "utf8"));
    const references = await sql.query(`SELECT "orderId", "number" FROM "OrderReference" WHERE "sellerId" = $1 ORDER BY 1`, [shopId]);

    expect((await reconcileShop(shopId))?.mode).toBe("backfill");
    const { rows } = await sql.query<{ stale: number; rows: number }>(
      `SELECT count(*) FILTER (WHERE "items" = '[]' OR "trackingNumbers" = '' OR "customerKeys" = '{}' OR "state" IS NULL)::int AS "stale", count(*)::int AS "rows"
       FROM "OrderMirror" WHERE "sellerId" = $1 AND "updatedAt" >= now() - interval '90 days'`,
      [shopId],
    );
    expect(rows[0]!.rows).toBeGreaterThan(0);
    expect(rows[0]!.stale).toBe(0);
    // The roll-up followed both rewrites: the states it sums are the sandbox's again.
    const period = presetPeriod("30d", new Date(), ZONE);
    const states = new Map<string, number>();
    for (const order of expected(period.from, period.to).sold) {
      const state = order.deliveries[0]!.shipping.recipient.address.state;
      states.set(state, (states.get(state) ?? 0) + order.amounts.total);
    }
    const report = await sales.salesReport({ id: shopId, timeZone: ZONE }, period);
    expect(new Map(report.states.map((row) => [row.state, row.gross]))).toEqual(states);
    // Nobody was told of orders they knew, and no reference changed.
    expect((await sql.query(`SELECT 1 FROM "Notification" WHERE "sellerId" = $1`, [shopId])).rowCount).toBe(0);
    expect((await sql.query(`SELECT "orderId", "number" FROM "OrderReference" WHERE "sellerId" = $1 ORDER BY 1`, [shopId])).rows).toEqual(
      references.rows,
    );
  });

  it("lets a shop with sales be removed, its sums with it", async () => {
    expect((await sql.query(`SELECT 1 FROM "SalesRollup" WHERE "sellerId" = $1`, [shopId])).rowCount).toBeGreaterThan(0);
    await sql.query(`DELETE FROM "Seller" WHERE "id" = $1`, [shopId]);
    expect((await sql.query(`SELECT 1 FROM "SalesRollup" WHERE "sellerId" = $1`, [shopId])).rowCount).toBe(0);
  });
});
