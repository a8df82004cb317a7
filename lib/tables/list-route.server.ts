import "server-only";
import type { z } from "zod";
import { authorizeShopRequest } from "@/lib/auth/session.server";
import type { ShopAccess } from "@/lib/auth/session.server";
import type { Capability } from "@/lib/people/roles";
import type { PlatformResult } from "@/lib/platform/platform.server";
import { problemResponse } from "@/lib/platform/problem-response";
import type { CurrentShop } from "@/lib/shops/shops.server";
import { formatFieldPath } from "@marketplace/api/schemas/field-path";

/** A table's route handler: 401 signed out, 403 without `capability`, 400 on a bad filter, never cached. */
export function listRoute<F>(
  capability: Capability,
  parseFilters: (params: URLSearchParams) => z.ZodSafeParseResult<F>,
  load: (shop: CurrentShop, filters: F, access: ShopAccess) => Promise<PlatformResult<unknown>>,
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

export function badQuery(error: z.ZodError): Response {
  const issue = error.issues[0];
  return Response.json({ error: `${formatFieldPath(issue?.path ?? []) || "query"}: ${issue?.message ?? "invalid"}` }, { status: 400 });
}

/** A list read from the dashboard's own database: it cannot meet a platform problem. */
export const local = async <T>(data: Promise<T>): Promise<PlatformResult<T>> => ({ ok: true, data: await data });
