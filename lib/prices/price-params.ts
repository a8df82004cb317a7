// The prices table's filters, sorts and sizes (lib/tables/table-params.ts; spec: 7. List prices:
// filters `sku` and `type`, sortable field `created_at`). Its URL schema and platform query are
// in price-filters.ts.
import { PRICE_TYPES } from "@/lib/marketplace/values";
import { defineTableParams, selectFilter, textFilter } from "@/lib/tables/table-params";
import type { StateOf } from "@/lib/tables/table-params";

export const pricesTable = defineTableParams({
  filters: {
    sku: textFilter("prices.filters.sku", { max: 50, mono: true }),
    type: selectFilter("prices.filters.type", PRICE_TYPES, { optionLabels: "prices.types" }),
  },
  sorts: ["created_at:desc", "created_at:asc"],
  sizes: [25, 50, 100],
});

export type PriceFilters = StateOf<typeof pricesTable>;
