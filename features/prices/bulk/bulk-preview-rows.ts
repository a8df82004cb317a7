// Types only, so the browser's bulk pages can hold what bulk-preview.ts builds on the server.
import type { BulkPriceRow, InvalidBulkPriceRow } from "./bulk-csv";
import type { GuardReason } from "../guard/price-guard";

export interface CurrentPrice {
  id: string;
  value: number;
  currency: string;
  normalizer: number;
}

/** Absent or empty when the row may be sent. */
interface Guarded {
  held?: GuardReason[];
}

export type PreviewRow =
  | (BulkPriceRow & Guarded & { kind: "changed" | "unchanged"; current: CurrentPrice })
  /** The platform creates the price, or rejects an unknown SKU. */
  | (BulkPriceRow & Guarded & { kind: "new"; current: null })
  /** `kept`: an undo's row that stays as it is names the price it keeps. */
  | (InvalidBulkPriceRow & { kind: "invalid"; kept?: CurrentPrice });

export const isHeld = (row: PreviewRow): boolean => row.kind !== "invalid" && (row.held?.length ?? 0) > 0;

export interface BulkPreview {
  rows: PreviewRow[];
  counts: Record<PreviewRow["kind"], number>;
  names: Record<string, string>;
  /** False when the page cap stopped the price listing early. */
  complete: boolean;
  pricesSeen: number;
  /** Default "csv". "undo": sends back the prices the run `undoOf` replaced (bulk-undo.server.ts). */
  source?: "csv" | "percent" | "undo";
  undoOf?: string;
  /** The run's id, when the page chose it (to offer undoing it); else the tab's store picks one. */
  runId?: string;
  /** SKU codes whose held rows the seller confirmed. */
  confirmed?: string[];
}
