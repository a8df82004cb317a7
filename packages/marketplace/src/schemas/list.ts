// The list envelope (spec: Generic list rules, point 5; Endpoints 7 and 9).
import { z } from "zod";

export const listOperatorSchema = z.enum(["eq", "like", "in", "gt", "gte", "lt", "lte"]);
export type ListOperator = z.infer<typeof listOperatorSchema>;

export const pageMetaSchema = z.object({
  limit: z.number().int(),
  offset: z.number().int(),
  count: z.number().int(),
  max_limit: z.number().int(),
});

/** Relative links (path and query string) carrying `_offset` and `_limit`; null at the ends. */
export const pageLinksSchema = z.object({
  previous: z.string().nullable(),
  self: z.string(),
  next: z.string().nullable(),
});

export const appliedFilterSchema = z.object({
  field: z.string(),
  operator: listOperatorSchema,
  value: z.union([z.string(), z.array(z.string())]),
});
export type AppliedFilter = z.infer<typeof appliedFilterSchema>;

export const appliedSortSchema = z.object({ field: z.string(), direction: z.enum(["asc", "desc"]) });
export type AppliedSort = z.infer<typeof appliedSortSchema>;

/** `links` is optional: the spec's price list example shows only `page`. */
export const listMetaSchema = z.object({
  page: pageMetaSchema,
  links: pageLinksSchema.optional(),
  filters: z.array(appliedFilterSchema).optional(),
  sort: z.array(appliedSortSchema).optional(),
  total: z.number().int().optional(),
});
export type ListMeta = z.infer<typeof listMetaSchema>;

const envelopeOf = <T extends z.ZodType>(item: T) => z.object({ meta: listMetaSchema, results: z.array(item) });
/** One per item schema: building it on every page cost processing 0.6 % of its CPU (bench:notifications' profile). */
const envelopes = new WeakMap<z.ZodType, z.ZodType>();

export function listEnvelopeSchema<T extends z.ZodType>(item: T): ReturnType<typeof envelopeOf<T>> {
  let envelope = envelopes.get(item);
  if (!envelope) {
    envelope = envelopeOf(item);
    envelopes.set(item, envelope);
  }
  return envelope as ReturnType<typeof envelopeOf<T>>;
}
export type ListEnvelope<T> = { meta: ListMeta; results: T[] };
