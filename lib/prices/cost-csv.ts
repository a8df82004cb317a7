// The cost CSV (issue 29): one cost per SKU code, `sku;cost` (or `code;cost`, `código;custo`), in
// the same Brazilian-Excel-friendly form as the price file (lib/prices/bulk-csv.ts: `;` or `,`,
// a decimal comma, a BOM, quoted fields, blank lines). Costs are in reais and kept in centavos
// (prisma/schema.prisma ProductCost). What is wrong is a code, worded where it is shown
// (messages/<locale>/prices.json `costs.messages`). Plain module: server and browser.
import type { useTranslations } from "next-intl";
import { BULK_LIMITS, MAX_SKU_LENGTH, convertAmount, readAmount, readCsvTable } from "./bulk-csv";
import type { CsvShapeProblem, CsvTableError, ParseBulkCsvOptions } from "./bulk-csv";
import { COST_CURRENCY, COST_NORMALIZER } from "./margin";

export const COST_CSV_COLUMNS = ["sku", "cost"] as const;
/** Other header names a seller may use, Portuguese ones among them. */
const COST_CSV_ALIASES = { sku: ["code", "codigo", "código"], cost: ["custo"] } as const;

/** The file's limits: the price file's (the same spreadsheets make both). */
export const COST_CSV_LIMITS = { maxFileBytes: BULK_LIMITS.maxFileBytes, maxRows: BULK_LIMITS.maxRows } as const;

/** The largest cost kept (an integer column of centavos): R$ 20.000.000,00. */
export const MAX_COST_CENTAVOS = 2_000_000_000;

export type CostCsvMessage =
  | CsvTableError
  | CsvShapeProblem
  | { code: "skuEmpty" }
  | { code: "skuTooLong"; max: number }
  | { code: "costEmpty" }
  | { code: "costNegative"; value: string }
  | { code: "costUnreadable"; quoted: string }
  | { code: "costTooPrecise"; amount: string }
  | { code: "costTooLarge"; amount: string }
  /** `first`: the line that counts, as digits. */
  | { code: "duplicate"; first: string; sku: string };

/** `useTranslations("prices.costs.messages")` or its server twin. */
export type CostCsvWords = ReturnType<typeof useTranslations<"prices.costs.messages">>;

export function describeCostMessage(message: CostCsvMessage, t: CostCsvWords): string {
  const { code, ...values } = message;
  return t(code, values);
}

export interface CostCsvRow {
  line: number;
  sku: string;
  /** Canonical reais ("12.5"), as shown back to the seller. */
  amount: string;
  /** In centavos. */
  cost: number;
}

export interface InvalidCostCsvRow {
  line: number;
  sku: string;
  /** The cell as written. */
  cost: string;
  reason: CostCsvMessage;
}

export type CostCsvParseResult = { ok: true; rows: CostCsvRow[]; invalid: InvalidCostCsvRow[] } | { ok: false; error: CostCsvMessage };

/**
 * Reads the cost file: a header naming the code and cost columns (any order and case; other
 * columns ignored), then one code and cost a row. A cost is reais with `.` or `,` for decimals, at
 * most two decimals, no thousands separators ("1.234" is R$ 1,234, as in the price file). A code
 * twice: the first row counts. An empty cost is an error, not a removal: a blank cell left by a
 * spreadsheet must not wipe a cost (a cost is removed on the product itself).
 */
export function parseCostCsv(text: string, options: ParseBulkCsvOptions = {}): CostCsvParseResult {
  const read = readCsvTable(text, COST_CSV_COLUMNS, { ...options, aliases: COST_CSV_ALIASES });
  if (!read.ok) return read;
  const { table } = read;
  const rows: CostCsvRow[] = [];
  const invalid: InvalidCostCsvRow[] = [];
  const firstLineOf = new Map<string, number>();
  for (const record of table.rows) {
    const { line } = record;
    const sku = table.cell(record, "sku");
    const cell = table.cell(record, "cost");
    const reject = (reason: CostCsvMessage) => invalid.push({ line, sku, cost: cell, reason });
    const shape = table.shapeProblem(record);
    if (shape) {
      reject(shape);
      continue;
    }
    if (sku === "") {
      reject({ code: "skuEmpty" });
      continue;
    }
    if (sku.length > MAX_SKU_LENGTH) {
      reject({ code: "skuTooLong", max: MAX_SKU_LENGTH });
      continue;
    }
    const amount = readAmount(cell);
    if (!amount.ok) {
      const reason = amount.reason;
      reject(
        reason.code === "valueEmpty"
          ? { code: "costEmpty" }
          : reason.code === "valueNegative"
            ? { code: "costNegative", value: cell }
            : { code: "costUnreadable", quoted: JSON.stringify(cell) },
      );
      continue;
    }
    const converted = convertAmount(amount.amount, COST_CURRENCY, COST_NORMALIZER);
    if (!converted.ok) {
      reject(converted.reason.code === "tooPrecise" ? { code: "costTooPrecise", amount: amount.amount } : { code: "costTooLarge", amount: amount.amount });
      continue;
    }
    if (converted.value > MAX_COST_CENTAVOS) {
      reject({ code: "costTooLarge", amount: amount.amount });
      continue;
    }
    const first = firstLineOf.get(sku);
    if (first !== undefined) {
      reject({ code: "duplicate", first: String(first), sku });
      continue;
    }
    firstLineOf.set(sku, line);
    rows.push({ line, sku, amount: amount.amount, cost: converted.value });
  }
  return { ok: true, rows, invalid };
}

/** A row of the cost preview: against the code's current cost. */
export type CostPreviewRow =
  | (CostCsvRow & { kind: "changed"; current: number })
  | (CostCsvRow & { kind: "unchanged"; current: number })
  | (CostCsvRow & { kind: "new"; current: null })
  | (InvalidCostCsvRow & { kind: "invalid" });

export interface CostPreview {
  /** Every row of the file, by line. */
  rows: CostPreviewRow[];
  counts: Record<CostPreviewRow["kind"], number>;
  /** Names of the codes that the catalogue or orders gave. */
  names: Record<string, string>;
}

/** Each row against the current costs (centavos by code): new, changed, unchanged; invalid ones as they are. */
export function classifyCostRows(parsed: { rows: readonly CostCsvRow[]; invalid: readonly InvalidCostCsvRow[] }, current: ReadonlyMap<string, number>): Pick<CostPreview, "rows" | "counts"> {
  const rows: CostPreviewRow[] = [
    ...parsed.invalid.map((row) => ({ ...row, kind: "invalid" as const })),
    ...parsed.rows.map((row): CostPreviewRow => {
      const now = current.get(row.sku);
      if (now === undefined) return { ...row, kind: "new", current: null };
      return { ...row, kind: now === row.cost ? "unchanged" : "changed", current: now };
    }),
  ].sort((a, b) => a.line - b.line);
  const counts = { changed: 0, unchanged: 0, new: 0, invalid: 0 };
  for (const row of rows) counts[row.kind]++;
  return { rows, counts };
}
