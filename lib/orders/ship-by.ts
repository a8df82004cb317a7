// "Ship by": when an order must next be handed to the carrier (spec: Delivery `shipping.handling_time.limit_date`),
// and whether that is today or already late. Pure; "today" is the seller's calendar day in the
// time zone of their Settings (`seller.timeZone` on the server, next-intl's `useTimeZone()` in
// the browser), whatever the machine's zone.

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

/** "late" once the limit has passed; "today" when it falls later on the seller's current day in `timeZone`. */
export function deadlineOf(shipBy: string | null, now: Date, timeZone: string): Deadline {
  if (shipBy === null) return null;
  const limit = Date.parse(shipBy);
  if (limit < now.getTime()) return "late";
  return limit < startOfNextDay(now, timeZone).getTime() ? "today" : null;
}

const wallClocks = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone: building an Intl.DateTimeFormat is slow, and a page asks per row. */
function wallClockOf(timeZone: string): Intl.DateTimeFormat {
  let clock = wallClocks.get(timeZone);
  if (!clock) {
    clock = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    wallClocks.set(timeZone, clock);
  }
  return clock;
}

/** The zone's wall-clock time at `instant`, read as if it were UTC (its offset from UTC, in ms, is the difference). */
function wallTimeAsUtc(instant: number, timeZone: string): number {
  const parts = Object.fromEntries(wallClockOf(timeZone).formatToParts(instant).map((part) => [part.type, Number(part.value)]));
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
}

/** The instant the seller's next calendar day starts (midnight in `timeZone`). */
export function startOfNextDay(now: Date, timeZone: string): Date {
  return startOfDay(now, timeZone, 1);
}

/** Midnight in `timeZone`, `days` days after the seller's current day there (0: today's, -6: a week's first). */
export function startOfDay(now: Date, timeZone: string, days = 0): Date {
  const wall = new Date(wallTimeAsUtc(now.getTime(), timeZone));
  const midnightAsUtc = Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate() + days);
  // Midnight there is midnight-as-UTC minus the zone's offset at that moment (asked twice, for a
  // change of offset in between).
  let instant = midnightAsUtc - (wallTimeAsUtc(midnightAsUtc, timeZone) - midnightAsUtc);
  instant = midnightAsUtc - (wallTimeAsUtc(instant, timeZone) - instant);
  return new Date(instant);
}

/** The ship-by range a deadline filter means at `now`: late is before now; today is from now to the day's end in `timeZone`. */
export function deadlineRange(deadline: "late" | "today", now: Date, timeZone: string): { from: Date | null; before: Date } {
  return deadline === "late" ? { from: null, before: now } : { from: now, before: startOfNextDay(now, timeZone) };
}
