// The callback URL (spec: Endpoint 10), at both paths the spec gives. One URL per integrator
// application per user: the bearer token identifies both. No scope beyond a valid token is
// required (the spec names none). Reachability is not checked; GET without a URL → {url: null}.
import { Hono } from "hono";
import { webhookUrlRequestSchema } from "@/lib/marketplace/schemas/webhook";
import { apiGuard } from "./auth";
import type { SandboxContext, SandboxEnv } from "./context";
import { subscriptionKey } from "./store";
import { jsonBody } from "./validation";

export const WEBHOOK_URL_PATHS = ["/v1.0/marketplace/webhooks/url", "/v1.0/webhooks"] as const;

export function webhookUrlRoutes(ctx: SandboxContext): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  for (const path of WEBHOOK_URL_PATHS) {
    routes.post(path, apiGuard(ctx, []), jsonBody(webhookUrlRequestSchema), (c) => {
      const { token, user } = c.get("auth");
      const { url } = c.req.valid("json");
      ctx.store.webhookSubscriptions.set(subscriptionKey(token.clientId, user.id), {
        clientId: token.clientId,
        userId: user.id,
        url,
        // Notifications are signed with the token that set the URL (spec: Events → Signature).
        signingToken: token.token,
        scopes: token.scopes,
        updatedAt: new Date(ctx.clock.now()).toISOString(),
      });
      return c.json({ message: "Callback URL saved", url });
    });
    routes.get(path, apiGuard(ctx, []), (c) => {
      const { token, user } = c.get("auth");
      return c.json({ url: ctx.store.webhookSubscriptions.get(subscriptionKey(token.clientId, user.id))?.url ?? null });
    });
    routes.delete(path, apiGuard(ctx, []), (c) => {
      const { token, user } = c.get("auth");
      const removed = ctx.store.webhookSubscriptions.delete(subscriptionKey(token.clientId, user.id));
      return c.json({ message: removed ? "Callback URL removed" : "No callback URL was set" });
    });
  }
  return routes;
}
