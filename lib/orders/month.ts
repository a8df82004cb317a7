import { startOfDay } from "@/lib/orders/ship-by";
import { wallClock } from "@/lib/wall-clock";

/** Midnight of the first day of this month in `timeZone`. */
export function startOfMonth(now: Date, timeZone: string): Date {
  const day = Number(wallClock(now, timeZone).day);
  return startOfDay(now, timeZone, 1 - day);
}
