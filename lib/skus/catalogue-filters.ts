// The SKU catalogue's search and paging, as they appear in the page URL and the /api/skus query.
// One schema for the page, the route handler and the table (STYLE: table state in the URL).
import { z } from "zod";

export const SKU_PAGE_SIZES = [25, 50, 100] as const;
const DEFAULT_SIZE = 25;

const emptyToUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);

export const skuCatalogueFiltersSchema = z.object({
  /** Part of a code or of the pt_BR title. */
  search: z.preprocess(emptyToUndefined, z.string().trim().min(1).max(150).optional()),
  page: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(1_000_000).default(1)),
  size: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number()
      .refine((value) => (SKU_PAGE_SIZES as readonly number[]).includes(value), "must be 25, 50 or 100")
      .default(DEFAULT_SIZE),
  ),
});

export type SkuCatalogueFilters = z.infer<typeof skuCatalogueFiltersSchema>;

export function skuCatalogueFiltersFromSearchParams(params: URLSearchParams) {
  return skuCatalogueFiltersSchema.safeParse(Object.fromEntries(params));
}

/** The URL form of the state, without defaults, so links stay short and stable. */
export function skuCatalogueFiltersToSearchParams(filters: SkuCatalogueFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.search) params.set("search", filters.search);
  if (filters.page > 1) params.set("page", String(filters.page));
  if (filters.size !== DEFAULT_SIZE) params.set("size", String(filters.size));
  return params;
}
