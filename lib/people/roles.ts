// Decision 0010. Pages offer only what a role allows; the server checks again on every request.

export const ROLES = ["owner", "manager", "operations", "viewer"] as const;
export type Role = (typeof ROLES)[number];

export const CAPABILITIES = [
  "overview.view",
  "orders.view",
  /** Customer documents and e-mails in clear. */
  "orders.customerData",
  "orders.export",
  "prices.view",
  "prices.change",
  /** Product costs, the price guard's limit and the commission rate (margins read with prices.view). */
  "costs.change",
  "orders.packing",
  "skus.view",
  "skus.change",
  "events.view",
  "events.processAgain",
  /** The callback URL, the receiver key and the notification settings. */
  "webhooks.manage",
  /** Connect again, disconnect, delete the shop's data, the shop's time zone. */
  "connection.manage",
  "members.manage",
  "audit.view",
] as const;
export type Capability = (typeof CAPABILITIES)[number];

const OWNER_ONLY: readonly Capability[] = ["webhooks.manage", "connection.manage", "members.manage"];

const GRANTS: Record<Role, ReadonlySet<Capability>> = {
  owner: new Set(CAPABILITIES),
  manager: new Set(CAPABILITIES.filter((capability) => !OWNER_ONLY.includes(capability))),
  operations: new Set(["overview.view", "orders.view", "orders.customerData", "orders.export", "orders.packing"]),
  viewer: new Set(["overview.view", "orders.view", "prices.view", "skus.view", "events.view"]),
};

export function can(role: Role, capability: Capability): boolean {
  return GRANTS[role].has(capability);
}

/** The roles granted `capability`, in ROLES' order: who is told of what (issue 41). */
export function rolesWith(capability: Capability): Role[] {
  return ROLES.filter((role) => can(role, capability));
}

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}
