// The callback URL (spec: Endpoint 10), at both paths the spec gives. By default one URL per
// integrator application per user: the bearer token identifies both. With
// SANDBOX_CALLBACK_SCOPE=application one URL per application, shared by all its users: whoever
// sets it last wins, and any of them reads or removes it. No scope beyond a valid token is
// required (the spec names none). GET without a URL → {url: null}.
//
// "The URL is validated" (spec: Endpoint 10): besides its form, the address its host is or resolves
// to must be one the sandbox may call (sandbox/callback-guard.ts), else 400 naming `url`, saying
// only that it is not allowed.
// Reachability is not checked: a name that does not resolve now is accepted, and every delivery
// checks the address again.
import { Hono } from "hono";
import { webhookUrlRequestSchema } from "@marketplace/api/schemas/webhook";
import { apiGuard } from "./auth";
import type { SandboxContext, SandboxEnv } from "./context";
import { subscriptionKey } from "./store";
import { jsonBody } from "./validation";

export const WEBHOOK_URL_PATHS = ["/v1.0/marketplace/webhooks/url", "/v1.0/webhooks"] as const;

/** Which callback URL a token of (clientId, userId) addresses under SANDBOX_CALLBACK_SCOPE. */
function callbackUrlKey(ctx: SandboxContext, clientId: string, userId: string): string {
  return subscriptionKey(clientId, ctx.config.callbackScope === "application" ? null : userId);
}

export function webhookUrlRoutes(ctx: SandboxContext): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  const callbackUrlBody = webhookUrlRequestSchema.superRefine(async ({ url }, issues) => {
    const refusal = await ctx.callbacks.refusal(url);
    if (refusal !== null) issues.addIssue({ code: "custom", path: ["url"], message: `is ${refusal}` });
  });
  for (const path of WEBHOOK_URL_PATHS) {
    routes.post(path, apiGuard(ctx, []), jsonBody(callbackUrlBody), (c) => {
      const { token, user } = c.get("auth");
      const { url } = c.req.valid("json");
      ctx.store.webhookSubscriptions.set(callbackUrlKey(ctx, token.clientId, user.id), {
        clientId: token.clientId,
        userId: user.id,
        url,
        // Not the token: notifications are signed with whichever token the user holds when they are sent.
        updatedAt: new Date(ctx.clock.now()).toISOString(),
      });
      return c.json({ message: "Callback URL saved", url });
    });
    routes.get(path, apiGuard(ctx, []), (c) => {
      const { token, user } = c.get("auth");
      return c.json({ url: ctx.store.webhookSubscriptions.get(callbackUrlKey(ctx, token.clientId, user.id))?.url ?? null });
    });
    routes.delete(path, apiGuard(ctx, []), (c) => {
      const { token, user } = c.get("auth");
      const removed = ctx.store.webhookSubscriptions.delete(callbackUrlKey(ctx, token.clientId, user.id));
      return c.json({ message: removed ? "Callback URL removed" : "No callback URL was set" });
    });
  }
  return routes;
}
