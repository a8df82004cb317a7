// The prices feature's components for the app's pages (docs/decisions/0017-feature-slices.md): kept
// apart from ./index.ts so that route handlers and background work importing the feature load no React.
export { CommissionRateForm } from "./costs/components/commission-rate-form";
export { PriceGuardForm } from "./guard/components/price-guard-form";
export { PricesPage, pricesPageMetadata } from "./components/prices-page";
export { PricePage, pricePageMetadata } from "./components/price-page";
export { PriceProductsPage, priceProductsPageMetadata } from "./components/price-products-page";
export { BulkPricesPage, bulkPricesPageMetadata } from "./bulk/components/bulk-prices-page";
export { CostsPage, costsPageMetadata } from "./costs/components/costs-page";
