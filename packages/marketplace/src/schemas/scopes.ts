// Spec: Authentication → Scopes. Values are case sensitive (point 7): lookups compare exactly.
import { z } from "zod";

/** Integrator application types named by the "Applies to" column. */
export const appTypeSchema = z.enum(["real_estate", "autos", "marketplace"]);
export type AppType = z.infer<typeof appTypeSchema>;

export interface ScopeDefinition {
  readonly scope: string;
  readonly appliesTo: readonly AppType[];
  readonly permits: string;
}

export const SCOPE_CATALOGUE = [
  {
    scope: "basic_user_info",
    appliesTo: ["real_estate", "autos", "marketplace"],
    permits: "Basic profile information (name, e-mail, contact data)",
  },
  {
    scope: "conversations-seller:write",
    appliesTo: ["real_estate", "autos", "marketplace"],
    permits: "Send chat messages, mark conversations as read",
  },
  { scope: "conversations-seller:read", appliesTo: ["real_estate", "autos", "marketplace"], permits: "View chat conversations" },
  { scope: "autoupload", appliesTo: ["real_estate", "autos"], permits: "Automatic upload of listings" },
  { scope: "portfolio:write", appliesTo: ["marketplace"], permits: "Modify SKU data, inventories, prices" },
  { scope: "portfolio:read", appliesTo: ["marketplace"], permits: "Read SKU data, inventories, prices" },
  { scope: "order-order:write", appliesTo: ["marketplace"], permits: "Modify orders (delivery details, status updates)" },
  { scope: "order-order:read", appliesTo: ["marketplace"], permits: "Read orders (delivery details, status)" },
  { scope: "order-delivery:read", appliesTo: ["marketplace"], permits: "Read deliveries (tracking, status)" },
  { scope: "order-delivery:write", appliesTo: ["marketplace"], permits: "Modify deliveries (tracking, status)" },
  { scope: "tickets-write", appliesTo: ["marketplace"], permits: "Update support tickets" },
  { scope: "tickets-read", appliesTo: ["marketplace"], permits: "Read open support tickets" },
] as const satisfies readonly ScopeDefinition[];

export type Scope = (typeof SCOPE_CATALOGUE)[number]["scope"];

export const SCOPES = SCOPE_CATALOGUE.map((entry) => entry.scope) as [Scope, ...Scope[]];
export const scopeSchema = z.enum(SCOPES);

const byScope = new Map<string, ScopeDefinition>(SCOPE_CATALOGUE.map((entry) => [entry.scope, entry]));

export function isKnownScope(value: string): value is Scope {
  return byScope.has(value);
}

/** Whether an application of `appType` may request `scope` (an autos app asking for a marketplace scope gets `invalid_scope`). */
export function scopeAppliesTo(scope: string, appType: AppType): boolean {
  return byScope.get(scope)?.appliesTo.includes(appType) ?? false;
}

export function describeScope(scope: string): string | undefined {
  return byScope.get(scope)?.permits;
}

/** Null when malformed: stray spaces, or characters outside RFC 6749 §3.3's scope-token set. */
export function parseScopeParameter(value: string): string[] | null {
  if (!/^[\x21\x23-\x5B\x5D-\x7E]+( [\x21\x23-\x5B\x5D-\x7E]+)*$/.test(value)) return null;
  return [...new Set(value.split(" "))];
}
