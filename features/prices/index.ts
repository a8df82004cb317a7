// The prices feature's entry: prices by product and one by one, the bulk upload, costs and margins,
// and the price guard. Client components of other features import ./client.ts instead.
export { costHistory, currentCosts, pricingSettings } from "./costs/product-costs.server";
export { signedPercent } from "./guard/guard-words";
export { COST_CURRENCY, COST_NORMALIZER, marginOf } from "./margin";
export { pricesSchema } from "./price-filters";
export { PRODUCT_PAGE_SIZES, readPriceProductsQuery } from "./price-products-query";
export type { PriceProductsQuery } from "./price-products-query";
export { listPriceProducts } from "./price-products.server";
export { toPricePoint } from "./price-rows";
export { getPriceForShop, listPricesForShop } from "./prices.server";
