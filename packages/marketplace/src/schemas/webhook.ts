// Webhook notifications and the callback URL resource (spec: Events; Endpoint 10).
import { z } from "zod";
import { WEBHOOK_DOMAINS } from "../values";

export const WEBHOOK_SIGNATURE_HEADER = "X-SVC-Signature";

/** Allowed statuses per domain (spec: Events → Domains and statuses). */
export { WEBHOOK_DOMAINS };
export type WebhookDomain = keyof typeof WEBHOOK_DOMAINS;
export const webhookDomainSchema = z.enum(Object.keys(WEBHOOK_DOMAINS) as [WebhookDomain, ...WebhookDomain[]]);

/** Order messages: `order_id` and, for delivery events, `delivery_id`. An example uses domain `order`. */
export const orderWebhookDataSchema = z.object({
  domain: z.union([z.literal("order"), z.literal("order.order"), z.literal("order.delivery"), z.literal("order.shipping")]),
  status: z.string(),
  order_id: z.string(),
  delivery_id: z.string().optional(),
});

/** Other messages: `id` of the affected resource and its `code` (for instance the SKU code). */
export const resourceWebhookDataSchema = z.object({
  domain: z.string(),
  status: z.string(),
  id: z.string(),
  code: z.string().optional(),
});

/** `{data:{...}}` in either form; order form first because it is the stricter one. */
export const webhookMessageSchema = z.object({ data: z.union([orderWebhookDataSchema, resourceWebhookDataSchema]) });
export type WebhookMessage = z.infer<typeof webhookMessageSchema>;
export type WebhookData = WebhookMessage["data"];

export const webhookUrlSchema = z
  .url({ protocol: /^https?$/, error: "must be an absolute http(s) URL" })
  .max(2048, "must be at most 2048 characters");

export const webhookUrlRequestSchema = z.object({ url: webhookUrlSchema });
export const webhookUrlSetResponseSchema = z.object({ message: z.string(), url: z.string() });
/** GET answers `{url: null}` when no URL is configured (a sandbox choice; the spec shows only the set case). */
export const webhookUrlGetResponseSchema = z.object({ url: z.string().nullable() });
export const webhookUrlDeleteResponseSchema = z.object({ message: z.string() });
