// Server side of the SKU catalogue: its URL schema.
import { skuCatalogueTable } from "@/features/skus/catalogue-params";
import { tableSchema } from "@/lib/tables/table-schema";

export { skuCatalogueTable };
export type { SkuCatalogueFilters } from "@/features/skus/catalogue-params";

export const skuCatalogueSchema = tableSchema(skuCatalogueTable);
