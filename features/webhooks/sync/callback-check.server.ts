import "server-only";
import { withPlatform } from "@/lib/platform/platform.server";
import { receiverUrlFor } from "@/lib/shops/receiver-url";
import { markCallbackMoved } from "@/lib/shops/shop-attention.server";
import type { ConnectedShop } from "@/lib/shops/shops.server";

// Reconciliation found changes no notification told (./reconcile.server.ts): is the platform
// still sending this shop's notifications here?

/**
 * One call, and only while the dashboard believes the callback URL points here: the owners are
 * told when it no longer does (lib/shops/shop-attention.server.ts). A platform that cannot say
 * now is asked again the next time changes come untold.
 */
export async function checkCallbackStillHere({ shop, accessToken }: ConnectedShop, signal: AbortSignal | undefined): Promise<void> {
  if (shop.connection.callbackHere !== true) return;
  signal?.throwIfAborted();
  const current = await withPlatform(shop, "getWebhookUrl", (client) => client.getWebhookUrl(), { accessToken });
  if (current.ok && current.data.url !== receiverUrlFor(shop.connection.webhookKey)) await markCallbackMoved(shop.id);
}
