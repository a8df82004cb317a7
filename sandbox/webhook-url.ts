// The callback URL (spec: Endpoint 10; sandbox/README.md, "Webhook callback URL"). "The URL is
// validated": its addresses must be ones the sandbox may call (callback-guard.ts), not reachable.
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
