import { startOfDay } from "@/lib/orders/ship-by";
import { startOfMonth } from "@/lib/orders/month";

// The sales page's periods (issue 42), in the shop's zone: each an instant range [from, to), and the
// period of the same length right before it, for the comparison.

export const PRESETS = ["today", "7d", "30d", "month"] as const;
export type Preset = (typeof PRESETS)[number];

export interface Period {
  from: Date;
  to: Date;
  previous: { from: Date; to: Date };
  /** Long ranges are charted by week (Monday first), shorter ones by day. */
  bucket: "day" | "week";
}

/** Longer than this, the chart has a bar per week. */
const DAYS_BY_DAY = 62;

function period(from: Date, to: Date): Period {
  const length = to.getTime() - from.getTime();
  return {
    from,
    to,
    previous: { from: new Date(from.getTime() - length), to: from },
    bucket: length > DAYS_BY_DAY * 86_400_000 ? "week" : "day",
  };
}

/** A preset ends now: today so far, the last 7 or 30 days with today, this month so far. */
export function presetPeriod(preset: Preset, now: Date, timeZone: string): Period {
  const from =
    preset === "today"
      ? startOfDay(now, timeZone)
      : preset === "month"
        ? startOfMonth(now, timeZone)
        : startOfDay(now, timeZone, preset === "7d" ? -6 : -29);
  return period(from, now);
}

/** "2026-11-01" to "2026-11-30", both days whole, in the shop's zone. Null when the end is before the start. */
export function customPeriod(fromDay: string, toDay: string, timeZone: string): Period | null {
  const dayStart = (day: string, offset = 0) => startOfDay(new Date(`${day}T12:00:00Z`), timeZone, offset);
  const from = dayStart(fromDay);
  const to = dayStart(toDay, 1);
  return to > from ? period(from, to) : null;
}

/** The change from `before` to `now` in percent, null when there was nothing before. */
export function changePercent(now: number, before: number): number | null {
  return before === 0 ? null : ((now - before) / before) * 100;
}
