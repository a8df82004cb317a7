export { skuCatalogueSchema } from "./catalogue-filters";
export { SkuCatalogueTable, SkuStatusBadge } from "./components/sku-catalogue-table";
export { SkuForm } from "./components/sku-form";
export { emptySkuFormState, skuToFormState } from "./sku-form";
export type { SkuFormState } from "./sku-form-state";
export type { SkuPage } from "./sku-rows";
export { getSku, listSkus } from "./skus.server";
