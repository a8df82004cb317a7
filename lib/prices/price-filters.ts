// The prices table's state in the page URL and in /api/prices (spec: 7. List prices: filters
// `sku` and `type`, sortable field `created_at`).
import { z } from "zod";
import { pricesQuery } from "@/lib/marketplace/list-query";
import { priceTypeSchema } from "@/lib/marketplace/schemas/price";

export const PRICE_PAGE_SIZES = [25, 50, 100] as const;
export const PRICE_SORTS = ["created_at:desc", "created_at:asc"] as const;

const emptyToUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);

export const priceFiltersSchema = z.object({
  sku: z.preprocess(emptyToUndefined, z.string().trim().min(1).max(50).optional()),
  type: z.preprocess(emptyToUndefined, priceTypeSchema.optional()),
  sort: z.preprocess(emptyToUndefined, z.enum(PRICE_SORTS).default("created_at:desc")),
  page: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(1_000_000).default(1)),
  size: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number()
      .refine((value) => (PRICE_PAGE_SIZES as readonly number[]).includes(value), "must be 25, 50 or 100")
      .default(25),
  ),
});

export type PriceFilters = z.infer<typeof priceFiltersSchema>;

export function priceFiltersFromSearchParams(params: URLSearchParams) {
  return priceFiltersSchema.safeParse(Object.fromEntries(params));
}

export function priceFiltersToSearchParams(filters: PriceFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.sku) params.set("sku", filters.sku);
  if (filters.type) params.set("type", filters.type);
  if (filters.sort !== "created_at:desc") params.set("sort", filters.sort);
  if (filters.page > 1) params.set("page", String(filters.page));
  if (filters.size !== 25) params.set("size", String(filters.size));
  return params;
}

export function toPlatformPricesQuery(filters: PriceFilters): URLSearchParams {
  return pricesQuery({
    limit: filters.size,
    offset: (filters.page - 1) * filters.size,
    sort: { field: "created_at", direction: filters.sort === "created_at:asc" ? "asc" : "desc" },
    ...(filters.sku ? { sku: filters.sku } : {}),
    ...(filters.type ? { type: filters.type } : {}),
  });
}
