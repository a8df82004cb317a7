import "server-only";
import { markNeedsReconnect, recordMissingScopes } from "@/lib/shops/shop-attention.server";
import { getAccessToken } from "@/lib/shops/tokens.server";
import type { CurrentShop } from "@/lib/shops/shops.server";
import { env } from "@/lib/env";
import { createMarketplaceClient, requiredScopesFor } from "@marketplace/api/client";
import type { EndpointName, MarketplaceClient } from "@marketplace/api/client";
import { MarketplaceError } from "@marketplace/api/errors";
import { retryRateLimited } from "@marketplace/api/rate-limit";
import type { ListPage } from "@marketplace/api/list-response";
import { recordPlatformResponse } from "@/lib/metrics.server";

import type { PlatformProblem, PlatformResult } from "@/lib/platform-problem";

export type { PlatformProblem, PlatformResult };

/**
 * Whether background work (reconciliation, the price fill) should call `endpoint` for the shop: its
 * connection is accepted, and it asked for every scope the endpoint needs and none is known missing.
 */
export function mayCall(shop: CurrentShop, endpoint: EndpointName): boolean {
  const { connection } = shop;
  return (
    !connection.needsReconnect &&
    requiredScopesFor(endpoint).every((scope) => connection.scopesRequested.includes(scope) && !connection.scopesMissing.includes(scope))
  );
}

/**
 * The one place token trouble becomes connection state: a 401 needs a reconnect, a 403 records the
 * endpoint's scopes as missing, and a connection known to be in either is not called again.
 * `options.accessToken`: already read by the caller; null means the seller has none.
 * `options.rateLimitAttempts`: calls in all while the platform answers 429, each after its wait;
 * for background work (an export), never a seller's click, which shows the wait instead.
 */
export async function withPlatform<T>(
  shop: CurrentShop,
  endpoint: EndpointName,
  call: (client: MarketplaceClient) => Promise<T>,
  options: { accessToken?: string | null; rateLimitAttempts?: number } = {},
): Promise<PlatformResult<T>> {
  if (shop.connection.needsReconnect) return { ok: false, problem: { kind: "reconnect" } };
  const missing = requiredScopesFor(endpoint).filter((scope) => shop.connection.scopesMissing.includes(scope));
  if (missing.length > 0) return { ok: false, problem: { kind: "missing_scope", scopes: missing } };

  const accessToken = options.accessToken === undefined ? await getAccessToken(shop.id) : options.accessToken;
  if (!accessToken) return { ok: false, problem: { kind: "reconnect" } };
  const client = createMarketplaceClient({ baseUrl: env.MARKETPLACE_BASE_URL, accessToken, onResponse: recordPlatformResponse });

  try {
    return { ok: true, data: await retryRateLimited(() => call(client), { attempts: options.rateLimitAttempts ?? 1 }) };
  } catch (error) {
    if (!(error instanceof MarketplaceError)) throw error;
    if (error.kind === "unauthorized") {
      await markNeedsReconnect(shop.id);
      return { ok: false, problem: { kind: "reconnect" } };
    }
    if (error.kind === "forbidden") {
      const scopes = [...requiredScopesFor(endpoint)];
      await recordMissingScopes(shop.id, scopes);
      return { ok: false, problem: { kind: "missing_scope", scopes } };
    }
    const problem: PlatformProblem = { kind: "error", message: error.message, status: error.status };
    if (error.retryAfterMs !== undefined) problem.retryAfterMs = error.retryAfterMs;
    if (error.kind === "invalid_response") problem.invalidResponse = true;
    return { ok: false, problem };
  }
}

/** A list endpoint's first page asks for this many; the next ones for the max_limit it reports. */
export const FIRST_PAGE_LIMIT = 50;

export async function* everyPage<T>(fetchPage: (limit: number, offset: number) => Promise<ListPage<T>>): AsyncGenerator<T[]> {
  let limit = FIRST_PAGE_LIMIT;
  let offset = 0;
  for (;;) {
    const page = await fetchPage(limit, offset);
    if (page.items.length > 0) yield page.items;
    if (!page.next || page.items.length === 0) return;
    offset += page.items.length;
    limit = page.maxLimit;
  }
}
