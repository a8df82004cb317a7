import { startOfDay } from "@/lib/orders/ship-by";

/** Midnight of the first day of this month in `timeZone`. */
export function startOfMonth(now: Date, timeZone: string): Date {
  const day = Number(new Intl.DateTimeFormat("en-CA", { timeZone, day: "numeric" }).format(now));
  return startOfDay(now, timeZone, 1 - day);
}
