// The orders export's dialect and formula rule: a name or URL someone typed never runs as a formula.
import Papa from "papaparse";
import type { Locale } from "@/i18n/config";
import { auditActionWord, auditKindWord, describeAuditEntry, describeAuditSide } from "./describe";
import type { AuditWords, DescribableEntry } from "./describe";
import { escapeCsvCell } from "@/lib/csv/escape-cell";
import { displayFormat } from "@/lib/format";
import type { DisplayFormat } from "@/lib/format";
import { CSV_DIALECTS } from "@/lib/csv/dialects";
import { wallClock } from "@/lib/wall-clock";

export const AUDIT_EXPORT_COLUMNS = [
  "whenUtc",
  "whenLocal",
  "person",
  "kind",
  "action",
  "subject",
  "before",
  "after",
  "description",
] as const;
export type AuditExportColumn = (typeof AUDIT_EXPORT_COLUMNS)[number];

export interface ExportableEntry extends DescribableEntry {
  at: Date;
  personName: string;
  kind: string;
}

export interface AuditExportSettings {
  locale: Locale;
  timeZone: string;
  t: AuditWords;
}

/** `2026-11-22 23:30:05`: sortable, and the same in both languages. */
function wallTime(at: Date, timeZone: string): string {
  const { year, month, day, hour, minute, second } = wallClock(at, timeZone);
  return `${year}-${month}-${day} ${hour}:${minute}:${second}`;
}

/** The two dates are the dashboard's own; every other cell goes through the formula rule. */
export function auditExportRow(entry: ExportableEntry, { t, timeZone }: AuditExportSettings, format: DisplayFormat): string[] {
  const text = escapeCsvCell;
  return [
    entry.at.toISOString(),
    wallTime(entry.at, timeZone),
    text(entry.personName),
    text(auditKindWord(t, entry.kind)),
    text(auditActionWord(t, entry.action)),
    text(entry.subject ?? ""),
    text(describeAuditSide(entry, "before", t, format)),
    text(describeAuditSide(entry, "after", t, format)),
    text(describeAuditEntry(entry, t, format)),
  ];
}

function unparse(rows: string[][], locale: Locale): string {
  return Papa.unparse(rows, { delimiter: CSV_DIALECTS[locale].delimiter, newline: "\r\n" }) + "\r\n";
}

/** Titles go through the formula rule too. */
export function auditExportHead({ locale, t }: AuditExportSettings): string {
  return CSV_DIALECTS[locale].bom + unparse([AUDIT_EXPORT_COLUMNS.map((column) => escapeCsvCell(t(`export.columns.${column}`)))], locale);
}

export function auditExportLines(entries: readonly ExportableEntry[], settings: AuditExportSettings): string {
  if (entries.length === 0) return "";
  const format = displayFormat({ locale: settings.locale, timeZone: settings.timeZone });
  return unparse(
    entries.map((entry) => auditExportRow(entry, settings, format)),
    settings.locale,
  );
}

/** In the first column, so a reader cannot miss that the file was cut. */
export function auditExportTruncatedLine(limit: number, settings: AuditExportSettings): string {
  return unparse([[escapeCsvCell(settings.t("export.truncated", { limit }))]], settings.locale);
}
