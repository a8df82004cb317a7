import "server-only";
import { withPlatform } from "@/lib/data/platform";
import type { PlatformResult } from "@/lib/data/platform";
import { listEveryPrice } from "@/lib/data/prices";
import { currentCosts } from "@/lib/data/product-costs";
import { productNamesFor } from "@/lib/data/product-names";
import type { CurrentSeller } from "@/lib/data/sellers";
import { groupPricesByProduct, searchProducts } from "@/lib/prices/price-products";
import type { PriceProduct, PriceProductsPage } from "@/lib/prices/price-products";
import type { PriceProductsQuery } from "@/lib/prices/price-products-query";

/**
 * At most 50 pages of 200 prices (5,000 products with both prices) are read per view: the
 * platform lists prices, not products, so the view reads them all and pairs them (the same cap as
 * the bulk upload's preview). Beyond it the page says so (`complete: false`).
 */
export const PRODUCTS_MAX_PAGES = 50;

/**
 * One page of the seller's products, each with its name, its list and sell price (spec: 7. List
 * prices) and its cost; the search finds a product by its code or its name.
 */
export async function listPriceProducts(seller: CurrentSeller, query: PriceProductsQuery): Promise<PlatformResult<PriceProductsPage>> {
  const listed = await withPlatform(seller, "listPrices", (client) => listEveryPrice(client, PRODUCTS_MAX_PAGES));
  if (!listed.ok) return listed;
  const grouped = groupPricesByProduct(listed.data.prices);
  const start = (query.page - 1) * query.size;
  // A search reads every product's name; a page without one, only its own products' names.
  const named = async (products: readonly PriceProduct[]) => {
    const names = await productNamesFor(seller.id, products.map((product) => product.sku));
    return products.map((product) => ({ ...product, name: names.get(product.sku) ?? null }));
  };
  const products = query.search ? searchProducts(await named(grouped), query.search) : grouped;
  const page = products.slice(start, start + query.size);
  const [rows, costs] = await Promise.all([query.search ? page : named(page), currentCosts(seller.id, page.map((product) => product.sku))]);
  return {
    ok: true,
    data: {
      rows: rows.map((product) => ({ ...product, cost: costs.get(product.sku) ?? null })),
      page: query.page,
      size: query.size,
      total: products.length,
      complete: listed.data.complete,
    },
  };
}
