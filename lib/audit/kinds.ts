// The audit log's vocabulary: the kinds of entry and the actions every feature records
// (recordAudit, lib/audit/audit.server.ts). Browser-safe.

export const AUDIT_KINDS = [
  "price",
  "cost",
  "sku",
  "order",
  "webhooks",
  "connection",
  "settings",
  "member",
  "invitation",
  "event",
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

export const AUDIT_ACTIONS = {
  "price.set": "price",
  "price.bulk": "price",
  "price.guardLimit": "price",
  "price.commissionRate": "price",
  "cost.set": "cost",
  "cost.bulk": "cost",
  "order.packing": "order",
  "sku.create": "sku",
  "webhooks.settings": "webhooks",
  "webhooks.rotate": "webhooks",
  "connection.connect": "connection",
  "connection.disconnect": "connection",
  "settings.timeZone": "settings",
  "member.join": "member",
  "member.role": "member",
  "member.remove": "member",
  "invitation.create": "invitation",
  "invitation.revoke": "invitation",
  "event.processAgain": "event",
  "event.processAllDead": "event",
} as const satisfies Record<string, AuditKind>;
export type AuditAction = keyof typeof AUDIT_ACTIONS;

export function isAuditKind(value: string): value is AuditKind {
  return (AUDIT_KINDS as readonly string[]).includes(value);
}

export function isAuditAction(value: string): value is AuditAction {
  return Object.hasOwn(AUDIT_ACTIONS, value);
}
