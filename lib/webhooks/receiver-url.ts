import { env } from "@/lib/env";

export function receiverUrlFor(webhookKey: string): string {
  return `${env.PUBLIC_BASE_URL}/api/webhooks/marketplace/${encodeURIComponent(webhookKey)}`;
}
