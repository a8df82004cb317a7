// What a bulk price preview is made of: each row against the current price. Plain module (types
// only): the browser's bulk pages hold previews; lib/prices/bulk-preview.ts builds them on the server.
import type { BulkPriceRow, InvalidBulkPriceRow } from "./bulk-csv";
import type { GuardReason } from "./price-guard";

export interface CurrentPrice {
  id: string;
  value: number;
  currency: string;
  normalizer: number;
}

/** Why the price guard holds a row (./price-guard.ts); absent or empty when it may be sent. */
interface Guarded {
  held?: GuardReason[];
}

export type PreviewRow =
  | (BulkPriceRow & Guarded & { kind: "changed" | "unchanged"; current: CurrentPrice })
  /** No current price for this SKU and type: the platform creates one (or rejects an unknown SKU). */
  | (BulkPriceRow & Guarded & { kind: "new"; current: null })
  | (InvalidBulkPriceRow & { kind: "invalid" });

/** Whether the price guard holds the row until its product is confirmed. */
export const isHeld = (row: PreviewRow): boolean => row.kind !== "invalid" && (row.held?.length ?? 0) > 0;

export interface BulkPreview {
  /** Every row of the file, by line. */
  rows: PreviewRow[];
  counts: Record<PreviewRow["kind"], number>;
  /** The names of the rows' SKUs that the catalogue or orders gave (lib/data/product-names.ts). */
  names: Record<string, string>;
  /** False when the page cap stopped the price listing early. */
  complete: boolean;
  pricesSeen: number;
  /** Where the rows came from: an uploaded file (the default) or a percent change of prices by product. */
  source?: "csv" | "percent";
  /** Products (SKU codes) whose held rows the seller confirmed before applying. */
  confirmed?: string[];
}
