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

export type Deadline = "late" | "today" | null;

/** "late" once the limit has passed; "today" when it falls later on the seller's current day. */
export function deadlineOf(shipBy: string | null, now: Date): Deadline {
  if (shipBy === null) return null;
  const limit = Date.parse(shipBy);
  if (limit < now.getTime()) return "late";
  return limit < startOfNextDay(now).getTime() ? "today" : null;
}

const wallClock = new Intl.DateTimeFormat("en-US", {
  timeZone: DISPLAY_TIME_ZONE,
  hourCycle: "h23",
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "numeric",
  second: "numeric",
});

/** The zone's wall-clock time at `instant`, read as if it were UTC (its offset from UTC, in ms, is the difference). */
function wallTimeAsUtc(instant: number): number {
  const parts = Object.fromEntries(wallClock.formatToParts(instant).map((part) => [part.type, Number(part.value)]));
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
}

/** The instant the seller's next calendar day starts (midnight in São Paulo). */
export function startOfNextDay(now: Date): Date {
  return startOfDay(now, 1);
}

/** Midnight in São Paulo `days` days after the seller's current day (0: today's, -6: a week's first). */
export function startOfDay(now: Date, days = 0): Date {
  const wall = new Date(wallTimeAsUtc(now.getTime()));
  const midnightAsUtc = Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate() + days);
  // Midnight there is midnight-as-UTC minus the zone's offset at that moment (asked twice, for a
  // change of offset in between).
  let instant = midnightAsUtc - (wallTimeAsUtc(midnightAsUtc) - midnightAsUtc);
  instant = midnightAsUtc - (wallTimeAsUtc(instant) - instant);
  return new Date(instant);
}

/** The ship-by range a deadline filter means at `now`: late is before now; today is from now to the day's end. */
export function deadlineRange(deadline: "late" | "today", now: Date): { from: Date | null; before: Date } {
  return deadline === "late" ? { from: null, before: now } : { from: now, before: startOfNextDay(now) };
}
