import { env } from "@/lib/env";
import { RECEIVER_PATH_PREFIX } from "@/lib/shops/callback-target";

export function receiverUrlFor(webhookKey: string): string {
  return `${env.PUBLIC_BASE_URL}${RECEIVER_PATH_PREFIX}${encodeURIComponent(webhookKey)}`;
}
