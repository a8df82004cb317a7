// The dashboard's languages and time zones, for the server and the browser alike (plain module).
// Sellers are Brazilian: Portuguese is the default and what a browser gets when none of its
// languages matches; English is there for integrators and for the platform's own staff.
import { match } from "@formatjs/intl-localematcher";
import Negotiator from "negotiator";

export const LOCALES = ["pt-BR", "en"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "pt-BR";

/** Where the header's language switch keeps the seller's choice (the name next-intl uses too). */
export const LOCALE_COOKIE = "NEXT_LOCALE";
/** A year: the choice is a preference, not a session. */
export const LOCALE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** Each language named in itself, as the switch shows it. */
export const LOCALE_NAMES: Record<Locale, string> = { "pt-BR": "Português", en: "English" };

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/**
 * The locale for a request: the stored choice when it is one of ours, else the best match for the
 * browser's Accept-Language (best fit, so "pt-PT" or "pt" still get Portuguese and "en-GB"
 * English), else Portuguese.
 */
export function negotiateLocale(choice: string | undefined, acceptLanguage: string | null): Locale {
  if (isLocale(choice)) return choice;
  const requested = new Negotiator({ headers: { "accept-language": acceptLanguage ?? "" } }).languages();
  try {
    const matched = match(requested, LOCALES, DEFAULT_LOCALE);
    return isLocale(matched) ? matched : DEFAULT_LOCALE;
  } catch {
    // A malformed tag in the header (RangeError from Intl) is the browser's problem, not a 500.
    return DEFAULT_LOCALE;
  }
}

export const DEFAULT_TIME_ZONE = "America/Sao_Paulo";

/** Whether Intl knows the zone: a stored or submitted zone is checked before anything formats with it. */
export function isTimeZone(value: unknown): value is string {
  if (typeof value !== "string" || value === "") return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/**
 * The named date formats every page uses (next-intl's `formats.dateTime`), so a table and a
 * detail page show one date the same way. The zone is the request's (the seller's setting).
 */
export const formats = {
  dateTime: {
    /** 22 de nov. de 2026, 09:15 BRT / Nov 22, 2026, 9:15 AM GMT-3 */
    dateTime: { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZoneName: "short" },
    /** With seconds: for event logs, where they matter. */
    dateTimeSeconds: { dateStyle: "medium", timeStyle: "long" },
    /** 22 de nov. de 2026 */
    date: { dateStyle: "medium" },
    /** 22/11/2026 09:15: chart axes and narrow cells. */
    compact: { dateStyle: "short", timeStyle: "short" },
    /** 22/11: a day on a chart's axis. */
    dayMonth: { day: "2-digit", month: "2-digit" },
  },
} as const;
