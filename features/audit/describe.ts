// Shapes are read with zod, not trusted: entries outlive the code that wrote them, so an unknown
// shape or action still reads as "action · subject: before → after" in plain words, never JSON.
import type { useTranslations } from "next-intl";
import { z } from "zod";
import { isAuditAction, isAuditKind } from "@/lib/audit/kinds";
import type { AuditAction } from "@/lib/audit/kinds";
import { isRole } from "@/lib/people/roles";
import type { DisplayFormat } from "@/lib/format";
import { callbackTargetOf } from "@/lib/shops/callback-target";

export type AuditWords = ReturnType<typeof useTranslations<"audit">>;

export interface DescribableEntry {
  action: string;
  subject: string | null;
  before: unknown;
  after: unknown;
}

const moneySide = z.object({
  type: z.string().optional(),
  value: z.int(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  normalizer: z.int().min(1),
});
/** A price.set's `after` when the person confirmed what the price guard held (features/prices/guard/price-guard.ts). */
const GUARD_REASON_CODES = ["belowCost", "moveTooLarge", "currencyChange"] as const;
const confirmedSide = z.object({ confirmedPastGuard: z.array(z.object({ code: z.string() })).min(1) });
const roleSide = z.object({ role: z.string() });
/** `{ url }` with the whole URL in entries written before issue 37: read through callbackTargetOf. */
const callbackSide = z.union([z.object({ receiver: z.literal("dashboard") }), z.object({ url: z.string().nullable() })]);
const bulkSide = z.object({
  source: z.string().optional(),
  sent: z.int().min(0),
  failed: z.int().min(0),
  skipped: z.int().min(0).optional(),
});
const titleSide = z.object({ title: z.string().min(1) });
const connectSide = z.object({ email: z.string(), reconnect: z.boolean().optional() });
const invitationSide = z.object({ role: z.string(), expiresAt: z.iso.datetime({ offset: true }).optional() });
const countSide = z.object({ count: z.int().min(0) });
const timeZoneSide = z.object({ timeZone: z.string().min(1) });
const limitSide = z.object({ limitPercent: z.int().min(0) });
const rateSide = z.object({ rateBps: z.int().min(0).nullable() });
const costSide = z.object({ cost: z.int().min(0).nullable() });
const packingSide = z.object({ stage: z.string(), orderIds: z.array(z.string()).min(1) });

interface Context {
  t: AuditWords;
  format: DisplayFormat;
}

function read<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> | null {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** formatMoney throws on what Intl cannot format: the entry must still read. */
function moneyWords(money: z.infer<typeof moneySide>, { format }: Context): string | null {
  try {
    return format.money(money);
  } catch {
    return null;
  }
}

export function auditKindWord(t: AuditWords, kind: string): string {
  return isAuditKind(kind) ? t(`kinds.${kind}`) : t("values.other", { code: kind });
}

export function auditActionWord(t: AuditWords, action: string): string {
  return isAuditAction(action) ? t(`actions.${action}`) : t("values.other", { code: action });
}

export function auditRoleWord(t: AuditWords, role: string): string {
  return isRole(role) ? t(`roles.${role}`) : t("values.other", { code: role });
}

const subjectOf = (entry: DescribableEntry) => entry.subject ?? "—";

/** Never the receiver key nor a URL's credentials, whatever the entry kept. Null: none set. */
function callbackWords(side: z.infer<typeof callbackSide>, t: AuditWords): string | null {
  const target = "receiver" in side ? side : callbackTargetOf(side.url);
  return "receiver" in target ? t("values.dashboardReceiver") : target.url;
}

/** Costs are kept in centavos (BRL, normalizer 100). */
const costWords = (cost: number, context: Context) => moneyWords({ value: cost, currency: "BRL", normalizer: 100 }, context);

/** Null is "learned from orders". */
const rateWords = (rateBps: number | null, { t, format }: Context) =>
  rateBps === null ? t("values.learnedRate") : format.percent(rateBps / 10_000);

/** Null when the entry's shape is not the one the sentence needs. */
const SENTENCES: Record<AuditAction, (entry: DescribableEntry, context: Context) => string | null> = {
  "price.set": (entry, context) => {
    const after = read(moneySide, entry.after);
    const afterWords = after && moneyWords(after, context);
    if (!after || !afterWords) return null;
    const values = { type: after.type ?? "other", sku: subjectOf(entry), after: afterWords };
    const before = entry.before == null ? null : read(moneySide, entry.before);
    const beforeWords = before && moneyWords(before, context);
    if (entry.before != null && !beforeWords) return null;
    const sentence = beforeWords
      ? context.t("sentences.price.changed", { ...values, before: beforeWords })
      : context.t("sentences.price.first", values);
    const confirmed = read(confirmedSide, entry.after);
    if (!confirmed) return sentence;
    const reasons = [...new Set(confirmed.confirmedPastGuard.map((reason) => reason.code))].map((code) =>
      (GUARD_REASON_CODES as readonly string[]).includes(code)
        ? context.t(`values.guardReasons.${code as (typeof GUARD_REASON_CODES)[number]}`)
        : context.t("values.other", { code }),
    );
    return context.t("sentences.price.confirmedPastGuard", { sentence, reasons: reasons.join(", ") });
  },
  "price.bulk": (entry, { t }) => {
    const after = read(bulkSide, entry.after);
    return (
      after &&
      t("sentences.price.bulk", { source: after.source ?? "other", sent: after.sent, failed: after.failed, skipped: after.skipped ?? 0 })
    );
  },
  "price.guardLimit": (entry, { t }) => {
    const before = read(limitSide, entry.before);
    const after = read(limitSide, entry.after);
    return before && after && t("sentences.price.guardLimit", { before: before.limitPercent, after: after.limitPercent });
  },
  "price.commissionRate": (entry, context) => {
    const before = read(rateSide, entry.before ?? { rateBps: null });
    const after = read(rateSide, entry.after);
    if (!before || !after) return null;
    return context.t("sentences.price.commissionRate", {
      after: rateWords(after.rateBps, context),
      before: entry.before == null ? "none" : rateWords(before.rateBps, context),
    });
  },
  "cost.set": (entry, context) => {
    const before = read(costSide, entry.before ?? { cost: null });
    const after = read(costSide, entry.after);
    if (!before || !after) return null;
    const words = (cost: number | null) => (cost === null ? "none" : (costWords(cost, context) ?? "none"));
    return context.t("sentences.cost.set", { sku: subjectOf(entry), before: words(before.cost), after: words(after.cost) });
  },
  "cost.bulk": (entry, { t }) => {
    const after = read(countSide, entry.after);
    return after && t("sentences.cost.bulk", { count: after.count });
  },
  "order.packing": (entry, { t }) => {
    const after = read(packingSide, entry.after);
    return after && t("sentences.order.packing", { count: after.orderIds.length, subject: subjectOf(entry), stage: after.stage });
  },
  "sku.create": (entry, { t }) => {
    const after = read(titleSide, entry.after);
    return after
      ? t("sentences.sku.createdWithTitle", { sku: subjectOf(entry), title: after.title })
      : t("sentences.sku.created", { sku: subjectOf(entry) });
  },
  "webhooks.settings": (entry, { t }) => {
    const beforeSide = read(callbackSide, entry.before ?? { url: null });
    const afterSide = read(callbackSide, entry.after ?? { url: null });
    if (!beforeSide || !afterSide) return null;
    const before = callbackWords(beforeSide, t);
    const after = callbackWords(afterSide, t);
    if (before !== null && after !== null) return t("sentences.webhooks.urlChanged", { before, after });
    if (after !== null) return t("sentences.webhooks.urlSet", { url: after });
    if (before !== null) return t("sentences.webhooks.urlRemoved", { url: before });
    return null;
  },
  "webhooks.rotate": (_entry, { t }) => t("sentences.webhooks.rotate"),
  "connection.connect": (entry, { t }) => {
    const after = read(connectSide, entry.after);
    return after && t(after.reconnect ? "sentences.connection.reconnect" : "sentences.connection.connect", { email: after.email });
  },
  "connection.disconnect": (_entry, { t }) => t("sentences.connection.disconnect"),
  "settings.timeZone": (entry, { t }) => {
    const before = read(timeZoneSide, entry.before);
    const after = read(timeZoneSide, entry.after);
    return before && after && t("sentences.settings.timeZone", { before: before.timeZone, after: after.timeZone });
  },
  "member.join": (entry, { t }) => {
    const after = read(roleSide, entry.after);
    return after && t("sentences.member.join", { name: subjectOf(entry), role: auditRoleWord(t, after.role) });
  },
  "member.role": (entry, { t }) => {
    const before = read(roleSide, entry.before);
    const after = read(roleSide, entry.after);
    return (
      before &&
      after &&
      t("sentences.member.role", { name: subjectOf(entry), before: auditRoleWord(t, before.role), after: auditRoleWord(t, after.role) })
    );
  },
  "member.remove": (entry, { t }) => {
    const before = read(roleSide, entry.before);
    return before && t("sentences.member.remove", { name: subjectOf(entry), role: auditRoleWord(t, before.role) });
  },
  "invitation.create": (entry, { t, format }) => {
    const after = read(invitationSide, entry.after);
    return after && after.expiresAt
      ? t("sentences.invitation.create", { role: auditRoleWord(t, after.role), expires: format.date(after.expiresAt) })
      : null;
  },
  "invitation.revoke": (entry, { t }) => {
    const before = read(roleSide, entry.before);
    return before && t("sentences.invitation.revoke", { role: auditRoleWord(t, before.role) });
  },
  "event.processAgain": (entry, { t }) => t("sentences.event.processAgain", { id: subjectOf(entry) }),
  "event.processAllDead": (entry, { t }) => {
    const after = read(countSide, entry.after);
    return after && t("sentences.event.processAllDead", { count: after.count });
  },
};

/** "count: 3, source: csv" */
export function plainWords(value: unknown, context: Context): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "string") return value === "" ? "—" : value;
  if (typeof value === "number") return Number.isFinite(value) ? context.format.count(value) : String(value);
  if (typeof value === "boolean") return context.t(value ? "values.yes" : "values.no");
  if (Array.isArray(value)) return value.length === 0 ? "—" : value.map((item) => plainWords(item, context)).join(", ");
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return "—";
    const parts = entries.map(([key, inner]) => {
      const words = plainWords(inner, context);
      return inner !== null && typeof inner === "object" && !Array.isArray(inner) ? `${key}: (${words})` : `${key}: ${words}`;
    });
    return parts.join(", ");
  }
  return String(value);
}

function genericSentence(entry: DescribableEntry, context: Context): string {
  const head = [auditActionWord(context.t, entry.action), entry.subject].filter(Boolean).join(" · ");
  const hasBefore = entry.before != null;
  const hasAfter = entry.after != null;
  if (!hasBefore && !hasAfter) return head;
  if (!hasBefore) return `${head}: ${plainWords(entry.after, context)}`;
  return `${head}: ${plainWords(entry.before, context)} → ${plainWords(entry.after, context)}`;
}

export function describeAuditEntry(entry: DescribableEntry, t: AuditWords, format: DisplayFormat): string {
  const context = { t, format };
  const sentence = isAuditAction(entry.action) ? SENTENCES[entry.action](entry, context) : null;
  return sentence ?? genericSentence(entry, context);
}

/** Words where the shape is known; otherwise compact JSON, which an integrator can read back. */
export function describeAuditSide(entry: DescribableEntry, side: "before" | "after", t: AuditWords, format: DisplayFormat): string {
  const value = entry[side];
  if (value === null || value === undefined) return "";
  const context = { t, format };
  const action = isAuditAction(entry.action) ? entry.action : null;
  if (action === "price.set") {
    const money = read(moneySide, value);
    const words = money && moneyWords(money, context);
    if (words) return words;
  }
  if (action === "cost.set") {
    const cost = read(costSide, value);
    if (cost) return cost.cost === null ? t("values.none") : (costWords(cost.cost, context) ?? JSON.stringify(value));
  }
  if (action === "invitation.create") {
    const invitation = read(invitationSide, value);
    if (invitation?.expiresAt)
      return t("values.roleUntil", { role: auditRoleWord(t, invitation.role), expires: format.date(invitation.expiresAt) });
  }
  if (
    action === "member.join" ||
    action === "member.role" ||
    action === "member.remove" ||
    action === "invitation.revoke" ||
    action === "invitation.create"
  ) {
    const role = read(roleSide, value);
    if (role) return auditRoleWord(t, role.role);
  }
  if (action === "webhooks.settings") {
    const side = read(callbackSide, value);
    if (side) return callbackWords(side, t) ?? t("values.none");
    // Whatever else it holds may be a URL with its key: never shown as it is.
    return "";
  }
  return JSON.stringify(value);
}
