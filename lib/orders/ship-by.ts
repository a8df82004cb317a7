// "Today" is the seller's calendar day in their Settings' time zone, whatever the machine's zone.
import { wallClock } from "@/lib/wall-clock";

const OPEN_DELIVERY_STATUSES: ReadonlySet<string> = new Set(["created", "received"]);
/** A cancelled or finished order has nothing to ship. */
const OPEN_ORDER_STATUSES: ReadonlySet<string> = new Set(["new", "approved"]);

interface DeliveryDeadline {
  status: string;
  shipping: { handling_time: { limit_date: string } };
}

/** The earliest `handling_time.limit_date` of the open deliveries; null when nothing is left to ship. */
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

export function deadlineOf(shipBy: string | null, now: Date, timeZone: string): Deadline {
  if (shipBy === null) return null;
  const limit = Date.parse(shipBy);
  if (limit < now.getTime()) return "late";
  return limit < startOfNextDay(now, timeZone).getTime() ? "today" : null;
}

/** The zone's wall-clock time read as UTC: the difference from `instant` is the zone's offset. */
function wallTimeAsUtc(instant: number, timeZone: string): number {
  const { year, month, day, hour, minute, second } = wallClock(instant, timeZone);
  return Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second));
}

export function startOfNextDay(now: Date, timeZone: string): Date {
  return startOfDay(now, timeZone, 1);
}

/** Midnight in `timeZone`, `days` days from today there. */
export function startOfDay(now: Date, timeZone: string, days = 0): Date {
  const wall = new Date(wallTimeAsUtc(now.getTime(), timeZone));
  const midnightAsUtc = Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate() + days);
  // The offset is asked twice, in case it changes between midnight-as-UTC and midnight there.
  let instant = midnightAsUtc - (wallTimeAsUtc(midnightAsUtc, timeZone) - midnightAsUtc);
  instant = midnightAsUtc - (wallTimeAsUtc(instant, timeZone) - instant);
  return new Date(instant);
}

export function deadlineRange(deadline: "late" | "today", now: Date, timeZone: string): { from: Date | null; before: Date } {
  return deadline === "late" ? { from: null, before: now } : { from: now, before: startOfNextDay(now, timeZone) };
}
