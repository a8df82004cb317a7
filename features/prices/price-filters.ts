// Server side of the prices table: its URL schema and platform query (spec: 7. List prices).
import { pricesQuery } from "@marketplace/api/list-query";
import { pricesTable } from "@/features/prices/price-params";
import type { PriceFilters } from "@/features/prices/price-params";
import { tableSchema } from "@/lib/tables/table-schema";

export { pricesTable };
export type { PriceFilters };

export const pricesSchema = tableSchema(pricesTable);

export function toPlatformPricesQuery(filters: PriceFilters): URLSearchParams {
  return pricesQuery({
    limit: filters.size,
    offset: (filters.page - 1) * filters.size,
    sort: { field: "created_at", direction: filters.sort === "created_at:asc" ? "asc" : "desc" },
    ...(filters.sku ? { sku: filters.sku } : {}),
    ...(filters.type ? { type: filters.type } : {}),
  });
}
