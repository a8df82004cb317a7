// The bulk price CSV: reading the seller's upload (`sku,type,value,currency`, amounts in currency
// units) into rows the platform's price create accepts (spec: Resources → Price; Endpoint 5), and
// writing the per-row results back out. Pure and free of Next/server imports: the server parses,
// the browser builds the results file. What is wrong with a file or a row is a code
// (./bulk-messages.ts), worded in the seller's language where it is shown.
import Papa from "papaparse";
import { escapeCsvCell } from "@/lib/csv/escape-cell";
import { parseMoneyInput } from "@/lib/money";
import { priceTypeSchema } from "@/lib/marketplace/schemas/price";
import type { PriceType } from "@/lib/marketplace/schemas/price";
import type { BulkMessage } from "./bulk-messages";
import { ISO_4217_CODES } from "@/lib/marketplace/schemas/common";

export const BULK_CSV_COLUMNS = ["sku", "type", "value", "currency"] as const;
export type BulkCsvColumn = (typeof BULK_CSV_COLUMNS)[number];

/**
 * Spec: Limits → "Price normalizer default 100". Rows are converted with it when parsed; the
 * preview converts again with the current price's normalizer when that SKU and type already
 * have a price with another one (see `convertAmount`), so "12.345" stays exact for a price kept
 * in thousandths.
 */
export const DEFAULT_NORMALIZER = 100;

/**
 * Limits of the bulk page, shared by the browser (checked before upload) and the server actions
 * (checked again). 1 MB is decimal on purpose: Next.js refuses server action bodies over 1 MiB
 * by default, and the multipart envelope needs the difference. `maxRows` counts the lines after
 * the header, blank ones too (`parseBulkPriceCsv`). 25 rows a batch keep each request short (one
 * create per row) while the page still shows steady progress.
 */
export const BULK_LIMITS = { maxFileBytes: 1_000_000, maxRows: 5_000, maxBatchRows: 25 } as const;

/** Spec: SKU table → `code` 1 to 50 characters; a price names its SKU by that code. */
export const MAX_SKU_LENGTH = 50;

/** A row that can be sent to endpoint 5 once its normalizer is settled. */
export interface BulkPriceRow {
  /** Physical line in the file (the header is line 1), so the seller can find it. */
  line: number;
  sku: string;
  type: PriceType;
  /** The amount in currency units, canonical ("12.34", "7", "0.5"): the decimal comma is read as a point. */
  amount: string;
  currency: string;
  /** `amount` × `normalizer`, exact. */
  value: number;
  normalizer: number;
}

/** A row that will not be sent, with the cells as the seller wrote them and why. */
export interface InvalidBulkPriceRow {
  line: number;
  sku: string;
  type: string;
  value: string;
  currency: string;
  reason: BulkMessage;
}

export type BulkCsvParseResult =
  | { ok: true; rows: BulkPriceRow[]; invalid: InvalidBulkPriceRow[]; delimiter: "," | ";" }
  | { ok: false; error: BulkMessage };

export interface ParseBulkCsvOptions {
  /**
   * Physical lines after the header, blank ones included, above which the whole file is refused.
   * Reading stops at the first line past it, so a file of blank lines costs no more than one of rows.
   */
  maxRows?: number;
}

// Every ISO-4217 code the runtime knows (Node 20: 160+). The spec only says "ISO-4217 code";
// an unknown one would be refused by Intl when the dashboard formats the price anyway.
/** The platform's list (the shared schema's), not Intl's, which differs between runtimes and keeps withdrawn codes. */
const KNOWN_CURRENCIES: ReadonlySet<string> = new Set(ISO_4217_CODES);

/** "12.34", "12,34", "12", ".5" → canonical "12.34"; no grouping, sign or symbol. */
const AMOUNT_PATTERN = /^(\d*)(?:[.,](\d*))?$/;

/**
 * `amount` (canonical, from `BulkPriceRow.amount`) as an integer value for `normalizer`, exactly
 * (lib/money: no floating point). Refuses decimals the normalizer cannot represent.
 */
export function convertAmount(
  amount: string,
  currency: string,
  normalizer: number,
): { ok: true; value: number } | { ok: false; reason: BulkMessage } {
  const result = parseMoneyInput(amount, { currency, normalizer }, "en-US");
  if (result.ok) return result;
  if (result.reason === "too_precise") return { ok: false, reason: { code: "tooPrecise", amount, normalizer: String(normalizer) } };
  if (result.reason === "too_large") return { ok: false, reason: { code: "tooLarge", amount } };
  return { ok: false, reason: { code: "notAnAmount", amount } };
}

/**
 * A cell read as an amount in currency units, canonical ("12.34", "7", "0.5"): `.` or `,` as the
 * decimal separator, no thousands separators, sign or symbol. Shared by the price and cost files.
 */
export function readAmount(text: string): { ok: true; amount: string } | { ok: false; reason: BulkMessage } {
  if (text === "") return { ok: false, reason: { code: "valueEmpty" } };
  if (text.startsWith("-")) return { ok: false, reason: { code: "valueNegative", value: text } };
  const match = AMOUNT_PATTERN.exec(text);
  const whole = match?.[1] ?? "";
  const fraction = match?.[2] ?? "";
  if (!match || (whole === "" && fraction === "")) {
    return { ok: false, reason: { code: "valueUnreadable", quoted: JSON.stringify(text) } };
  }
  const integer = whole.replace(/^0+(?=\d)/, "") || "0";
  const decimals = fraction.replace(/0+$/, "");
  return { ok: true, amount: decimals === "" ? integer : `${integer}.${decimals}` };
}

function detectDelimiter(headerLine: string): "," | ";" {
  // Spreadsheets in decimal-comma locales (pt-BR among them) save "CSV" with semicolons.
  return headerLine.includes(";") && !headerLine.includes(",") ? ";" : ",";
}

function isBlank(fields: readonly string[]): boolean {
  return fields.every((field) => field.trim() === "");
}

/** A record of the file that is kept: the header, then every row that is not blank. */
export interface CsvRecord {
  fields: string[];
  /** Physical line of the record's first character. */
  line: number;
  /** At or after an unclosed quote, which swallows the rest of the file into one field. */
  afterUnclosedQuote: boolean;
}

/** What is wrong with a file as a whole: its header, its size. */
export type CsvTableError = Extract<BulkMessage, { code: "fileEmpty" | "headerMissing" | "headerLacks" | "headerTwice" | "tooManyRows" | "tooManyLines" | "noRows" }>;
/** What is wrong with a row's shape, before its cells are read. */
export type CsvShapeProblem = Extract<BulkMessage, { code: "unclosedQuote" | "missingColumns" | "extraColumnsDecimalComma" | "extraColumns" }>;

/** A file's rows under its header, with each column found by name. */
export interface CsvTable<C extends string> {
  rows: CsvRecord[];
  delimiter: "," | ";";
  /** A row's trimmed cell of `column` ("" when the row is short). */
  cell(record: CsvRecord, column: C): string;
  /** Why the row cannot be read as a row of this file (a quote, a column too few or too many), or null. */
  shapeProblem(record: CsvRecord): CsvShapeProblem | null;
}

/**
 * Reads a CSV file with a header row into records, for the price and cost uploads alike. The
 * header's columns may come in any order and letter case, under their name or one of `aliases`;
 * other columns are ignored. A UTF-8 BOM, CRLF (or CR) line ends, quoted fields and blank lines
 * are accepted. The delimiter is `,`, or `;` when the header uses only semicolons.
 *
 * `maxRows` limits physical lines, not rows: the file is refused when a record starts after line
 * `maxRows + 1` (the header is line 1), blank lines counted; the line end closing the last line
 * starts none. Counting rows would mean reading every blank line first, a million records in a
 * 1 MB file; stopping at the limit bounds what one upload builds to `maxRows + 2` records. The
 * header's errors come first, then the limit's (`tooManyRows` when every line read was a row,
 * else `tooManyLines`), then "no rows".
 */
export function readCsvTable<C extends string>(
  text: string,
  columns: readonly C[],
  options: ParseBulkCsvOptions & { aliases?: Partial<Record<C, readonly string[]>> } = {},
): { ok: true; table: CsvTable<C> } | { ok: false; error: CsvTableError } {
  const content = text.startsWith("\uFEFF") ? text.slice(1) : text;
  if (content.trim() === "") return { ok: false, error: { code: "fileEmpty" } };

  // The first line end is the file's. Given to papaparse, it also spares its guess, which splits
  // up to 1 MB of the text into arrays.
  const newline = (/\r\n|\n|\r/.exec(content)?.[0] ?? "\n") as "\r\n" | "\n" | "\r";
  const headerEnd = content.indexOf(newline);
  const delimiter = detectDelimiter(headerEnd === -1 ? content : content.slice(0, headerEnd));
  const lineEnd = newline === "\r" ? "\r" : "\n";
  const lastLine = options.maxRows === undefined ? Number.POSITIVE_INFINITY : options.maxRows + 1;

  let newlinesBefore = 0;
  let counted = 0;
  /** The physical line `offset` is on; offsets must not go back. */
  const lineAt = (offset: number): number => {
    for (; counted < offset; counted++) if (content[counted] === lineEnd) newlinesBefore++;
    return newlinesBefore + 1;
  };

  const records: CsvRecord[] = [];
  // Where the next record starts: papaparse reports the cursor after each record, past its line end.
  let cursor = 0;
  let afterUnclosedQuote = false;
  let blankSeen = false;
  let refusal: CsvTableError | undefined;
  Papa.parse<string[]>(content, {
    delimiter,
    newline,
    // Papaparse's fast mode (taken when the file has no quote) splits the whole text into lines
    // before the first step: a million strings for 1 MB of blank lines, whatever the limit.
    fastMode: false,
    step: (result, parser) => {
      const start = cursor;
      cursor = result.meta.cursor;
      // A file ending with a line end gets one more, empty record from papaparse: no line of its own.
      if (start >= content.length) return;
      const blank = isBlank(result.data);
      if (lineAt(start) > lastLine) {
        // "Rows" only when every line up to here was one: otherwise blank lines are to blame.
        refusal = { code: blankSeen || blank ? "tooManyLines" : "tooManyRows", max: lastLine - 1 };
        parser.abort();
        return;
      }
      afterUnclosedQuote ||= result.errors.some((error) => error.type === "Quotes");
      if (blank && records.length > 0) {
        blankSeen = true;
        return;
      }
      // A row's line is where its text starts, past a stray line end of another style (a lone LF in
      // a CRLF file) that papaparse left at the start of the record.
      let at = start;
      while (content[at] === "\r" || content[at] === "\n") at++;
      records.push({ fields: result.data, line: lineAt(at), afterUnclosedQuote });
    },
  });

  const header = records[0];
  if (!header) return { ok: false, error: { code: "fileEmpty" } };
  const names = header.fields.map((field) => field.trim().toLowerCase());
  const namesOf = (column: C) => [column, ...(options.aliases?.[column] ?? [])];
  const positions = (column: C) => names.flatMap((name, position) => (namesOf(column).includes(name) ? [position] : []));
  const missing = columns.filter((column) => positions(column).length === 0);
  if (missing.length === columns.length) return { ok: false, error: { code: "headerMissing" } };
  if (missing.length > 0) return { ok: false, error: { code: "headerLacks", columns: missing.join(", "), count: missing.length } };
  const duplicateColumn = columns.find((column) => positions(column).length > 1);
  if (duplicateColumn) return { ok: false, error: { code: "headerTwice", column: duplicateColumn } };
  const index = Object.fromEntries(columns.map((column) => [column, positions(column)[0]!])) as Record<C, number>;
  const width = names.length;
  if (refusal) return { ok: false, error: refusal };
  if (records.length === 1) return { ok: false, error: { code: "noRows" } };

  return {
    ok: true,
    table: {
      rows: records.slice(1),
      delimiter,
      cell: (record, column) => (record.fields[index[column]] ?? "").trim(),
      shapeProblem(record) {
        if (record.afterUnclosedQuote) return { code: "unclosedQuote" };
        if (record.fields.length < width) {
          const absent = columns.filter((column) => index[column] >= record.fields.length);
          return { code: "missingColumns", columns: absent.join(", "), count: absent.length };
        }
        if (record.fields.length > width) {
          return { code: delimiter === "," && /\d,\d/.test(record.fields.join(",")) ? "extraColumnsDecimalComma" : "extraColumns" };
        }
        return null;
      },
    },
  };
}

/**
 * Parses the uploaded price file (see `readCsvTable` for the file itself and its limits). Per row:
 * - `sku`: 1 to 50 characters;
 * - `type`: `list` or `sell` (any case);
 * - `value`: currency units with `.` or `,` as decimal separator, no thousands separators
 *   ("1.234" is 1.234, never 1234: a CSV has no locale to tell);
 * - `currency`: a known ISO-4217 code (any case, stored upper-case);
 * - the same `sku` + `type` twice: the first row counts, the later ones are invalid (the platform
 *   keeps one price per SKU and type, so sending both would keep whichever came last).
 */
export function parseBulkPriceCsv(text: string, options: ParseBulkCsvOptions = {}): BulkCsvParseResult {
  const read = readCsvTable(text, BULK_CSV_COLUMNS, options);
  if (!read.ok) return read;
  const { table } = read;
  const { delimiter } = table;

  const rows: BulkPriceRow[] = [];
  const invalid: InvalidBulkPriceRow[] = [];
  const firstLineOf = new Map<string, number>();

  for (const record of table.rows) {
    const { line } = record;
    const cell = (column: BulkCsvColumn) => table.cell(record, column);
    const cells = { sku: cell("sku"), type: cell("type"), value: cell("value"), currency: cell("currency") };
    const reject = (reason: BulkMessage) => invalid.push({ line, ...cells, reason });

    const shape = table.shapeProblem(record);
    if (shape) {
      reject(shape);
      continue;
    }
    if (cells.sku === "") {
      reject({ code: "skuEmpty" });
      continue;
    }
    if (cells.sku.length > MAX_SKU_LENGTH) {
      reject({ code: "skuTooLong", max: MAX_SKU_LENGTH });
      continue;
    }
    const type = priceTypeSchema.safeParse(cells.type.toLowerCase());
    if (!type.success) {
      reject(cells.type === "" ? { code: "typeEmpty" } : { code: "typeUnknown", quoted: JSON.stringify(cells.type) });
      continue;
    }
    const amount = readAmount(cells.value);
    if (!amount.ok) {
      reject(amount.reason);
      continue;
    }
    const currency = cells.currency.toUpperCase();
    if (currency === "") {
      reject({ code: "currencyEmpty" });
      continue;
    }
    if (!KNOWN_CURRENCIES.has(currency)) {
      reject({ code: "currencyUnknown", quoted: JSON.stringify(cells.currency) });
      continue;
    }
    const converted = convertAmount(amount.amount, currency, DEFAULT_NORMALIZER);
    if (!converted.ok) {
      reject(converted.reason);
      continue;
    }
    const key = `${cells.sku}\u0000${type.data}`;
    const first = firstLineOf.get(key);
    if (first !== undefined) {
      reject({ code: "duplicate", first: String(first), type: type.data, sku: cells.sku });
      continue;
    }
    firstLineOf.set(key, line);
    rows.push({ line, sku: cells.sku, type: type.data, amount: amount.amount, currency, value: converted.value, normalizer: DEFAULT_NORMALIZER });
  }

  return { ok: true, rows, invalid, delimiter };
}

// ---------------------------------------------------------------------------------------------
// Results file

export const BULK_RESULT_OUTCOMES = ["applied", "unchanged", "rejected", "failed", "held", "invalid", "not_sent"] as const;
export type BulkResultOutcome = (typeof BULK_RESULT_OUTCOMES)[number];

export interface BulkResultLine {
  line: number;
  sku: string;
  type: string;
  /** In currency units, as shown to the seller. */
  value: string;
  currency: string;
  outcome: BulkResultOutcome;
  message: string;
  priceId: string | null;
}

export const BULK_RESULT_COLUMNS = ["line", "sku", "type", "value", "currency", "outcome", "message", "price_id"] as const;

/**
 * The results file: one line per row of the upload, sorted by line, CRLF (RFC 4180). The header
 * and the outcomes are fixed English words whatever the page's language (a program may read the
 * file); the messages are the caller's, already worded for the seller. Every cell the seller or the
 * platform wrote goes through the dashboard's one formula rule (lib/csv/escape-cell.ts); a value
 * the parser read as an amount never starts like a formula, so it stays a number.
 */
export function buildResultsCsv(lines: readonly BulkResultLine[]): string {
  const sorted = [...lines].sort((a, b) => a.line - b.line);
  return Papa.unparse(
    {
      fields: [...BULK_RESULT_COLUMNS],
      data: sorted.map((entry) => [
        String(entry.line),
        escapeCsvCell(entry.sku),
        escapeCsvCell(entry.type),
        escapeCsvCell(entry.value),
        escapeCsvCell(entry.currency),
        entry.outcome,
        escapeCsvCell(entry.message),
        escapeCsvCell(entry.priceId ?? ""),
      ]),
    },
    { newline: "\r\n", quotes: false },
  );
}
