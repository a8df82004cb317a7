// Dates and numbers as the dashboard shows them, in one place: one locale and one time zone for
// every page and table, on the server and in the browser alike (a fixed zone also keeps the
// server's and the browser's renderings equal). The sellers are in Brazil; the zone is shown.
// Money is shown through here too; its exact arithmetic lives in lib/money.ts.

export { formatMoney } from "@/lib/money";

export const DISPLAY_LOCALE = "en";
export const DISPLAY_TIME_ZONE = "America/Sao_Paulo";

const formats = {
  /** Nov 22, 2026, 9:15 AM GMT-3 */
  dateTime: new Intl.DateTimeFormat(DISPLAY_LOCALE, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
    timeZone: DISPLAY_TIME_ZONE,
  }),
  /** Nov 22, 2026, 9:15:42 AM GMT-3: for event logs, where seconds matter. */
  dateTimeSeconds: new Intl.DateTimeFormat(DISPLAY_LOCALE, { dateStyle: "medium", timeStyle: "long", timeZone: DISPLAY_TIME_ZONE }),
  /** Nov 22, 2026 */
  date: new Intl.DateTimeFormat(DISPLAY_LOCALE, { dateStyle: "medium", timeZone: DISPLAY_TIME_ZONE }),
  /** 11/22/26, 9:15 AM: for chart axes */
  compact: new Intl.DateTimeFormat(DISPLAY_LOCALE, { dateStyle: "short", timeStyle: "short", timeZone: DISPLAY_TIME_ZONE }),
} as const;

export type DateFormat = keyof typeof formats;

/** A date (or an ISO string) in the display zone; "—" for none or an unreadable one. */
export function formatDate(value: Date | string | null | undefined, format: DateFormat = "dateTime"): string {
  if (value === null || value === undefined) return "—";
  const date = typeof value === "string" ? new Date(value) : value;
  return Number.isNaN(date.getTime()) ? "—" : formats[format].format(date);
}

const count = new Intl.NumberFormat(DISPLAY_LOCALE);

/** 1,234 */
export function formatCount(value: number): string {
  return count.format(value);
}
