import "server-only";
import { withPlatform } from "@/lib/platform/platform.server";
import { findCurrentShop, recordNotificationsAtConnect } from "@/lib/shops/shops.server";
import type { NotificationsAtConnect } from "@/lib/shops/notifications-status";
import { receiverUrlFor } from "@/lib/shops/receiver-url";

/**
 * Spec 10: a URL already pointing here is set again, so the platform signs with the new token; one
 * pointing elsewhere was set outside this dashboard and is left alone. Best effort: a failure is "unknown".
 */
export async function switchOnNotificationsAtConnect(shopId: string): Promise<NotificationsAtConnect> {
  const shop = await findCurrentShop(shopId);
  if (!shop) return "unknown";
  const receiverUrl = receiverUrlFor(shop.connection.webhookKey);
  const outcome = await decide(shop, receiverUrl);
  await recordNotificationsAtConnect(shopId, outcome);
  return outcome;
}

async function decide(
  shop: NonNullable<Awaited<ReturnType<typeof findCurrentShop>>>,
  receiverUrl: string,
): Promise<NotificationsAtConnect> {
  const current = await withPlatform(shop, "getWebhookUrl", (client) => client.getWebhookUrl());
  if (!current.ok) return "unknown";
  if (current.data.url && current.data.url !== receiverUrl) return "elsewhere";
  const set = await withPlatform(shop, "setWebhookUrl", (client) => client.setWebhookUrl(receiverUrl));
  if (!set.ok) return "unknown";
  return current.data.url ? "already" : "on";
}
