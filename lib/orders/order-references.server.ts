import "server-only";
import { pool } from "@/lib/pg-pool.server";

// Short order references (decision 0018). The platform names an order by a 24-character id; a
// seller reads "#1042" aloud on the phone, prints it on the picking list and searches by it. The
// number is the dashboard's own: given once per shop and order, in the order the dashboard first
// sees the orders (oldest first within one batch), and never changed. Only the order mirror's
// writers give numbers (lib/orders/order-mirror.server.ts): a page that reads an order the mirror
// has not written yet shows the end of its id, so the first sync numbers a shop's history in the
// order it reads it (by last update, oldest first) and the newest orders get the highest numbers.

interface SeenOrder {
  id: string;
  created_at: string;
}

/**
 * One statement per shop. The shop's row is the counter: its update serialises two writers of
 * one shop, so no number is given twice (one may be skipped when both saw the same new order,
 * which the primary key then keeps once).
 */
export async function assignReferences(shopId: string, orders: readonly SeenOrder[]): Promise<void> {
  if (orders.length === 0) return;
  const oldestFirst = [...new Map(orders.map((order) => [order.id, order])).values()].sort(
    (a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || (a.id < b.id ? -1 : 1),
  );
  await pool.query({
    name: "order_references_assign",
    text: `
      WITH new AS (
        SELECT o."id", row_number() OVER (ORDER BY o."position") AS "rank"
        FROM unnest($2::text[]) WITH ORDINALITY AS o("id", "position")
        WHERE NOT EXISTS (SELECT 1 FROM "OrderReference" r WHERE r."sellerId" = $1 AND r."orderId" = o."id")
      ), counter AS (
        UPDATE "Seller" SET "lastOrderNumber" = "lastOrderNumber" + (SELECT count(*) FROM new)
        WHERE "id" = $1 AND EXISTS (SELECT 1 FROM new)
        RETURNING "lastOrderNumber" - (SELECT count(*) FROM new) AS "base"
      )
      INSERT INTO "OrderReference" ("sellerId", "orderId", "number")
      SELECT $1, new."id", counter."base" + new."rank" FROM new, counter
      ON CONFLICT ("sellerId", "orderId") DO NOTHING`,
    values: [shopId, oldestFirst.map((order) => order.id)],
  });
}

/** The references already given to these orders; an order the dashboard has not mirrored has none yet. */
export async function readReferences(shopId: string, orderIds: readonly string[]): Promise<Map<string, number>> {
  if (orderIds.length === 0) return new Map();
  const result = await pool.query<{ orderId: string; number: number }>({
    name: "order_references_read",
    text: `SELECT "orderId", "number" FROM "OrderReference" WHERE "sellerId" = $1 AND "orderId" = ANY($2::text[])`,
    values: [shopId, orderIds],
  });
  return new Map(result.rows.map((row) => [row.orderId, row.number]));
}

/** The order a seller's "#1042" (or "1042") names in this shop, if any. */
export async function orderIdByReference(shopId: string, number: number): Promise<string | null> {
  const result = await pool.query<{ orderId: string }>({
    name: "order_references_find",
    text: `SELECT "orderId" FROM "OrderReference" WHERE "sellerId" = $1 AND "number" = $2`,
    values: [shopId, number],
  });
  return result.rows[0]?.orderId ?? null;
}
