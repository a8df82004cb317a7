// The list envelope, parsed into a page the dashboard can render (spec: Generic list rules,
// point 5; 7. List prices; 9. List orders; Limits).
import type { z } from "zod";
import { describeZodFailure, MarketplaceError } from "./errors";
import { parseListLink } from "./list-query";
import { listEnvelopeSchema } from "./schemas/list";
import type { ListMeta } from "./schemas/list";

/** Where another page starts: the `_offset` and `_limit` to request it with. */
export interface PageRef {
  offset: number;
  limit: number;
}

export interface ListPage<T> {
  items: T[];
  limit: number;
  offset: number;
  /** Records in this page. */
  count: number;
  /** The largest `_limit` the platform honours (`meta.page.max_limit`). */
  maxLimit: number;
  /** Records matching the query in all pages; optional in the spec. */
  total?: number;
  previous: PageRef | null;
  next: PageRef | null;
}

function invalid(path: string, message: string, cause?: unknown): MarketplaceError {
  return new MarketplaceError("invalid_response", `The marketplace answered a list in an unexpected shape (${path}: ${message})`, {
    cause,
  });
}

function readLink(link: string | null, path: string): PageRef | null {
  if (link === null) return null;
  try {
    const { offset, limit } = parseListLink(link);
    return { offset, limit };
  } catch (cause) {
    throw invalid(path, cause instanceof Error ? cause.message : String(cause), cause);
  }
}

/**
 * Without `meta.links` (the price list example of endpoint 7 shows only `page`), the neighbours
 * are derived from the page: a previous page whenever the offset is past the start; a next page
 * when `total` says more records follow or, without `total`, when this page is full. That last
 * guess may lead to one empty page at the very end, which is the cost of not knowing.
 */
function derivedNeighbours(meta: ListMeta): { previous: PageRef | null; next: PageRef | null } {
  const { limit, offset, count } = meta.page;
  const previous = offset > 0 ? { offset: Math.max(0, offset - limit), limit } : null;
  const more = meta.total === undefined ? count > 0 && count >= limit : offset + count < meta.total;
  return { previous, next: more ? { offset: offset + count, limit } : null };
}

/**
 * Validates a list response with `listEnvelopeSchema(itemSchema)` and returns its page.
 * Previous and next pages come from `meta.links` when present (null at the ends, spec: 9).
 *
 * @throws MarketplaceError of kind `invalid_response` naming the failing path (for instance
 *   `results.3.status` or `meta.page.max_limit`) when the body is not a list envelope, an item
 *   does not match `itemSchema`, `meta.page.count` disagrees with the number of results, or a
 *   link does not carry valid `_offset`/`_limit`.
 */
export function parseListResponse<S extends z.ZodType>(json: unknown, itemSchema: S): ListPage<z.output<S>> {
  const parsed = listEnvelopeSchema(itemSchema).safeParse(json);
  if (!parsed.success) {
    throw new MarketplaceError(
      "invalid_response",
      `The marketplace answered a list in an unexpected shape (${describeZodFailure(parsed.error)})`,
      { cause: parsed.error },
    );
  }
  const { meta, results } = parsed.data;
  const { page } = meta;
  // `count` is "records in this page" (point 5); a disagreement means offsets computed from it
  // would skip or repeat records.
  if (page.count !== results.length) {
    throw invalid("meta.page.count", `${page.count} but the page holds ${results.length} results`);
  }

  const neighbours = meta.links
    ? { previous: readLink(meta.links.previous, "meta.links.previous"), next: readLink(meta.links.next, "meta.links.next") }
    : derivedNeighbours(meta);

  return {
    items: results,
    limit: page.limit,
    offset: page.offset,
    count: page.count,
    maxLimit: page.max_limit,
    ...(meta.total === undefined ? {} : { total: meta.total }),
    ...neighbours,
  };
}
