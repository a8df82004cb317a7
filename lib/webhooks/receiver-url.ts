import { env } from "@/lib/env";

/** The public URL of a seller's receiver: what "Use this dashboard" gives the platform. */
export function receiverUrlFor(webhookKey: string): string {
  return `${env.PUBLIC_BASE_URL}/api/webhooks/marketplace/${encodeURIComponent(webhookKey)}`;
}
