import "server-only";
import { env } from "@/lib/env";
import type { Channel } from "@/features/notifications/kinds";

/**
 * The channels this deployment can send on. E-mail needs an SMTP server (SMTP_URL; under
 * `npm run dev`, the development mail server). Push needs the VAPID keys, which are always there
 * (generated for development, required in production); a person needs a device registered.
 */
export function channelsOn(): Record<Channel, boolean> {
  return { email: env.SMTP_URL !== null, push: Boolean(env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY) };
}

export function emailChannelOn(): boolean {
  return channelsOn().email;
}
