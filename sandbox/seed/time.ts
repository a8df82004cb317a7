// Seed time: every seeded timestamp derives from a fixed base instant, never from the wall clock,
// so the same SANDBOX_SEED yields the same records on any day.

/** Seeded orders are spread over the year before this instant. */
export const SEED_BASE_TIME = Date.parse("2026-11-01T12:00:00.000Z");
export const DAY = 86_400_000;
export const MINUTE = 60_000;

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
