import "server-only";
import type { z } from "zod";
import { getCurrentSeller } from "@/lib/auth/session";
import type { PlatformResult } from "@/lib/data/platform";
import { problemResponse } from "@/lib/data/problem-response";
import type { CurrentSeller } from "@/lib/data/sellers";
import { formatFieldPath } from "@/lib/marketplace/schemas/field-path";

/**
 * The one shape of a table's route handler (orders, prices, SKUs, events): the signed-in seller
 * (401 otherwise), the URL's filters read by the table's schema (400 naming the first bad
 * parameter), the page (a platform problem as problemResponse says), never cached.
 */
export function listRoute<F>(
  parseFilters: (params: URLSearchParams) => z.ZodSafeParseResult<F>,
  load: (seller: CurrentSeller, filters: F) => Promise<PlatformResult<unknown>>,
) {
  return async function GET(request: Request): Promise<Response> {
    const seller = await getCurrentSeller();
    if (!seller) return Response.json({ error: "Not signed in" }, { status: 401 });
    const filters = parseFilters(new URL(request.url).searchParams);
    if (!filters.success) return badQuery(filters.error);
    const result = await load(seller, filters.data);
    if (!result.ok) return problemResponse(result.problem);
    return Response.json(result.data, { headers: { "cache-control": "private, no-store" } });
  };
}

/** 400 naming a table URL's first bad parameter (the table routes and the orders export). */
export function badQuery(error: z.ZodError): Response {
  const issue = error.issues[0];
  return Response.json({ error: `${formatFieldPath(issue?.path ?? []) || "query"}: ${issue?.message ?? "invalid"}` }, { status: 400 });
}

/** A list read from the dashboard's own database: it cannot meet a platform problem. */
export const local = async <T>(data: Promise<T>): Promise<PlatformResult<T>> => ({ ok: true, data: await data });
