import "server-only";
import { withPlatform } from "@/lib/data/platform";
import type { PlatformResult } from "@/lib/data/platform";
import type { CurrentSeller } from "@/lib/data/sellers";
import type { PriceCreate, PriceCreateResponse, PriceWithHistory } from "@/lib/marketplace/schemas/price";
import { toPlatformPricesQuery } from "@/lib/prices/price-filters";
import type { PriceFilters } from "@/lib/prices/price-filters";
import { toPriceRow } from "@/lib/prices/price-rows";
import type { PricesPage } from "@/lib/prices/price-rows";


export async function listPricesForSeller(seller: CurrentSeller, filters: PriceFilters): Promise<PlatformResult<PricesPage>> {
  const result = await withPlatform(seller, "listPrices", (client) => client.listPrices(toPlatformPricesQuery(filters)));
  if (!result.ok) return result;
  const page = result.data;
  return {
    ok: true,
    data: { rows: page.items.map(toPriceRow), page: filters.page, size: filters.size, total: page.total ?? null, hasNext: page.next !== null },
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
