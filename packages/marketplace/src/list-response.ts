// Spec: Generic list rules, point 5.
import type { z } from "zod";
import { describeZodFailure, MarketplaceError } from "./errors";
import { parseListLink } from "./list-query";
import { listEnvelopeSchema } from "./schemas/list";
import type { ListMeta } from "./schemas/list";

export interface PageRef {
  offset: number;
  limit: number;
}

export interface ListPage<T> {
  items: T[];
  limit: number;
  offset: number;
  count: number;
  /** `meta.page.max_limit`: the largest `_limit` the platform honours. */
  maxLimit: number;
  /** Optional in the spec. */
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
 * Endpoint 7's example has no `meta.links`. Without `total`, a full page is taken to have a next,
 * which may cost one empty page at the very end.
 */
function derivedNeighbours(meta: ListMeta): { previous: PageRef | null; next: PageRef | null } {
  const { limit, offset, count } = meta.page;
  const previous = offset > 0 ? { offset: Math.max(0, offset - limit), limit } : null;
  const more = meta.total === undefined ? count > 0 && count >= limit : offset + count < meta.total;
  return { previous, next: more ? { offset: offset + count, limit } : null };
}

/** Throws an `invalid_response` MarketplaceError naming the failing path. */
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
  // Offsets computed from a wrong `count` would skip or repeat records.
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
