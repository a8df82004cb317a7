import "server-only";
import { env } from "@/lib/env";
import type { Channel } from "@/features/notifications/kinds";

/**
 * The channels this deployment can send on. E-mail needs an SMTP server (SMTP_URL; under
 * `npm run dev`, the development mail server). Push is not sent yet (issue 41 continues): no
 * device can be registered, so nothing waits for it.
 */
export function channelsOn(): Record<Channel, boolean> {
  return { email: env.SMTP_URL !== null, push: false };
}
