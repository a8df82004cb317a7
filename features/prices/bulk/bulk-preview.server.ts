import "server-only";
// So the seller sees what will change before anything is sent.
import { withPlatform } from "@/lib/platform/platform.server";
import { listEveryPrice } from "@/features/prices/prices.server";
import { priceGuardContext } from "@/features/prices/costs/product-costs.server";
import type { PriceGuardContext } from "@/features/prices/costs/product-costs.server";
import { productNamesFor } from "@/lib/catalogue/product-names.server";
import type { PlatformResult } from "@/lib/platform/platform.server";
import type { CurrentShop } from "@/lib/shops/shops.server";
import type { Price, PriceType } from "@marketplace/api/schemas/price";
import { convertAmount } from "./bulk-csv";
import type { BulkPriceRow, InvalidBulkPriceRow } from "./bulk-csv";
import type { BulkPreview, CurrentPrice, PreviewRow } from "./bulk-preview-rows";
import { judgePrice } from "../guard/price-guard";
import type { GuardProduct } from "../guard/price-guard";

export type { BulkPreview, CurrentPrice, PreviewRow };

/**
 * Bounds a preview's time: two prices for each of 5,000 SKUs at 200 a page. Beyond it, unseen prices
 * show as new, which the platform treats the same way (a price is set, not edited).
 */
export const PREVIEW_MAX_PAGES = 50;

const keyOf = (sku: string, type: PriceType) => `${sku}\u0000${type}`;

/** A changed row takes the current price's normalizer, keeping its precision, or is `invalid`. */
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
    const held = judgePrice(product, row, guard.limitPercent, guard.rateBps);
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
        out.push({
          line: row.line,
          sku: row.sku,
          type: row.type,
          value: row.amount,
          currency: row.currency,
          reason: converted.reason,
          kind: "invalid",
        });
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

export async function previewBulkPrices(
  shop: CurrentShop,
  parsed: { rows: readonly BulkPriceRow[]; invalid: readonly InvalidBulkPriceRow[] },
): Promise<PlatformResult<BulkPreview>> {
  const listed = await withPlatform(shop, "listPrices", (client) => listEveryPrice(client, PREVIEW_MAX_PAGES));
  if (!listed.ok) return listed;
  const guard = await priceGuardContext(
    shop.id,
    parsed.rows.map((row) => row.sku),
  );
  const rows = classifyRows(parsed.rows, parsed.invalid, listed.data.prices, guard);
  const names = await productNamesFor(
    shop.id,
    rows.map((row) => row.sku),
  );
  return {
    ok: true,
    data: {
      rows,
      counts: countKinds(rows),
      names: Object.fromEntries(names),
      complete: listed.data.complete,
      pricesSeen: listed.data.prices.length,
    },
  };
}
