// Spec: 7. List prices filters by `sku` and `type` and sorts by `created_at` only.
import { PRICE_TYPES } from "@marketplace/api/values";
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
