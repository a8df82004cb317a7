// A bad value falls back to its default rather than failing the page: the URL is a bookmark.
import { z } from "zod";

export const PRODUCT_PAGE_SIZES = [25, 50, 100] as const;

export const priceProductsQuerySchema = z.object({
  search: z
    .string()
    .trim()
    .max(50)
    .optional()
    .catch(undefined)
    .transform((value) => value || undefined),
  page: z.coerce.number().int().min(1).max(10_000).catch(1).default(1),
  size: z.coerce
    .number()
    .refine((size) => (PRODUCT_PAGE_SIZES as readonly number[]).includes(size))
    .catch(25)
    .default(25),
});

export type PriceProductsQuery = z.infer<typeof priceProductsQuerySchema>;

export function readPriceProductsQuery(params: Record<string, string | string[] | undefined>): PriceProductsQuery {
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  return priceProductsQuerySchema.parse({ search: first(params.search), page: first(params.page), size: first(params.size) });
}
