import "server-only";
import { DB_NOW, pool, QUEUE_TOLD_FOR_FAN_OUT } from "@/lib/pg-pool.server";
import { rolesWith } from "@/lib/people/roles";
import { shippable } from "@/lib/orders/shipping-due.server";

// Late orders are news (issue 41): written with their place in the fan-out to e-mail and push
// (features/notifications). The unique key (person, shop, kind, subject) tells each person once,
// however often reconciliation sees the order late.

/** Who ships orders: told when one's handling time ran out. */
const ROLES_TOLD_OF_LATE_ORDERS = rolesWith("orders.packing");
/** An order whose limit passed longer ago than this is history, not news (the back-fill's old orders). */
const LATE_NEWS_HOURS = 24;

/**
 * Orders of the shop the shipping page lists as late (lib/orders/shipping-due.server.ts) whose
 * limit passed within the last day: "became late". Run by reconciliation, every few minutes
 * per shop. Answers how many people were told.
 */
export async function tellLateOrders(shopId: string): Promise<number> {
  const result = await pool.query({
    name: "tell_late_orders",
    text: `
      WITH told AS (
        INSERT INTO "Notification" ("id", "personId", "sellerId", "kind", "subject", "createdAt")
        SELECT gen_random_uuid()::text, m."personId", o."sellerId", 'order.late', o."orderId", ${DB_NOW}
        FROM "OrderMirror" o JOIN "Membership" m ON m."sellerId" = o."sellerId"
        WHERE o."sellerId" = $1 AND m."role" = ANY($2::text[])
          AND ${shippable("o")} AND o."nextLimitAt" < ${DB_NOW} AND o."nextLimitAt" > ${DB_NOW} - make_interval(hours => $3)
        ON CONFLICT DO NOTHING
        RETURNING "id"
      )
      ${QUEUE_TOLD_FOR_FAN_OUT}`,
    values: [shopId, ROLES_TOLD_OF_LATE_ORDERS, LATE_NEWS_HOURS],
  });
  return result.rowCount ?? 0;
}
