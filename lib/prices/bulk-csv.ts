// The bulk price CSV: reading the seller's upload (`sku,type,value,currency`, amounts in currency
// units) into rows the platform's price create accepts (spec: Resources → Price; Endpoint 5), and
// writing the per-row results back out. Pure and free of Next/server imports: the server parses,
// the browser builds the results file. What is wrong with a file or a row is a code
// (./bulk-messages.ts), worded in the seller's language where it is shown.
import Papa from "papaparse";
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
 * by default, and the multipart envelope needs the difference. 25 rows a batch keep each
 * request short (one create per row) while the page still shows steady progress.
 */
export const BULK_LIMITS = { maxFileBytes: 1_000_000, maxRows: 5_000, maxBatchRows: 25 } as const;

/** Spec: SKU table → `code` 1 to 50 characters; a price names its SKU by that code. */
const MAX_SKU_LENGTH = 50;

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
  /** Data rows (header excluded, blank lines not counted) above which the whole file is refused. */
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

function readAmount(text: string): { ok: true; amount: string } | { ok: false; reason: BulkMessage } {
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

/**
 * Parses the uploaded file. The header row is required; its columns may come in any order and
 * in any letter case; other columns are ignored. Cells are trimmed. Per row:
 * - `sku`: 1 to 50 characters;
 * - `type`: `list` or `sell` (any case);
 * - `value`: currency units with `.` or `,` as decimal separator, no thousands separators
 *   ("1.234" is 1.234, never 1234: a CSV has no locale to tell);
 * - `currency`: a known ISO-4217 code (any case, stored upper-case);
 * - the same `sku` + `type` twice: the first row counts, the later ones are invalid (the platform
 *   keeps one price per SKU and type, so sending both would keep whichever came last).
 * A UTF-8 BOM, CRLF line ends, quoted fields and blank lines are accepted. The delimiter is `,`,
 * or `;` when the header uses only semicolons.
 */
export function parseBulkPriceCsv(text: string, options: ParseBulkCsvOptions = {}): BulkCsvParseResult {
  const content = text.startsWith("\uFEFF") ? text.slice(1) : text;
  if (content.trim() === "") return { ok: false, error: { code: "fileEmpty" } };

  const firstLine = content.slice(0, content.search(/\r?\n|$/));
  const delimiter = detectDelimiter(firstLine);

  // Rows with the character offset they start at, so line numbers stay right when a quoted
  // field spans lines (papaparse reports the cursor after each row).
  const records: { fields: string[]; start: number }[] = [];
  let cursor = 0;
  // An unclosed quote swallows the rest of the file into one field; rows from there are refused.
  const unclosedQuote: { from?: number } = {};
  Papa.parse<string[]>(content, {
    delimiter,
    step: (result) => {
      if (unclosedQuote.from === undefined && result.errors.some((error) => error.type === "Quotes")) unclosedQuote.from = cursor;
      records.push({ fields: result.data, start: cursor });
      cursor = result.meta.cursor;
    },
  });

  let newlinesBefore = 0;
  let counted = 0;
  const lineAt = (start: number): number => {
    // Blank lines papaparse returned as rows of one empty field are skipped below; the offset
    // of a row is where its first character is, past any line ends.
    let at = start;
    while (content[at] === "\r" || content[at] === "\n") at++;
    for (; counted < at; counted++) if (content[counted] === "\n") newlinesBefore++;
    return newlinesBefore + 1;
  };

  const header = records[0];
  if (!header) return { ok: false, error: { code: "fileEmpty" } };
  const names = header.fields.map((field) => field.trim().toLowerCase());
  const missing = BULK_CSV_COLUMNS.filter((column) => !names.includes(column));
  if (missing.length === BULK_CSV_COLUMNS.length) return { ok: false, error: { code: "headerMissing" } };
  if (missing.length > 0) return { ok: false, error: { code: "headerLacks", columns: missing.join(", "), count: missing.length } };
  const duplicateColumn = BULK_CSV_COLUMNS.find((column) => names.indexOf(column) !== names.lastIndexOf(column));
  if (duplicateColumn) return { ok: false, error: { code: "headerTwice", column: duplicateColumn } };
  const index = Object.fromEntries(BULK_CSV_COLUMNS.map((column) => [column, names.indexOf(column)])) as Record<BulkCsvColumn, number>;
  const width = names.length;

  const rows: BulkPriceRow[] = [];
  const invalid: InvalidBulkPriceRow[] = [];
  const firstLineOf = new Map<string, number>();
  let dataRows = 0;

  for (const record of records.slice(1)) {
    if (isBlank(record.fields)) continue;
    dataRows++;
    if (options.maxRows !== undefined && dataRows > options.maxRows) {
      return { ok: false, error: { code: "tooManyRows", max: options.maxRows } };
    }
    const line = lineAt(record.start);
    const cell = (column: BulkCsvColumn) => (record.fields[index[column]] ?? "").trim();
    const cells = { sku: cell("sku"), type: cell("type"), value: cell("value"), currency: cell("currency") };
    const reject = (reason: BulkMessage) => invalid.push({ line, ...cells, reason });

    if (unclosedQuote.from !== undefined && record.start >= unclosedQuote.from) {
      reject({ code: "unclosedQuote" });
      continue;
    }
    if (record.fields.length < width) {
      const absent = BULK_CSV_COLUMNS.filter((column) => index[column] >= record.fields.length);
      reject({ code: "missingColumns", columns: absent.join(", "), count: absent.length });
      continue;
    }
    if (record.fields.length > width) {
      reject({ code: delimiter === "," && /\d,\d/.test(record.fields.join(",")) ? "extraColumnsDecimalComma" : "extraColumns" });
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

  if (dataRows === 0) return { ok: false, error: { code: "noRows" } };
  return { ok: true, rows, invalid, delimiter };
}

// ---------------------------------------------------------------------------------------------
// Results file

export const BULK_RESULT_OUTCOMES = ["applied", "unchanged", "rejected", "failed", "invalid", "not_sent"] as const;
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
 * OWASP "CSV injection": a spreadsheet runs a cell starting with = + - @ (or tab / CR) as a
 * formula. Text cells get a leading apostrophe, which spreadsheets show as plain text; numbers
 * (line, value) are left alone so they stay numbers.
 */
export function escapeCsvText(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/**
 * The results file: one line per row of the upload, sorted by line, CRLF (RFC 4180). The header
 * and the outcomes are fixed English words whatever the page's language (a program may read the
 * file); the messages are the caller's, already worded for the seller.
 */
export function buildResultsCsv(lines: readonly BulkResultLine[]): string {
  const sorted = [...lines].sort((a, b) => a.line - b.line);
  return Papa.unparse(
    {
      fields: [...BULK_RESULT_COLUMNS],
      data: sorted.map((entry) => [
        String(entry.line),
        escapeCsvText(entry.sku),
        escapeCsvText(entry.type),
        /^\d+(\.\d+)?$/.test(entry.value) ? entry.value : escapeCsvText(entry.value),
        escapeCsvText(entry.currency),
        entry.outcome,
        escapeCsvText(entry.message),
        escapeCsvText(entry.priceId ?? ""),
      ]),
    },
    { newline: "\r\n", quotes: false },
  );
}
