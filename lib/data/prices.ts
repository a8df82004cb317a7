import "server-only";
import { db } from "@/lib/db";
import { withPlatform } from "@/lib/data/platform";
import type { PlatformResult } from "@/lib/data/platform";
import { productNamesFor } from "@/lib/data/product-names";
import type { CurrentSeller } from "@/lib/data/sellers";
import type { MarketplaceClient } from "@/lib/marketplace/client";
import { pricesQuery } from "@/lib/marketplace/list-query";
import type { Price, PriceCreate, PriceType, PriceCreateResponse, PriceWithHistory } from "@/lib/marketplace/schemas/price";
import { toPlatformPricesQuery } from "@/lib/prices/price-filters";
import type { PriceFilters } from "@/lib/prices/price-filters";
import { toPriceRow } from "@/lib/prices/price-rows";
import type { PricesPage } from "@/lib/prices/price-rows";

/** One page of the seller's prices (spec: 7. List prices), each with its product's name when known. */
export async function listPricesForSeller(seller: CurrentSeller, filters: PriceFilters): Promise<PlatformResult<PricesPage>> {
  const result = await withPlatform(seller, "listPrices", (client) => client.listPrices(toPlatformPricesQuery(filters)));
  if (!result.ok) return result;
  const page = result.data;
  const names = await productNamesFor(seller.id, page.items.map((price) => price.sku));
  return {
    ok: true,
    data: {
      rows: page.items.map((price) => toPriceRow(price, names.get(price.sku) ?? null)),
      page: filters.page,
      size: filters.size,
      total: page.total ?? null,
      hasNext: page.next !== null,
    },
  };
}

/** A price with its history; null when the platform does not know it for this seller. */
export async function getPriceForSeller(seller: CurrentSeller, id: string): Promise<PlatformResult<PriceWithHistory | null>> {
  const result = await withPlatform(seller, "getPrice", (client) => client.getPrice(id));
  if (!result.ok && result.problem.kind === "error" && result.problem.status === 404) return { ok: true, data: null };
  return result;
}

/** Endpoint 5: a new price for the SKU and type (prices are never edited in place). */
export async function createPriceForSeller(seller: CurrentSeller, price: PriceCreate): Promise<PlatformResult<PriceCreateResponse>> {
  return withPlatform(seller, "createPrice", (client) => client.createPrice(price));
}

/**
 * Spec, Limits: `max_limit` is reported per response; "a demonstration of the rules assumes
 * default 50 and maximum 200". We ask for 200 and follow whatever page size comes back.
 */
export const EVERY_PRICE_PAGE_SIZE = 200;

/**
 * Every price of the seller, page by page, up to `maxPages` (`complete: false` when that cap
 * stopped it): the platform lists prices, not products, so a view by SKU (a bulk preview, the
 * prices by product) reads them all and groups them itself.
 */
export async function listEveryPrice(client: MarketplaceClient, maxPages: number): Promise<{ prices: Price[]; complete: boolean }> {
  const prices: Price[] = [];
  let offset = 0;
  for (let page = 0; page < maxPages; page++) {
    // Oldest first, so the pages do not move under us as the seller's other tabs set prices: a
    // price set meanwhile moves to the end (its created_at is renewed) and is read there, with
    // its new value winning where they are grouped. The shift may hide one other price at a page
    // boundary; such views are advisory (applying sets the price whatever they saw).
    const result = await client.listPrices(pricesQuery({ limit: EVERY_PRICE_PAGE_SIZE, offset, sort: { field: "created_at", direction: "asc" } }));
    prices.push(...result.items);
    if (result.next === null || result.items.length === 0) return { prices, complete: true };
    offset = result.next.offset;
  }
  return { prices, complete: false };
}

/** A price as the audit log's "before" and "after" record it (a type, not an interface: it is stored as JSON). */
export type KnownPrice = { type: string; value: number; currency: string; normalizer: number };

/** The key of a SKU and price type in lastKnownPrices' answer. */
export const priceKey = (sku: string, type: string) => `${sku}\u0000${type}`;

/** The prices the dashboard last saw (the price mirror) for these SKUs and types, in one query, by priceKey. */
export async function lastKnownPrices(sellerId: string, rows: readonly { sku: string; type: string }[]): Promise<Map<string, KnownPrice>> {
  const found = new Map<string, KnownPrice>();
  if (rows.length === 0) return found;
  const mirrored = await db.priceMirror.findMany({
    where: { sellerId, sku: { in: [...new Set(rows.map((row) => row.sku))] } },
    orderBy: { syncedAt: "asc" },
    select: { sku: true, type: true, value: true, currency: true, normalizer: true },
  });
  for (const price of mirrored) found.set(priceKey(price.sku, price.type), { type: price.type, value: price.value, currency: price.currency, normalizer: price.normalizer });
  return found;
}

/**
 * The price a SKU and type have now, for the audit log's "before" of a single change: asked of the
 * platform (the newest price of that SKU and type), else the last one the mirror saw.
 */
export async function currentPrice(seller: CurrentSeller, sku: string, type: PriceType): Promise<KnownPrice | null> {
  const listed = await withPlatform(seller, "listPrices", (client) =>
    client.listPrices(pricesQuery({ sku, type, limit: 1, sort: { field: "created_at", direction: "desc" } })),
  );
  const newest = listed.ok ? listed.data.items[0] : undefined;
  if (newest) return { type: newest.type, value: newest.value, currency: newest.currency, normalizer: newest.normalizer };
  return (await lastKnownPrices(seller.id, [{ sku, type }])).get(priceKey(sku, type)) ?? null;
}
