// The SKU feature's entry: the catalogue this dashboard keeps and the SKU form.
export { skuCatalogueSchema } from "./catalogue-filters";
export { skuToFormState } from "./sku-form";
export { emptySkuFormState } from "@/features/skus/empty-rows";
export type { SkuFormState } from "./sku-form-state";
export type { SkuPage } from "./sku-rows";
export { getSku, listSkus } from "./skus.server";
