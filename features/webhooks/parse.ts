// Spec: Events → Message shape. Never throws: an authentic body of unknown shape is still stored,
// marked invalid with the reason, so nothing the platform sends is lost.
import { z } from "zod";
import { WEBHOOK_DOMAINS } from "@marketplace/api/schemas/webhook";
import type { WebhookDomain } from "@marketplace/api/schemas/webhook";
import { formatFieldPath } from "@marketplace/api/schemas/field-path";

export interface WebhookFields {
  domain: string | null;
  status: string | null;
  resourceId: string | null;
  code: string | null;
  orderId: string | null;
  deliveryId: string | null;
}

export type StoredEvent = WebhookFields & { id: string; sellerId: string; valid: boolean };

export type ParsedWebhook = WebhookFields & { valid: boolean; invalidReason: string | null };

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** PostgreSQL text holds no NUL or lone surrogate, which JSON can spell: U+FFFD, not a refusal forever. */
export function storableText(text: string): string {
  return text.replaceAll("\u0000", "\uFFFD").replace(LONE_SURROGATE, "\uFFFD");
}

const storableString = z.string().transform(storableText);
const idString = z.string().min(1).max(200).pipe(storableString);

// Both forms of the spec: order messages carry order_id/delivery_id, the others id/code. Extra
// fields are tolerated (the reference structure may grow); missing ids are not.
const dataSchema = z.object({
  domain: z.string().min(1).max(100).pipe(storableString),
  status: z.string().min(1).max(100).pipe(storableString),
  order_id: idString.optional(),
  delivery_id: idString.optional(),
  id: idString.optional(),
  code: z.string().max(200).pipe(storableString).optional(),
});
const messageSchema = z.object({ data: dataSchema });

const EMPTY: WebhookFields = { domain: null, status: null, resourceId: null, code: null, orderId: null, deliveryId: null };

function isKnownDomain(domain: string): domain is WebhookDomain {
  return Object.hasOwn(WEBHOOK_DOMAINS, domain);
}

export function parseWebhookBody(rawBody: string): ParsedWebhook {
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    return { ...EMPTY, valid: false, invalidReason: "The body is not valid JSON" };
  }
  const parsed = messageSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = formatFieldPath(issue?.path ?? []) || "body";
    return { ...EMPTY, valid: false, invalidReason: `Not a known message shape: ${where}: ${issue?.message ?? "invalid"}` };
  }
  const data = parsed.data.data;
  // One example of the spec sends domain `order` for order.order events.
  const domain = data.domain === "order" ? "order.order" : data.domain;
  const isOrder = domain.startsWith("order.");
  const orderId = isOrder ? (data.order_id ?? data.id ?? null) : null;
  const fields: WebhookFields = {
    domain,
    status: data.status,
    resourceId: isOrder ? (data.delivery_id ?? orderId) : (data.id ?? null),
    code: data.code ?? null,
    orderId,
    deliveryId: isOrder ? (data.delivery_id ?? null) : null,
  };

  if (!isKnownDomain(domain)) return { ...fields, valid: false, invalidReason: `Unknown domain "${data.domain}"` };
  const statuses: readonly string[] = WEBHOOK_DOMAINS[domain];
  if (!statuses.includes(data.status)) {
    return { ...fields, valid: false, invalidReason: `Status "${data.status}" is not one of ${domain}'s: ${statuses.join(", ")}` };
  }
  if (isOrder && !orderId) return { ...fields, valid: false, invalidReason: "An order message without order_id or id" };
  if (!isOrder && !data.id) return { ...fields, valid: false, invalidReason: "A message without id" };
  return { ...fields, valid: true, invalidReason: null };
}
