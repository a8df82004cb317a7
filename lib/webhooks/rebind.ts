import "server-only";
import { withPlatform } from "@/lib/data/platform";
import { findCurrentSeller } from "@/lib/data/sellers";
import { receiverUrlFor } from "@/lib/webhooks/receiver-url";

/**
 * After a reconnect, sets the callback URL again when it points at this dashboard. The platform
 * signs notifications with the integrator's access token (spec: Events → Signature); setting the
 * URL with the new token makes sure it signs with the token the receiver now verifies against.
 * Best effort: a failure leaves the settings page to show the state.
 */
export async function rebindWebhookReceiver(sellerId: string): Promise<void> {
  const seller = await findCurrentSeller(sellerId);
  if (!seller) return;
  const receiverUrl = receiverUrlFor(seller.connection.webhookKey);
  const current = await withPlatform(seller, "getWebhookUrl", (client) => client.getWebhookUrl());
  if (current.ok && current.data.url === receiverUrl) {
    await withPlatform(seller, "setWebhookUrl", (client) => client.setWebhookUrl(receiverUrl));
  }
}
