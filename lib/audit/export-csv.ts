// The audit log's CSV, in the orders export's dialect (lib/orders/export-csv.ts: `;`, BOM and
// comma decimals in pt-BR, `,` in English) and with its formula rule on every text cell: a SKU
// code, a person's name or a URL typed by someone is written as text, never run as a formula.
// Column titles come from the catalogue (audit.export.columns). Pure: the route handler streams
// what this writes, page by page.
import Papa from "papaparse";
import type { Locale } from "@/i18n/config";
import { auditActionWord, auditKindWord, describeAuditEntry, describeAuditSide } from "@/lib/audit/describe";
import type { AuditWords, DescribableEntry } from "@/lib/audit/describe";
import { escapeCsvCell } from "@/lib/csv/escape-cell";
import { displayFormat } from "@/lib/format";
import type { DisplayFormat } from "@/lib/format";
import { CSV_DIALECTS } from "@/lib/orders/export-csv";

export const AUDIT_EXPORT_COLUMNS = ["whenUtc", "whenLocal", "person", "kind", "action", "subject", "before", "after", "description"] as const;
export type AuditExportColumn = (typeof AUDIT_EXPORT_COLUMNS)[number];

/** An entry as the export writes it. */
export interface ExportableEntry extends DescribableEntry {
  at: Date;
  personName: string;
  kind: string;
}

/** How one export is written: the request's language, the shop's zone and the catalogue's `audit` words. */
export interface AuditExportSettings {
  locale: Locale;
  timeZone: string;
  t: AuditWords;
}

const wallClocks = new Map<string, Intl.DateTimeFormat>();

/** `2026-11-22 23:30:05` in `timeZone`: sortable, the same in both languages (as the orders export's dates, with seconds). */
function wallTime(at: Date, timeZone: string): string {
  let clock = wallClocks.get(timeZone);
  if (!clock) {
    clock = new Intl.DateTimeFormat("en-CA", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" });
    wallClocks.set(timeZone, clock);
  }
  const parts = Object.fromEntries(clock.formatToParts(at).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/** One entry's cells. Every text cell goes through the formula rule; the two dates are the dashboard's own. */
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

/** The byte-order mark and the header line, titles in the file's language (through the formula rule too). */
export function auditExportHead({ locale, t }: AuditExportSettings): string {
  return CSV_DIALECTS[locale].bom + unparse([AUDIT_EXPORT_COLUMNS.map((column) => escapeCsvCell(t(`export.columns.${column}`)))], locale);
}

/** A page of entries as CSV lines, each ending with CRLF. */
export function auditExportLines(entries: readonly ExportableEntry[], settings: AuditExportSettings): string {
  if (entries.length === 0) return "";
  const format = displayFormat({ locale: settings.locale, timeZone: settings.timeZone });
  return unparse(
    entries.map((entry) => auditExportRow(entry, settings, format)),
    settings.locale,
  );
}

/** The last line of a file cut at `limit` entries: says so, in the first column, so a reader cannot miss it. */
export function auditExportTruncatedLine(limit: number, settings: AuditExportSettings): string {
  return unparse([[escapeCsvCell(settings.t("export.truncated", { limit }))]], settings.locale);
}
