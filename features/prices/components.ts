// The prices feature's components for the app's pages (docs/decisions/0017-feature-slices.md): kept
// apart from ./index.ts so that route handlers and background work importing the feature load no React.
export { BulkPriceUpload } from "./bulk/components/bulk-price-upload";
export { EditPriceForm } from "./components/edit-price-form";
export { PriceHistoryChart } from "./components/price-history-chart";
export { PriceProductsTable } from "./components/price-products-table";
export { PricesTable } from "./components/prices-table";
export { PricesTabs } from "./components/prices-tabs";
export { CommissionRateForm } from "./costs/components/commission-rate-form";
export { CostCell } from "./costs/components/cost-cell";
export { CostCsvUpload } from "./costs/components/cost-csv-upload";
export { PriceGuardForm } from "./guard/components/price-guard-form";
