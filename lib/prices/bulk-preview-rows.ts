// What a bulk price preview is made of: each row against the current price. Plain module (types
// only): the browser's bulk pages hold previews; lib/prices/bulk-preview.ts builds them on the server.
import type { BulkPriceRow, InvalidBulkPriceRow } from "./bulk-csv";

export interface CurrentPrice {
  id: string;
  value: number;
  currency: string;
  normalizer: number;
}

export type PreviewRow =
  | (BulkPriceRow & { kind: "changed" | "unchanged"; current: CurrentPrice })
  /** No current price for this SKU and type: the platform creates one (or rejects an unknown SKU). */
  | (BulkPriceRow & { kind: "new"; current: null })
  | (InvalidBulkPriceRow & { kind: "invalid" });

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
}
