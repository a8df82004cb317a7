// The checks every API call goes through, in this order: fault `maintenance` (503), bearer token
// (401), faults `userFaults` (a delay, then 429) and `rateLimitPerMinute` (429), scope (403), fault `errorRate` (500). Endpoints with
// their own failure body (SKU create) pass a renderer.
import type { Context, MiddlewareHandler } from "hono";
import type { Scope } from "@marketplace/api/schemas/scopes";
import type { SandboxContext, SandboxEnv } from "./context";
import { SandboxHttpError, errorResponse } from "./errors";
import { isTokenActive } from "./store";

export type GuardFailure = SandboxHttpError;

export type FailureRenderer = (c: Context<SandboxEnv>, failure: GuardFailure) => Response;

const renderStandard: FailureRenderer = (c, failure) => errorResponse(c, failure);

export function readBearerToken(header: string | undefined): string | null {
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header ?? "");
  return match?.[1] ?? null;
}

export function apiGuard(
  ctx: SandboxContext,
  requiredScopes: readonly Scope[],
  render: FailureRenderer = renderStandard,
): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    const { store, faults, clock } = ctx;
    if (faults.current.maintenance) {
      return render(
        c,
        new SandboxHttpError(503, "temporarily_unavailable", "The platform is under maintenance (fault injection)", {
          retryAfterSeconds: 60,
        }),
      );
    }
    const presented = readBearerToken(c.req.header("Authorization"));
    if (presented === null)
      return render(c, new SandboxHttpError(401, "invalid_token", "Missing Authorization: Bearer <ACCESS_TOKEN> header"));
    const token = store.tokens.get(presented);
    if (!token || !isTokenActive(token, clock.now())) {
      const reason = !token ? "unknown" : token.revoked ? "revoked" : "expired";
      return render(c, new SandboxHttpError(401, "invalid_token", `The access token is ${reason}`));
    }
    const user = store.usersById.get(token.userId);
    const app = store.apps.get(token.clientId);
    if (!user || !app) return render(c, new SandboxHttpError(401, "invalid_token", "The access token is unknown"));

    const userFault = faults.userFault(user.email);
    if (userFault?.latencyMs) await new Promise((resolve) => setTimeout(resolve, userFault.latencyMs));
    if (userFault?.retryAfterSeconds) {
      return render(
        c,
        new SandboxHttpError(429, "rate_limited", "Too many requests: the user is temporarily blocked (fault userFaults)", {
          retryAfterSeconds: userFault.retryAfterSeconds,
        }),
      );
    }
    const retryAfter = faults.takeRateLimitToken(user.id, clock.now());
    if (retryAfter !== null) {
      return render(
        c,
        new SandboxHttpError(429, "rate_limited", "Too many requests: the user is temporarily blocked", { retryAfterSeconds: retryAfter }),
      );
    }
    const missing = requiredScopes.filter((scope) => !token.scopes.includes(scope));
    if (missing.length > 0) {
      return render(c, new SandboxHttpError(403, "insufficient_scope", `The access token lacks the scope(s): ${missing.join(", ")}`));
    }
    if (faults.injectServerError()) return render(c, new SandboxHttpError(500, "server_error", "Injected server error (fault errorRate)"));
    c.set("auth", { token, user, app });
    await next();
  };
}
