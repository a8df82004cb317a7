import "server-only";
import { db } from "@/lib/db.server";
import type { OrderSummary } from "@marketplace/api/schemas/order";
import { pool } from "@/lib/pg-pool.server";

// The platform has no endpoint that reads a SKU (spec: Endpoints 4–9), so codes are named from the
// SKUs we create and the order items we mirror. The catalogue's name wins: it is the seller's words.

/** A code without a name is absent. */
export async function productNamesFor(shopId: string, skus: Iterable<string>): Promise<Map<string, string>> {
  const wanted = [...new Set(skus)].filter((sku) => sku !== "");
  if (wanted.length === 0) return new Map();
  const rows = await db.productName.findMany({ where: { shopId, sku: { in: wanted } }, select: { sku: true, name: true } });
  return new Map(rows.map((row) => [row.sku, row.name]));
}

export async function productNameOf(shopId: string, sku: string): Promise<string | null> {
  return (await productNamesFor(shopId, [sku])).get(sku) ?? null;
}

/** Unconditional: a SKU is never edited, so the newest one of a code is current (spec: immutability). */
export function nameFromCatalogue(shopId: string, sku: string, title: string) {
  return db.$executeRaw`
    INSERT INTO "ProductName" ("sellerId", "sku", "name", "source", "namedAt")
    VALUES (${shopId}, ${sku}, ${title.trim()}, 'catalogue', (now() AT TIME ZONE 'UTC'))
    ON CONFLICT ("sellerId", "sku") DO UPDATE SET "name" = excluded."name", "source" = 'catalogue', "namedAt" = excluded."namedAt"`;
}

export interface OrderItemName {
  sku: string;
  name: string;
  /** The order's updated_at: a later order's name replaces an earlier one's. */
  namedAt: string;
}

/** The latest order's name per code, sorted by code so concurrent writers lock rows in one order. */
export function orderItemNames(orders: readonly OrderSummary[]): OrderItemName[] {
  const names = new Map<string, OrderItemName>();
  for (const order of orders) {
    for (const delivery of order.deliveries) {
      for (const item of delivery.items) {
        const sku = item.info?.sku;
        const name = item.info?.name.trim();
        if (!sku || !name) continue;
        const known = names.get(sku);
        if (!known || Date.parse(known.namedAt) < Date.parse(order.updated_at)) names.set(sku, { sku, name, namedAt: order.updated_at });
      }
    }
  }
  return [...names.values()].sort((a, b) => (a.sku < b.sku ? -1 : a.sku > b.sku ? 1 : 0));
}

export interface ShopOrders {
  sellerId: string;
  orders: readonly OrderSummary[];
}

/**
 * Never over a catalogue name or a newer order's, and only when the name changes, so the mirror's
 * rewrites write nothing (at the price of a late older order's name coming back). Rows in (shop,
 * code) order so concurrent writers never deadlock.
 */
export async function nameFromOrders(shops: readonly ShopOrders[]): Promise<void> {
  const names = [...shops]
    .sort((a, b) => (a.sellerId < b.sellerId ? -1 : a.sellerId > b.sellerId ? 1 : 0))
    .flatMap(({ sellerId: shopId, orders }) => orderItemNames(orders).map((name) => ({ sellerId: shopId, ...name })));
  if (names.length === 0) return;
  await pool.query({
    name: "product_names_from_orders",
    text: `
      INSERT INTO "ProductName" ("sellerId", "sku", "name", "source", "namedAt")
      SELECT n."sellerId", n."sku", n."name", 'order', (n."namedAt"::timestamptz AT TIME ZONE 'UTC')
      FROM json_to_recordset($1::json) AS n("sellerId" text, "sku" text, "name" text, "namedAt" text)
      ON CONFLICT ("sellerId", "sku") DO UPDATE SET "name" = excluded."name", "namedAt" = excluded."namedAt"
      WHERE "ProductName"."source" = 'order' AND "ProductName"."namedAt" < excluded."namedAt" AND "ProductName"."name" <> excluded."name"`,
    values: [JSON.stringify(names)],
  });
}
