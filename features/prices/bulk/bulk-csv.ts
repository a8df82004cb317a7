// Pure: the server parses uploads (the results file: ./results-csv.ts). Problems are codes
// (./bulk-messages.ts), worded where they are shown.
import Papa from "papaparse";
import { parseMoneyInput } from "@/lib/money";
import { priceTypeSchema } from "@marketplace/api/schemas/price";
import type { PriceType } from "@marketplace/api/schemas/price";
import type { BulkMessage } from "./bulk-messages";
import { ISO_4217_CODES } from "@marketplace/api/schemas/common";

export const BULK_CSV_COLUMNS = ["sku", "type", "value", "currency"] as const;
export type BulkCsvColumn = (typeof BULK_CSV_COLUMNS)[number];

/** Spec: Limits. The preview converts again to an existing price's normalizer, so thousandths stay exact. */
export const DEFAULT_NORMALIZER = 100;

/**
 * 1 MB, not MiB: Next refuses server action bodies over 1 MiB, and the multipart envelope needs the
 * difference. 25 rows a batch keep each request short while progress stays steady.
 */
export const BULK_LIMITS = { maxFileBytes: 1_000_000, maxRows: 5_000, maxBatchRows: 25 } as const;

/** Spec: SKU table, `code`. */
export const MAX_SKU_LENGTH = 50;

export interface BulkPriceRow {
  /** Physical line in the file (the header is line 1), so the seller can find it. */
  line: number;
  sku: string;
  type: PriceType;
  /** Canonical currency units ("12.34", "0.5"). */
  amount: string;
  currency: string;
  value: number;
  normalizer: number;
}

/** Cells as the seller wrote them. */
export interface InvalidBulkPriceRow {
  line: number;
  sku: string;
  type: string;
  value: string;
  currency: string;
  reason: BulkMessage;
}

export type BulkCsvParseResult =
  { ok: true; rows: BulkPriceRow[]; invalid: InvalidBulkPriceRow[]; delimiter: "," | ";" } | { ok: false; error: BulkMessage };

export interface ParseBulkCsvOptions {
  /** Physical lines after the header, blank ones included, above which the file is refused. */
  maxRows?: number;
}

/** The shared schema's list, not Intl's, which differs between runtimes and keeps withdrawn codes. */
const KNOWN_CURRENCIES: ReadonlySet<string> = new Set(ISO_4217_CODES);

const AMOUNT_PATTERN = /^(\d*)(?:[.,](\d*))?$/;

/** Refuses decimals the normalizer cannot represent. */
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

/** `.` or `,` as the decimal separator and no grouping: a CSV has no locale to tell "1.234" apart. */
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

export interface CsvRecord {
  fields: string[];
  line: number;
  /** An unclosed quote swallows the rest of the file into one field. */
  afterUnclosedQuote: boolean;
}

export type CsvTableError = Extract<
  BulkMessage,
  { code: "fileEmpty" | "headerMissing" | "headerLacks" | "headerTwice" | "tooManyRows" | "tooManyLines" | "noRows" }
>;
export type CsvShapeProblem = Extract<
  BulkMessage,
  { code: "unclosedQuote" | "missingColumns" | "extraColumnsDecimalComma" | "extraColumns" }
>;

export interface CsvTable<C extends string> {
  rows: CsvRecord[];
  delimiter: "," | ";";
  /** "" when the row is short. */
  cell(record: CsvRecord, column: C): string;
  shapeProblem(record: CsvRecord): CsvShapeProblem | null;
}

/**
 * Columns in any order and case, under their name or an alias; `;` when the header has only
 * semicolons. `maxRows` limits physical lines, not rows, so reading stops at the limit instead of
 * first building every blank line of a file.
 */
export function readCsvTable<C extends string>(
  text: string,
  columns: readonly C[],
  options: ParseBulkCsvOptions & { aliases?: Partial<Record<C, readonly string[]>> } = {},
): { ok: true; table: CsvTable<C> } | { ok: false; error: CsvTableError } {
  const content = text.startsWith("\uFEFF") ? text.slice(1) : text;
  if (content.trim() === "") return { ok: false, error: { code: "fileEmpty" } };

  // Given to papaparse, the file's first line end spares its guess, which splits the whole text.
  const newline = (/\r\n|\n|\r/.exec(content)?.[0] ?? "\n") as "\r\n" | "\n" | "\r";
  const headerEnd = content.indexOf(newline);
  const delimiter = detectDelimiter(headerEnd === -1 ? content : content.slice(0, headerEnd));
  const lineEnd = newline === "\r" ? "\r" : "\n";
  const lastLine = options.maxRows === undefined ? Number.POSITIVE_INFINITY : options.maxRows + 1;

  let newlinesBefore = 0;
  let counted = 0;
  /** Offsets must not go back. */
  const lineAt = (offset: number): number => {
    for (; counted < offset; counted++) if (content[counted] === lineEnd) newlinesBefore++;
    return newlinesBefore + 1;
  };

  const records: CsvRecord[] = [];
  let cursor = 0;
  let afterUnclosedQuote = false;
  let blankSeen = false;
  let refusal: CsvTableError | undefined;
  Papa.parse<string[]>(content, {
    delimiter,
    newline,
    // Fast mode splits the whole text into lines before the first step, whatever the limit.
    fastMode: false,
    step: (result, parser) => {
      const start = cursor;
      cursor = result.meta.cursor;
      // Papaparse adds an empty record after a final line end.
      if (start >= content.length) return;
      const blank = isBlank(result.data);
      if (lineAt(start) > lastLine) {
        // "Rows" only when no blank line is to blame.
        refusal = { code: blankSeen || blank ? "tooManyLines" : "tooManyRows", max: lastLine - 1 };
        parser.abort();
        return;
      }
      afterUnclosedQuote ||= result.errors.some((error) => error.type === "Quotes");
      if (blank && records.length > 0) {
        blankSeen = true;
        return;
      }
      // Past a stray line end of another style (a lone LF in a CRLF file) left at the record's start.
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

/** The same `sku` and `type` twice: the first row counts (the platform would keep whichever came last). */
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
    rows.push({
      line,
      sku: cells.sku,
      type: type.data,
      amount: amount.amount,
      currency,
      value: converted.value,
      normalizer: DEFAULT_NORMALIZER,
    });
  }

  return { ok: true, rows, invalid, delimiter };
}
