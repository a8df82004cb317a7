// Read like the price file (bulk-csv.ts), since the same spreadsheets make both. Costs are reais,
// kept in centavos; problems are codes, worded where shown.
import type { useTranslations } from "next-intl";
import { BULK_LIMITS, MAX_SKU_LENGTH, convertAmount, readAmount, readCsvTable } from "../bulk/bulk-csv";
import type { CsvShapeProblem, CsvTableError, ParseBulkCsvOptions } from "../bulk/bulk-csv";
import { COST_CURRENCY, COST_NORMALIZER } from "../margin";

export const COST_CSV_COLUMNS = ["sku", "cost"] as const;
const COST_CSV_ALIASES = { sku: ["code", "codigo", "código"], cost: ["custo"] } as const;

export const COST_CSV_LIMITS = { maxFileBytes: BULK_LIMITS.maxFileBytes, maxRows: BULK_LIMITS.maxRows } as const;

/** R$ 20.000.000,00: fits the integer column of centavos. */
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
  | { code: "duplicate"; first: string; sku: string };

export type CostCsvWords = ReturnType<typeof useTranslations<"prices.costs.messages">>;

export function describeCostMessage(message: CostCsvMessage, t: CostCsvWords): string {
  const { code, ...values } = message;
  return t(code, values);
}

export interface CostCsvRow {
  line: number;
  sku: string;
  /** Canonical reais ("12.5"). */
  amount: string;
  /** Centavos. */
  cost: number;
}

export interface InvalidCostCsvRow {
  line: number;
  sku: string;
  cost: string;
  reason: CostCsvMessage;
}

export type CostCsvParseResult = { ok: true; rows: CostCsvRow[]; invalid: InvalidCostCsvRow[] } | { ok: false; error: CostCsvMessage };

/** An empty cost is an error, not a removal: a blank cell left by a spreadsheet must not wipe a cost. */
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
      reject(
        converted.reason.code === "tooPrecise"
          ? { code: "costTooPrecise", amount: amount.amount }
          : { code: "costTooLarge", amount: amount.amount },
      );
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

export type CostPreviewRow =
  | (CostCsvRow & { kind: "changed"; current: number })
  | (CostCsvRow & { kind: "unchanged"; current: number })
  | (CostCsvRow & { kind: "new"; current: null })
  | (InvalidCostCsvRow & { kind: "invalid" });

export interface CostPreview {
  rows: CostPreviewRow[];
  counts: Record<CostPreviewRow["kind"], number>;
  names: Record<string, string>;
}

export function classifyCostRows(
  parsed: { rows: readonly CostCsvRow[]; invalid: readonly InvalidCostCsvRow[] },
  current: ReadonlyMap<string, number>,
): Pick<CostPreview, "rows" | "counts"> {
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
