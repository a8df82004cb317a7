import "server-only";
import { getAccessToken, markNeedsReconnect, recordMissingScopes } from "@/lib/data/sellers";
import type { CurrentSeller } from "@/lib/data/sellers";
import { env } from "@/lib/env";
import { createMarketplaceClient, requiredScopesFor } from "@/lib/marketplace/client";
import type { EndpointName, MarketplaceClient } from "@/lib/marketplace/client";
import { MarketplaceError } from "@/lib/marketplace/errors";

import type { PlatformProblem, PlatformResult } from "@/lib/platform-problem";

export type { PlatformProblem, PlatformResult };


/**
 * Runs `call` with a client holding the seller's token, and turns token trouble into state the
 * UI shows: a 401 marks the connection as needing reconnection, a 403 records the scopes the
 * endpoint needs as missing. A connection already known to be in that state is not called again.
 */
export async function withPlatform<T>(
  seller: CurrentSeller,
  endpoint: EndpointName,
  call: (client: MarketplaceClient) => Promise<T>,
): Promise<PlatformResult<T>> {
  if (seller.connection.needsReconnect) return { ok: false, problem: { kind: "reconnect" } };
  const missing = requiredScopesFor(endpoint).filter((scope) => seller.connection.scopesMissing.includes(scope));
  if (missing.length > 0) return { ok: false, problem: { kind: "missing_scope", scopes: missing } };

  const accessToken = await getAccessToken(seller.id);
  if (!accessToken) return { ok: false, problem: { kind: "reconnect" } };
  const client = createMarketplaceClient({ baseUrl: env.MARKETPLACE_BASE_URL, accessToken });

  try {
    return { ok: true, data: await call(client) };
  } catch (error) {
    if (!(error instanceof MarketplaceError)) throw error;
    if (error.kind === "unauthorized") {
      await markNeedsReconnect(seller.id);
      return { ok: false, problem: { kind: "reconnect" } };
    }
    if (error.kind === "forbidden") {
      const scopes = [...requiredScopesFor(endpoint)];
      await recordMissingScopes(seller.id, scopes);
      return { ok: false, problem: { kind: "missing_scope", scopes } };
    }
    const problem: PlatformProblem = { kind: "error", message: error.message, status: error.status };
    if (error.retryAfterMs !== undefined) problem.retryAfterMs = error.retryAfterMs;
    if (error.kind === "invalid_response") problem.invalidResponse = true;
    return { ok: false, problem };
  }
}
