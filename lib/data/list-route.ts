import "server-only";
import type { z } from "zod";
import { authorizeShopRequest } from "@/lib/auth/session";
import type { ShopAccess } from "@/lib/auth/session";
import type { Capability } from "@/lib/auth/roles";
import type { PlatformResult } from "@/lib/data/platform";
import { problemResponse } from "@/lib/data/problem-response";
import type { CurrentSeller } from "@/lib/data/sellers";
import { formatFieldPath } from "@/lib/marketplace/schemas/field-path";

/**
 * The one shape of a table's route handler (orders, prices, SKUs, events): the shop of the path,
 * for a member whose role has `capability` (401 signed out, 403 otherwise), the URL's filters read
 * by the table's schema (400 naming the first bad parameter), the page (a platform problem as
 * problemResponse says), never cached.
 */
export function listRoute<F>(
  capability: Capability,
  parseFilters: (params: URLSearchParams) => z.ZodSafeParseResult<F>,
  load: (seller: CurrentSeller, filters: F, access: ShopAccess) => Promise<PlatformResult<unknown>>,
) {
  return async function GET(request: Request, { params }: { params: Promise<{ shopId: string }> }): Promise<Response> {
    const access = await authorizeShopRequest((await params).shopId, capability);
    if (access instanceof Response) return access;
    const filters = parseFilters(new URL(request.url).searchParams);
    if (!filters.success) return badQuery(filters.error);
    const result = await load(access.shop, filters.data, access);
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
