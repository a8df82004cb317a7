import "server-only";
import { everyPage, withPlatform } from "@/lib/platform/platform.server";
import type { ConnectedShop } from "@/lib/shops/shops.server";
import { DB_NOW, pool } from "@/lib/pg-pool.server";
import { pricesQuery } from "@marketplace/api/list-query";
import type { Price } from "@marketplace/api/schemas/price";
import { ReconcileError } from "@/features/webhooks/sync/reconcile-error";

// The price mirror learns of a price from its notification (endpoint 6), so a price set before the
// shop was connected, and never changed since, was missing from it: the digest's count of prices
// below cost (issue 41) would not see it. A shop's first run lists every price once; a shop whose
// run never did (SellerSync."pricesListedAt" null) does it on its next run, whatever its mode.

/**
 * A listed price never replaces a row its notification wrote: that row is at least as recent as the
 * connection. Rows written here are seen now; among several prices of one code and type the newest
 * id (ObjectIds begin with their time) is the current one.
 */
async function mirrorListedPrices(shopId: string, prices: readonly Price[]): Promise<void> {
  await pool.query({
    name: "price_mirror_fill",
    text: `
      INSERT INTO "PriceMirror" ("sellerId", "priceId", "sku", "type", "value", "currency", "normalizer", "syncedAt")
      SELECT $1, listed.id, listed.sku, listed.type, listed.value, listed.currency, listed.normalizer, ${DB_NOW}
      FROM json_to_recordset($2::json) AS listed(id text, sku text, type text, value int, currency text, normalizer int)
      ON CONFLICT ("sellerId", "priceId") DO NOTHING`,
    values: [
      shopId,
      JSON.stringify(prices.map(({ id, sku, type, value, currency, normalizer }) => ({ id, sku, type, value, currency, normalizer }))),
    ],
  });
}

/** Every price of the shop into the mirror, then the shop is marked listed. A platform refusal ends the run as reconciliation's do. */
export async function fillPriceMirror({ shop, accessToken }: ConnectedShop, signal: AbortSignal | undefined): Promise<number> {
  let listed = 0;
  const pages = everyPage(async (limit, offset) => {
    signal?.throwIfAborted();
    const result = await withPlatform(
      shop,
      "listPrices",
      (client) => client.listPrices(pricesQuery({ limit, offset, sort: { field: "created_at", direction: "asc" } })),
      { accessToken },
    );
    if (!result.ok) throw new ReconcileError(result.problem);
    return result.data;
  });
  for await (const prices of pages) {
    signal?.throwIfAborted();
    await mirrorListedPrices(shop.id, prices);
    listed += prices.length;
  }
  await pool.query({
    name: "seller_sync_prices_listed",
    text: `UPDATE "SellerSync" SET "pricesListedAt" = ${DB_NOW} WHERE "sellerId" = $1`,
    values: [shop.id],
  });
  return listed;
}
