// The SKU feature's entry: the catalogue this dashboard keeps and the SKU form.
export { skuCatalogueSchema } from "./catalogue-filters";
export { listSkus } from "./skus.server";
