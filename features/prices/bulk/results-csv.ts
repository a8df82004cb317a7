// The results file of a bulk run, written in the browser: a line per uploaded row and what became of it.
import Papa from "papaparse";
import { escapeCsvCell } from "@/lib/csv/escape-cell";

/** "skipped": an undo's row left as it is (its price changed since the run). */
export const BULK_RESULT_OUTCOMES = ["applied", "unchanged", "rejected", "failed", "held", "skipped", "invalid", "not_sent"] as const;
export type BulkResultOutcome = (typeof BULK_RESULT_OUTCOMES)[number];

export interface BulkResultLine {
  line: number;
  sku: string;
  type: string;
  value: string;
  currency: string;
  outcome: BulkResultOutcome;
  message: string;
  priceId: string | null;
}

export const BULK_RESULT_COLUMNS = ["line", "sku", "type", "value", "currency", "outcome", "message", "price_id"] as const;

/** Header and outcomes stay English whatever the language, as a program may read the file. */
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
