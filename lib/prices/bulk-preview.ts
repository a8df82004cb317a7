import "server-only";
// The preview of a bulk price upload: each parsed row against the seller's current price for the
// same SKU and type (spec: 7. List prices), so the seller sees what will change before anything
// is sent.
import { withPlatform } from "@/lib/data/platform";
import { listEveryPrice } from "@/lib/data/prices";
import { priceGuardContext } from "@/lib/data/product-costs";
import type { PriceGuardContext } from "@/lib/data/product-costs";
import { productNamesFor } from "@/lib/data/product-names";
import type { PlatformResult } from "@/lib/data/platform";
import type { CurrentSeller } from "@/lib/data/sellers";
import type { Price, PriceType } from "@/lib/marketplace/schemas/price";
import { convertAmount } from "./bulk-csv";
import type { BulkPriceRow, InvalidBulkPriceRow } from "./bulk-csv";
import type { BulkPreview, CurrentPrice, PreviewRow } from "./bulk-preview-rows";
import { guardReasons } from "./price-guard";
import type { GuardProduct } from "./price-guard";

export type { BulkPreview, CurrentPrice, PreviewRow };

/**
 * At most 50 pages (10,000 prices at 200 a page, two per SKU for 5,000 SKUs): bounds the time a
 * preview can take. Beyond it the preview says so (`complete: false`): rows whose price was not
 * seen are shown as new prices, which the platform treats the same way (a price is set, not edited).
 */
export const PREVIEW_MAX_PAGES = 50;

const keyOf = (sku: string, type: PriceType) => `${sku}\u0000${type}`;

/**
 * Classifies rows against current prices:
 * - a current price with the same value, currency and normalizer → `unchanged` (not sent);
 * - otherwise → `changed`, converted with the current price's normalizer (the default 100
 *   otherwise; spec: Limits), so amounts keep the precision the price already has; an amount
 *   that normalizer cannot hold exactly becomes `invalid`;
 * - no current price → `new` (the SKU may exist without this price type; if it does not exist
 *   at all the platform rejects the row when applied, and the results say so).
 * With `guard`, a changed or new row the price guard holds (below the code's cost, or a move
 * beyond the shop's limit from the current price) carries its reasons in `held`.
 */
export function classifyRows(
  rows: readonly BulkPriceRow[],
  invalid: readonly InvalidBulkPriceRow[],
  prices: readonly Price[],
  guard?: PriceGuardContext,
): PreviewRow[] {
  const current = new Map<string, Price>();
  for (const price of prices) current.set(keyOf(price.sku, price.type), price);
  const judge = (row: BulkPriceRow) => {
    if (!guard) return {};
    const now = (type: PriceType) => {
      const price = current.get(keyOf(row.sku, type));
      return price ? { value: price.value, currency: price.currency, normalizer: price.normalizer } : null;
    };
    const product: GuardProduct = { current: { list: now("list"), sell: now("sell") }, cost: guard.costs.get(row.sku) ?? null };
    const held = guardReasons(product, row, guard.limitPercent);
    return held.length > 0 ? { held } : {};
  };

  const out: PreviewRow[] = invalid.map((row) => ({ ...row, kind: "invalid" as const }));
  for (const row of rows) {
    const price = current.get(keyOf(row.sku, row.type));
    if (!price) {
      out.push({ ...row, ...judge(row), kind: "new", current: null });
      continue;
    }
    const currentPrice: CurrentPrice = { id: price.id, value: price.value, currency: price.currency, normalizer: price.normalizer };
    let candidate = row;
    if (price.normalizer !== row.normalizer) {
      const converted = convertAmount(row.amount, row.currency, price.normalizer);
      if (!converted.ok) {
        out.push({ line: row.line, sku: row.sku, type: row.type, value: row.amount, currency: row.currency, reason: converted.reason, kind: "invalid" });
        continue;
      }
      candidate = { ...row, value: converted.value, normalizer: price.normalizer };
    }
    const same = candidate.value === price.value && candidate.currency === price.currency && candidate.normalizer === price.normalizer;
    out.push({ ...candidate, ...(same ? {} : judge(candidate)), kind: same ? "unchanged" : "changed", current: currentPrice });
  }
  return out.sort((a, b) => a.line - b.line);
}

export function countKinds(rows: readonly PreviewRow[]): BulkPreview["counts"] {
  const counts = { changed: 0, unchanged: 0, new: 0, invalid: 0 };
  for (const row of rows) counts[row.kind]++;
  return counts;
}

/** The preview of parsed rows, with the seller's current prices read through the platform. */
export async function previewBulkPrices(
  seller: CurrentSeller,
  parsed: { rows: readonly BulkPriceRow[]; invalid: readonly InvalidBulkPriceRow[] },
): Promise<PlatformResult<BulkPreview>> {
  const listed = await withPlatform(seller, "listPrices", (client) => listEveryPrice(client, PREVIEW_MAX_PAGES));
  if (!listed.ok) return listed;
  const guard = await priceGuardContext(seller.id, parsed.rows.map((row) => row.sku));
  const rows = classifyRows(parsed.rows, parsed.invalid, listed.data.prices, guard);
  const names = await productNamesFor(seller.id, rows.map((row) => row.sku));
  return {
    ok: true,
    data: { rows, counts: countKinds(rows), names: Object.fromEntries(names), complete: listed.data.complete, pricesSeen: listed.data.prices.length },
  };
}
