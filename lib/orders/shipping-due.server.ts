import "server-only";
import { startOfNextDay } from "@/lib/orders/ship-by";
import { pool } from "@/lib/pg-pool.server";

// What is due to ship, by one rule for the shipping page (features/shipping/packing.server.ts),
// the morning digest and the late-order notifications (issue 41): an approved order with a
// delivery still to post (the mirror's nextLimitAt, decision 0013) whose limit is before the end
// of the shop's day ("today", late ones included) or before now ("late").

export type ShippingDue = "today" | "late";

/** The orders of `alias` (the OrderMirror) that have something to ship. */
export const shippable = (alias: string) => `${alias}."status" = 'approved' AND ${alias}."nextLimitAt" IS NOT NULL`;

/** The instant a due order's limit is before: the end of the shop's day, or now. */
export function dueBefore(due: ShippingDue, now: Date, timeZone: string): Date {
  return due === "late" ? now : startOfNextDay(now, timeZone);
}

/** Both counts in one statement: the shipping page's "today" (late included) and "late". */
export async function countDue(shop: { id: string; timeZone: string }, now: Date = new Date()): Promise<Record<ShippingDue, number>> {
  const result = await pool.query<Record<ShippingDue, number>>({
    name: "shipping_due_counts",
    text: `
      SELECT count(*) FILTER (WHERE m."nextLimitAt" < ($2::timestamptz AT TIME ZONE 'UTC'))::int AS "today",
             count(*) FILTER (WHERE m."nextLimitAt" < ($3::timestamptz AT TIME ZONE 'UTC'))::int AS "late"
      FROM "OrderMirror" m WHERE m."sellerId" = $1 AND ${shippable("m")}`,
    values: [shop.id, dueBefore("today", now, shop.timeZone).toISOString(), dueBefore("late", now, shop.timeZone).toISOString()],
  });
  return result.rows[0] ?? { today: 0, late: 0 };
}
