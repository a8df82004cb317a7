// What the dashboard tells people outside the page they are on (issue 41), to whom, and on which
// channels unless they chose otherwise. Pure: the fan-out, the preferences page and the tests read
// the same rules.
import type { Role } from "@/lib/people/roles";

/**
 * "order.new": an order the dashboard learned of after the shop connected (every role that sees
 * orders). "order.late": an order whose handling time ran out unshipped (those who ship: owner,
 * manager, operations). "member.joined": someone joined the shop by an invitation (owners, who
 * manage the team). "digest": the morning's summary of a shop, at the time each person picks
 * (whoever would receive it on a channel). "shop.attention": the shop needs its owner: connect it
 * again, a permission missing, the callback URL no longer here, or events that gave up
 * (lib/shops/shop-attention.ts; owners). Who is told is decided where each is written.
 */
export const NOTIFICATION_KINDS = ["order.new", "order.late", "member.joined", "digest", "shop.attention"] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The inbox is always on; these are the channels a person chooses. */
export const CHANNELS = ["email", "push"] as const;
export type Channel = (typeof CHANNELS)[number];

export type ChannelChoice = Record<Channel, boolean>;

/**
 * Defaults a seller would expect: owners and managers hear of every new order by e-mail (and by
 * push once they allow it on a device); operations and viewers see them in the inbox.
 */
const DEFAULTS: Record<NotificationKind, Record<Role, ChannelChoice>> = {
  "order.new": {
    owner: { email: true, push: true },
    manager: { email: true, push: true },
    operations: { email: false, push: false },
    viewer: { email: false, push: false },
  },
  "order.late": {
    owner: { email: true, push: true },
    manager: { email: true, push: true },
    operations: { email: true, push: true },
    viewer: { email: false, push: false },
  },
  digest: {
    owner: { email: true, push: false },
    manager: { email: true, push: false },
    operations: { email: true, push: false },
    viewer: { email: false, push: false },
  },
  "shop.attention": {
    owner: { email: true, push: true },
    manager: { email: false, push: false },
    operations: { email: false, push: false },
    viewer: { email: false, push: false },
  },
  "member.joined": {
    owner: { email: true, push: false },
    manager: { email: false, push: false },
    operations: { email: false, push: false },
    viewer: { email: false, push: false },
  },
};

export function defaultChoice(kind: NotificationKind, role: Role): ChannelChoice {
  return DEFAULTS[kind][role];
}

export function isNotificationKind(value: unknown): value is NotificationKind {
  return typeof value === "string" && (NOTIFICATION_KINDS as readonly string[]).includes(value);
}
