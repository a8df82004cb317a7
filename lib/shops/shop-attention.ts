// "The shop needs its owner" (issue 41): what stops a shop updating that only someone who may
// manage its connection can mend. One notification kind, "shop.attention"; its subject is the
// cause, then what makes this occurrence its own (a time, the scopes), so each is told once.
// Pure: the writers (lib/shops/shop-attention.server.ts), the inbox, e-mail and push read it.

export const SHOP_ATTENTION_KIND = "shop.attention";

/**
 * "reconnect": the platform no longer accepts the connection. "permissions": the connection lacks
 * a permission a call needed. "callback": the platform's callback URL no longer points here, so
 * orders arrive only by reconciliation. "deadEvents": platform notifications gave up after their
 * attempts.
 */
export const ATTENTION_CAUSES = ["reconnect", "permissions", "callback", "deadEvents"] as const;
export type AttentionCause = (typeof ATTENTION_CAUSES)[number];

/** The SQL text of a subject: `cause` literal, `occurrence` an SQL expression. */
export function attentionSubjectSql(cause: AttentionCause, occurrence: string): string {
  return `'${cause}:' || (${occurrence})`;
}

/** Null for a subject no cause starts (none is written). */
export function attentionCauseOf(subject: string | null): AttentionCause | null {
  if (subject === null) return null;
  const cause = subject.slice(0, subject.indexOf(":"));
  return (ATTENTION_CAUSES as readonly string[]).includes(cause) ? (cause as AttentionCause) : null;
}

/**
 * A stored notification's cause. Every row has one (the migration that made this kind gave the
 * older "connect again" rows theirs); a subject without one reads as "reconnect".
 */
export function causeOfNotification(subject: string): AttentionCause {
  return attentionCauseOf(subject) ?? "reconnect";
}

/** The shop's page that mends the cause, under /s/{shop}. */
export function attentionPath(cause: AttentionCause): string {
  if (cause === "callback") return "/webhooks";
  if (cause === "deadEvents") return "/webhooks/events?processing=dead";
  return "/settings";
}
