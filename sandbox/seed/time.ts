// Seed time: every seeded timestamp derives from one base instant, never from the wall clock while
// seeding, so the same SANDBOX_SEED and base yield the same records on any day. The base is the
// sandbox clock when the store is seeded (sandbox/state-file.ts keeps it in the saved state), or
// SANDBOX_SEED_BASE when that pins it.

/**
 * A fixed base, for tests that need fixed ids and dates (`config: { seedBase: SEED_BASE_TIME }`):
 * seeded ObjectIds embed their creation time, so a base taken from the clock changes every id.
 */
export const SEED_BASE_TIME = Date.parse("2026-11-01T12:00:00.000Z");
export const DAY = 86_400_000;
export const HOUR = 3_600_000;
export const MINUTE = 60_000;

/** Where the demo shops' days begin and end: the marketplace's sellers are in Brazil. */
export const SHOP_TIME_ZONE = "America/Sao_Paulo";

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** The base of a new seed: the pinned one, else the sandbox clock's now, to the whole second (ObjectIds keep no more). */
export function seedBaseTime(pinned: number | undefined, now: number): number {
  return pinned ?? Math.floor(now / 1000) * 1000;
}

const wallClocks = new Map<string, Intl.DateTimeFormat>();

/** `instant`'s wall-clock time in `timeZone`, read as if it were UTC: the difference is the zone's offset. */
function wallTimeAsUtc(instant: number, timeZone: string): number {
  let format = wallClocks.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    wallClocks.set(timeZone, format);
  }
  const parts = format.formatToParts(instant);
  const value = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((item) => item.type === type)?.value);
  return Date.UTC(value("year"), value("month") - 1, value("day"), value("hour"), value("minute"), value("second"));
}

/** Midnight in `timeZone` of the day `days` days from the one holding `instant` (negative: before). */
export function startOfLocalDay(instant: number, days = 0, timeZone = SHOP_TIME_ZONE): number {
  const wall = new Date(wallTimeAsUtc(instant, timeZone));
  const midnightAsUtc = Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate() + days);
  // The offset is asked twice, in case it changes between midnight-as-UTC and midnight there.
  let start = midnightAsUtc - (wallTimeAsUtc(midnightAsUtc, timeZone) - midnightAsUtc);
  start = midnightAsUtc - (wallTimeAsUtc(start, timeZone) - start);
  return start;
}

/** The weekday (0 = Sunday … 6 = Saturday) of the local day that starts at `dayStart`. */
export function localWeekday(dayStart: number, timeZone = SHOP_TIME_ZONE): number {
  return new Date(wallTimeAsUtc(dayStart, timeZone)).getUTCDay();
}
