// The SKU catalogue's URL, validated (the page and /api/skus). Declared in catalogue-params.ts.
import { skuCatalogueTable } from "@/lib/skus/catalogue-params";
import { tableSchema } from "@/lib/tables/table-schema";

export { skuCatalogueTable };
export type { SkuCatalogueFilters } from "@/lib/skus/catalogue-params";

export const skuCatalogueSchema = tableSchema(skuCatalogueTable);
