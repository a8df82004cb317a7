// "Ship by": when an order must next be handed to the carrier (spec: Delivery `shipping.handling_time.limit_date`),
// and whether that is today or already late. Pure; the seller's calendar day is São Paulo's
// (lib/format.ts), whatever the machine's zone.
import { DISPLAY_TIME_ZONE } from "@/lib/format";

/** Deliveries the seller still has to post (spec: order.delivery statuses). */
const OPEN_DELIVERY_STATUSES: ReadonlySet<string> = new Set(["created", "received"]);
/** Orders still in the seller's hands: a cancelled or finished order has nothing to ship. */
const OPEN_ORDER_STATUSES: ReadonlySet<string> = new Set(["new", "approved"]);

interface DeliveryDeadline {
  status: string;
  shipping: { handling_time: { limit_date: string } };
}

/** The earliest handling-time limit among the order's open deliveries; null when nothing is left to ship. */
export function shipByOf(order: { status: string; deliveries: readonly DeliveryDeadline[] }): string | null {
  if (!OPEN_ORDER_STATUSES.has(order.status)) return null;
  let earliest: string | null = null;
  for (const delivery of order.deliveries) {
    if (!OPEN_DELIVERY_STATUSES.has(delivery.status)) continue;
    const limit = delivery.shipping.handling_time.limit_date;
    if (earliest === null || Date.parse(limit) < Date.parse(earliest)) earliest = limit;
  }
  return earliest;
}

const dayOf = new Intl.DateTimeFormat("en-CA", { timeZone: DISPLAY_TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" });

export type Deadline = "late" | "today" | null;

/** "late" once the limit has passed; "today" when it falls later on the seller's current day. */
export function deadlineOf(shipBy: string | null, now: Date): Deadline {
  if (shipBy === null) return null;
  const limit = new Date(shipBy);
  if (limit.getTime() < now.getTime()) return "late";
  return dayOf.format(limit) === dayOf.format(now) ? "today" : null;
}
