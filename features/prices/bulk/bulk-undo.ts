// Undoing a bulk run: what it set, read back from its audit entries, and whether each price can go
// back. Pure, so the rules are tested without a platform; bulk-undo.server.ts reads and sends.
import type { PriceType } from "@marketplace/api/schemas/price";
import type { PriceAmount } from "../margin";
import type { ChangeProblem, PlannedChange } from "../price-products";
import type { BulkPreview } from "./bulk-preview-rows";

/** What a bulk run did to one price. */
export interface RunChange {
  sku: string;
  type: PriceType;
  /** What the platform held just before the run first sent it; null when it had no price. */
  before: PriceAmount | null;
  /** What the run set (the last it sent, if a batch was sent again). */
  after: PriceAmount;
}

/** A run's price.set entry, as read from the log. */
export interface RunEntry {
  sku: string;
  type: PriceType;
  before: PriceAmount | null;
  after: PriceAmount;
}

export type UndoSkip = "undoChangedSince" | "undoAlreadyBack" | "undoNoPrevious";

export type UndoStep = { send: PriceAmount } | { skip: UndoSkip };

export const undoKey = (sku: string, type: string) => `${sku}\u0000${type}`;

const same = (a: PriceAmount, b: PriceAmount) => a.value === b.value && a.currency === b.currency && a.normalizer === b.normalizer;

/**
 * One change per SKU and type, in the order they were first set. A batch sent again (its answer
 * was lost) records a second entry whose "before" is the run's own price, so the first entry's
 * "before" is the one to go back to.
 */
export function foldRunEntries(entries: readonly RunEntry[]): RunChange[] {
  const changes = new Map<string, RunChange>();
  for (const entry of entries) {
    const key = undoKey(entry.sku, entry.type);
    const known = changes.get(key);
    changes.set(key, known ? { ...known, after: entry.after } : { ...entry });
  }
  return [...changes.values()];
}

/**
 * Goes back only from the price the run left: a price changed since (by the seller, another
 * person or another tool) is newer than the run and is kept, and one already back is not sent
 * again, so undoing twice sends nothing the second time. A price the run created has nothing to
 * go back to: the platform cannot remove a price (spec: SKU and price immutability).
 */
export function undoStep(change: RunChange, current: PriceAmount | null): UndoStep {
  if (!change.before) return { skip: "undoNoPrevious" };
  if (current && same(current, change.before)) return { skip: "undoAlreadyBack" };
  if (!current || !same(current, change.after)) return { skip: "undoChangedSince" };
  return { send: change.before };
}

/** A row of an undo's batch: what the browser asks to send. */
interface UndoRow {
  sku: string;
  type: PriceType;
  value: number;
  currency: string;
  normalizer: number;
}

export interface UndoGate {
  /** Null when the row is what undoing the run sends for that price; else why it is not sent. */
  refuse(row: UndoRow): "undoNotInRun" | null;
  /** Judged on the prices read just before sending, so a price changed since the preview is kept too. */
  skip(row: UndoRow, current: { list: PriceAmount | null; sell: PriceAmount | null }): UndoSkip | null;
}

/** The server's check of an undo's rows: the browser names them, the run's entries say what they may be. */
export function undoGate(changes: readonly RunChange[]): UndoGate {
  const byKey = new Map(changes.map((change) => [undoKey(change.sku, change.type), change]));
  return {
    refuse(row) {
      const change = byKey.get(undoKey(row.sku, row.type));
      return change?.before && same(change.before, row) ? null : "undoNotInRun";
    },
    skip(row, current) {
      const change = byKey.get(undoKey(row.sku, row.type));
      if (!change) return "undoNoPrevious";
      const step = undoStep(change, current[row.type]);
      return "skip" in step ? step.skip : null;
    },
  };
}

const UNDO_PROBLEMS: Record<UndoSkip, ChangeProblem> = {
  undoChangedSince: "changed_since",
  undoAlreadyBack: "already_back",
  undoNoPrevious: "no_previous",
};

const isUndoSkip = (code: string): code is UndoSkip => Object.hasOwn(UNDO_PROBLEMS, code);

/** An undo's preview as the change panel shows a plan: each price now → back, or why it stays. */
export function undoPlanOf(preview: BulkPreview): PlannedChange[] {
  return preview.rows.flatMap((row): PlannedChange[] => {
    if (row.kind === "invalid") {
      if (row.type !== "list" && row.type !== "sell") return [];
      const problem = isUndoSkip(row.reason.code) ? UNDO_PROBLEMS[row.reason.code] : "changed_since";
      return [{ sku: row.sku, type: row.type, kind: "invalid", current: row.kept ?? null, problem }];
    }
    const { sku, type, value, currency, normalizer, amount, held } = row;
    const base = { sku, type, value, currency, normalizer, amount, ...(held?.length ? { held } : {}) };
    return [row.kind === "new" ? { ...base, kind: "new", current: null } : { ...base, kind: row.kind, current: row.current }];
  });
}
