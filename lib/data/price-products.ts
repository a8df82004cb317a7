import "server-only";
import { withPlatform } from "@/lib/data/platform";
import type { PlatformResult } from "@/lib/data/platform";
import { listEveryPrice } from "@/lib/data/prices";
import type { CurrentSeller } from "@/lib/data/sellers";
import { groupPricesByProduct } from "@/lib/prices/price-products";
import type { PriceProductsPage } from "@/lib/prices/price-products";
import type { PriceProductsQuery } from "@/lib/prices/price-products-query";

/**
 * At most 50 pages of 200 prices (5,000 products with both prices) are read per view: the
 * platform lists prices, not products, so the view reads them all and pairs them (the same cap as
 * the bulk upload's preview). Beyond it the page says so (`complete: false`).
 */
export const PRODUCTS_MAX_PAGES = 50;

/** One page of the seller's products, each with its list and sell price (spec: 7. List prices). */
export async function listPriceProducts(seller: CurrentSeller, query: PriceProductsQuery): Promise<PlatformResult<PriceProductsPage>> {
  const listed = await withPlatform(seller, "listPrices", (client) => listEveryPrice(client, PRODUCTS_MAX_PAGES));
  if (!listed.ok) return listed;
  const needle = query.search?.toLocaleLowerCase("pt-BR");
  const products = groupPricesByProduct(listed.data.prices).filter((product) => !needle || product.sku.toLocaleLowerCase("pt-BR").includes(needle));
  const start = (query.page - 1) * query.size;
  return {
    ok: true,
    data: { rows: products.slice(start, start + query.size), page: query.page, size: query.size, total: products.length, complete: listed.data.complete },
  };
}
