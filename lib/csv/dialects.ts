// How a file the seller downloads is written so that their spreadsheet opens it without a wizard:
// in pt-BR `;`, comma decimals and a BOM (Excel in Brazil). Shared by every export.
import type { Locale } from "@/i18n/config";
import { wallClock, wallDay } from "@/lib/wall-clock";

export interface CsvDialect {
  delimiter: string;
  decimal: string;
  bom: string;
}

export const CSV_DIALECTS: Record<Locale, CsvDialect> = {
  "pt-BR": { delimiter: ";", decimal: ",", bom: "\uFEFF" },
  en: { delimiter: ",", decimal: ".", bom: "\uFEFF" },
};

/** `2026-11-22 10:15`: sortable, and the same in both languages. */
export function csvWallTime(value: string | null, timeZone: string): string {
  if (!value) return "";
  const { year, month, day, hour, minute } = wallClock(new Date(value), timeZone);
  return `${year}-${month}-${day} ${hour}:${minute}`;
}

export function exportDay(now: Date, timeZone: string): string {
  return wallDay(now, timeZone);
}
