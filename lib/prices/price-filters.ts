// The prices table's state in the page URL and in /api/prices, declared once
// (lib/tables/table-params.ts), and its platform query (spec: 7. List prices: filters `sku` and
// `type`, sortable field `created_at`).
import { z } from "zod";
import { pricesQuery } from "@/lib/marketplace/list-query";
import { priceTypeSchema } from "@/lib/marketplace/schemas/price";
import { defineTableParams, selectFilter, textFilter } from "@/lib/tables/table-params";
import type { StateOf } from "@/lib/tables/table-params";

export const pricesTable = defineTableParams({
  filters: {
    sku: textFilter("SKU code", z.string().trim().min(1).max(50), { mono: true }),
    type: selectFilter("Type", priceTypeSchema.options),
  },
  sorts: ["created_at:desc", "created_at:asc"],
  sizes: [25, 50, 100],
});

export type PriceFilters = StateOf<typeof pricesTable>;

export function toPlatformPricesQuery(filters: PriceFilters): URLSearchParams {
  return pricesQuery({
    limit: filters.size,
    offset: (filters.page - 1) * filters.size,
    sort: { field: "created_at", direction: filters.sort === "created_at:asc" ? "asc" : "desc" },
    ...(filters.sku ? { sku: filters.sku } : {}),
    ...(filters.type ? { type: filters.type } : {}),
  });
}
