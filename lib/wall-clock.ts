export interface WallClock {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
}

const clocks = new Map<string, Intl.DateTimeFormat>();

/** The date and time on a wall clock in `timeZone`, each part zero-padded (hours 00–23); formatters are kept per zone, as building one is slow. */
export function wallClock(at: Date | number, timeZone: string): WallClock {
  let clock = clocks.get(timeZone);
  if (!clock) {
    clock = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    clocks.set(timeZone, clock);
  }
  const parts = Object.fromEntries(clock.formatToParts(at).map((part) => [part.type, part.value]));
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! };
}

/** "2026-11-29": the date on a wall clock in `timeZone`. */
export function wallDay(at: Date | number, timeZone: string): string {
  const { year, month, day } = wallClock(at, timeZone);
  return `${year}-${month}-${day}`;
}
