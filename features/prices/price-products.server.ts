import "server-only";
import { withPlatform } from "@/lib/platform/platform.server";
import type { PlatformResult } from "@/lib/platform/platform.server";
import { listEveryPrice } from "@/features/prices/prices.server";
import { currentCosts } from "@/features/prices/costs/product-costs.server";
import { productNamesFor } from "@/lib/catalogue/product-names.server";
import type { CurrentShop } from "@/lib/shops/shops.server";
import { groupPricesByProduct, searchProducts } from "@/features/prices/price-products";
import type { PriceProduct, PriceProductsPage } from "@/features/prices/price-products";
import type { PriceProductsQuery } from "@/features/prices/price-products-query";

/** The platform lists prices, not products, so a view reads them all; past this cap it says `complete: false`. */
export const PRODUCTS_MAX_PAGES = 50;

export async function listPriceProducts(shop: CurrentShop, query: PriceProductsQuery): Promise<PlatformResult<PriceProductsPage>> {
  const listed = await withPlatform(shop, "listPrices", (client) => listEveryPrice(client, PRODUCTS_MAX_PAGES));
  if (!listed.ok) return listed;
  const grouped = groupPricesByProduct(listed.data.prices);
  const start = (query.page - 1) * query.size;
  // A search reads every product's name; a page without one, only its own products' names.
  const named = async (products: readonly PriceProduct[]) => {
    const names = await productNamesFor(
      shop.id,
      products.map((product) => product.sku),
    );
    return products.map((product) => ({ ...product, name: names.get(product.sku) ?? null }));
  };
  const products = query.search ? searchProducts(await named(grouped), query.search) : grouped;
  const page = products.slice(start, start + query.size);
  const [rows, costs] = await Promise.all([
    query.search ? page : named(page),
    currentCosts(
      shop.id,
      page.map((product) => product.sku),
    ),
  ]);
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
