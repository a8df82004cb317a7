import "server-only";
import { db } from "@/lib/db";
import type { OrderSummary } from "@/lib/marketplace/schemas/order";
import { pool } from "@/lib/pg-pool";

// The names shown beside SKU codes (prisma/schema.prisma ProductName). The platform has no
// endpoint that reads a SKU (spec: Endpoints 4–9), so a code is named by what the dashboard sees
// anyway: the SKUs it creates (their pt_BR title) and the items of the orders it mirrors
// (`info.name` of `info.sku`, spec: Resources → Delivery item). The catalogue's name wins: it is
// the seller's own words, where an order item carries whatever the platform showed the buyer.

/** The names the seller's catalogue or orders gave these codes; a code without one is absent. */
export async function productNamesFor(sellerId: string, skus: Iterable<string>): Promise<Map<string, string>> {
  const wanted = [...new Set(skus)].filter((sku) => sku !== "");
  if (wanted.length === 0) return new Map();
  const rows = await db.productName.findMany({ where: { sellerId, sku: { in: wanted } }, select: { sku: true, name: true } });
  return new Map(rows.map((row) => [row.sku, row.name]));
}

/** The name of one code, or null when neither the catalogue nor an order gave one. */
export async function productNameOf(sellerId: string, sku: string): Promise<string | null> {
  return (await productNamesFor(sellerId, [sku])).get(sku) ?? null;
}

/**
 * The statement that names a code from a SKU the dashboard just created, to run in the transaction
 * that records it. Unconditional: the newest SKU of a code is its current version (a SKU is never
 * edited, spec: SKU and price immutability), and a catalogue name replaces an order's.
 */
export function nameFromCatalogue(sellerId: string, sku: string, title: string) {
  return db.$executeRaw`
    INSERT INTO "ProductName" ("sellerId", "sku", "name", "source", "namedAt")
    VALUES (${sellerId}, ${sku}, ${title.trim()}, 'catalogue', (now() AT TIME ZONE 'UTC'))
    ON CONFLICT ("sellerId", "sku") DO UPDATE SET "name" = excluded."name", "source" = 'catalogue', "namedAt" = excluded."namedAt"`;
}

export interface OrderItemName {
  sku: string;
  name: string;
  /** The order's updated_at: a later order's name replaces an earlier one's. */
  namedAt: string;
}

/**
 * One name per code from these orders' items: the latest order's when several sell it, items
 * without a code or a name left out. Sorted by code, so concurrent writers lock rows in one order.
 */
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

/** Orders of one shop, as the mirror is written (several shops at once for a batch of events). */
export interface ShopOrders {
  sellerId: string;
  orders: readonly OrderSummary[];
}

/**
 * Names codes from mirrored orders' items. Never over a catalogue name, never with an older
 * order's name; and only when the name changes, so that the mirror's frequent rewrites of the
 * same orders write nothing here. (The price of that last rule: an older order read late can
 * bring back an older name until the code's next order.) One statement for all the shops given,
 * rows in (shop, code) order so that concurrent writers lock them in one order.
 */
export async function nameFromOrders(shops: readonly ShopOrders[]): Promise<void> {
  const names = [...shops]
    .sort((a, b) => (a.sellerId < b.sellerId ? -1 : a.sellerId > b.sellerId ? 1 : 0))
    .flatMap(({ sellerId, orders }) => orderItemNames(orders).map((name) => ({ sellerId, ...name })));
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
