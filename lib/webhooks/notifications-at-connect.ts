import "server-only";
import { withPlatform } from "@/lib/data/platform";
import { findCurrentSeller, recordNotificationsAtConnect } from "@/lib/data/sellers";
import type { NotificationsAtConnect } from "@/lib/webhooks/notifications-status";
import { receiverUrlFor } from "@/lib/webhooks/receiver-url";

/**
 * At connect, notifications are switched on (spec: 10. Webhook callback URL): with no callback URL
 * set, it is pointed at this dashboard's receiver; one that already points here is set again with
 * the new token, which the platform then signs with (spec: Events → Signature); one that points
 * elsewhere was set by the seller or the integrator outside this dashboard and is left alone
 * (the Webhooks page offers to change it). The outcome is recorded for the home page to say.
 * Best effort: a failure leaves "unknown", and the Webhooks page shows the state.
 */
export async function switchOnNotificationsAtConnect(sellerId: string): Promise<NotificationsAtConnect> {
  const seller = await findCurrentSeller(sellerId);
  if (!seller) return "unknown";
  const receiverUrl = receiverUrlFor(seller.connection.webhookKey);
  const outcome = await decide(seller, receiverUrl);
  await recordNotificationsAtConnect(sellerId, outcome);
  return outcome;
}

async function decide(seller: NonNullable<Awaited<ReturnType<typeof findCurrentSeller>>>, receiverUrl: string): Promise<NotificationsAtConnect> {
  const current = await withPlatform(seller, "getWebhookUrl", (client) => client.getWebhookUrl());
  if (!current.ok) return "unknown";
  if (current.data.url && current.data.url !== receiverUrl) return "elsewhere";
  const set = await withPlatform(seller, "setWebhookUrl", (client) => client.setWebhookUrl(receiverUrl));
  if (!set.ok) return "unknown";
  return current.data.url ? "already" : "on";
}
