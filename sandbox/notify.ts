// Who hears of a change to a user's data: the callback targets of their current tokens, and the
// token that signs each notification. Apart from the dispatcher, which knows nothing of the store.
import type { WebhookData } from "@marketplace/api/schemas/webhook";
import type { SandboxContext } from "./context";
import { subscriptionReceives } from "./webhooks";
import type { WebhookTarget } from "./webhooks";

/**
 * The user's newest active token for the application, asked at each attempt: the spec's "the
 * integrator's access token" is the one held now, not the one that set the URL. Null when none.
 */
export function currentSigningToken(ctx: SandboxContext, clientId: string, userId: string): string | null {
  return ctx.store.latestActiveToken(clientId, userId, ctx.clock.now())?.token ?? null;
}

/** A user who holds no active token for an application gets nothing from it: no delivery is logged. */
export function callbackTargets(ctx: SandboxContext, userId: string): WebhookTarget[] {
  const targets: WebhookTarget[] = [];
  for (const subscription of ctx.store.webhookSubscriptions.values()) {
    if (ctx.config.callbackScope === "user" && subscription.userId !== userId) continue;
    const current = ctx.store.latestActiveToken(subscription.clientId, userId, ctx.clock.now());
    if (!current) continue;
    targets.push({ clientId: subscription.clientId, userId, url: subscription.url, scopes: current.scopes });
  }
  return targets;
}

/** Sends an event about `userId`'s data to every callback URL whose user's current token subscribes to its topic. */
export function notifySeller(ctx: SandboxContext, userId: string, data: WebhookData): void {
  for (const target of callbackTargets(ctx, userId)) {
    if (subscriptionReceives(target.scopes, data.domain)) ctx.webhooks.enqueue(target, data);
  }
}
