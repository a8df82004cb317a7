import "server-only";
import { pool } from "@/lib/pg-pool.server";

// Short order references (decision 0018). The platform names an order by a 24-character id; a
// seller reads "#1042" aloud on the phone, prints it on the picking list and searches by it. The
// number is the dashboard's own: given once per shop and order, in the order the dashboard first
// sees the orders (oldest first within one batch), and never changed. Only the order mirror's
// writers give numbers (lib/orders/order-mirror.server.ts): a page that reads an order the mirror
// has not written yet shows the end of its id, so the first sync numbers a shop's history in the
// order it reads it (by last update, oldest first) and the newest orders get the highest numbers.
// They are given in the mirror's own statement (GIVE_REFERENCES_TO_WRITTEN there); this module reads them.

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
