// The prices feature's entry: prices by product and one by one, the bulk upload, costs and margins,
// and the price guard. Client components of other features import ./client.ts instead.
export { currentCosts, pricingSettings } from "./costs/product-costs.server";
export { countPricesBelowCost } from "./guard/below-cost.server";
export { commissionOf } from "./margin";
export { pricesSchema } from "./price-filters";
export { listPricesForShop } from "./prices.server";
