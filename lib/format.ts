// One place for how dates, counts and money read, in the request's language and the seller's time
// zone, so a date reads the same on every page and on server and browser alike.
import { createFormatter, useLocale, useTimeZone } from "next-intl";
import { useMemo } from "react";
import { DEFAULT_LOCALE, DEFAULT_TIME_ZONE, formats } from "@/i18n/config";
import type { Locale } from "@/i18n/config";
import { formatMoney } from "@/lib/money";
import type { MoneyAmount } from "@/lib/money";

export type DateFormat = keyof typeof formats.dateTime;

export interface DisplayFormat {
  locale: Locale;
  timeZone: string;
  /** A date (or an ISO string); "—" for none or an unreadable one, never "Invalid Date". */
  date(value: Date | string | null | undefined, format?: DateFormat): string;
  count(value: number): string;
  money(money: MoneyAmount): string;
  /** From a fraction: 0.125 → "12,5%". */
  percent(fraction: number): string;
}

export function displayFormat({
  locale = DEFAULT_LOCALE,
  timeZone = DEFAULT_TIME_ZONE,
}: { locale?: Locale; timeZone?: string } = {}): DisplayFormat {
  const formatter = createFormatter({ locale, timeZone, formats });
  return {
    locale,
    timeZone,
    date(value, format = "dateTime") {
      if (value === null || value === undefined) return "—";
      const date = typeof value === "string" ? new Date(value) : value;
      return Number.isNaN(date.getTime()) ? "—" : formatter.dateTime(date, format);
    },
    count: (value) => formatter.number(value),
    money: (money) => formatMoney(money, locale),
    percent: (fraction) => formatter.number(fraction, { style: "percent", maximumFractionDigits: 1 }),
  };
}

/** The request's DisplayFormat, in server and client components alike (next-intl's context). */
export function useDisplayFormat(): DisplayFormat {
  const locale = useLocale();
  const timeZone = useTimeZone();
  return useMemo(() => displayFormat({ locale, timeZone }), [locale, timeZone]);
}
