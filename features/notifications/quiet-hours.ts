// Quiet hours (issue 41): e-mail and push wait from `from` until `to`, minutes after midnight on
// the shop's clock; a window may cross midnight (22:00–07:00). Pure, so tested without a clock.
import { wallClock } from "@/lib/wall-clock";

export interface QuietHours {
  from: number;
  to: number;
}

const DAY = 24 * 60;

function inWindow(minute: number, { from, to }: QuietHours): boolean {
  if (from === to) return false;
  return from < to ? minute >= from && minute < to : minute >= from || minute < to;
}

/**
 * When a message due at `at` may go: `at` itself outside quiet hours, else the window's end on the
 * shop's clock. (Counted in minutes from `at`, so a daylight-saving change inside a window moves
 * its end by that hour; Brazil has had none since 2019.)
 */
export function afterQuietHours(at: Date, hours: QuietHours | null, timeZone: string): Date {
  if (!hours) return at;
  const clock = wallClock(at, timeZone);
  const minute = Number(clock.hour) * 60 + Number(clock.minute);
  if (!inWindow(minute, hours)) return at;
  const minutesLeft = (hours.to - minute + DAY) % DAY;
  const end = new Date(at.getTime() + minutesLeft * 60_000);
  end.setUTCSeconds(0, 0);
  return end;
}

/** "22:00" → 1320; null for anything else. */
export function minuteOfDay(value: string): number | null {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(value);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

export function timeOfDay(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
}
