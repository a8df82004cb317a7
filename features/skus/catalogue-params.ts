// Newest first, always.
import { defineTableParams, textFilter } from "@/lib/tables/table-params";
import type { StateOf } from "@/lib/tables/table-params";

export const skuCatalogueTable = defineTableParams({
  filters: {
    /** Part of a code or of the pt_BR title. */
    search: textFilter("skus.filters.search", { max: 150 }),
  },
  sizes: [25, 50, 100],
});

export type SkuCatalogueFilters = StateOf<typeof skuCatalogueTable>;
