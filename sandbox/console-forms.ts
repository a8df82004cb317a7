// The console's forms and queries as zod schemas that turn strings into the control API's bodies.
// Rules the control API checks are left to it (its 400 names the field), so they are not copied here.
import { zValidator } from "@hono/zod-validator";
import type { Context } from "hono";
import { z } from "zod";
import { objectIdSchema } from "@marketplace/api/schemas/common";
import { formatIssuePath } from "@marketplace/api/schemas/field-path";
import { deliveryStatusSchema, orderStatusSchema } from "@marketplace/api/schemas/order";
import { WEBHOOK_DOMAINS, webhookDomainSchema } from "@marketplace/api/schemas/webhook";
import { shippingStatusSchema } from "./control";
import { faultsPatchSchema, type FaultsPatch } from "./faults";
import type { WebhookDelivery } from "./webhooks";

/** Field name → message, for the messages shown next to fields. */
export type FieldErrors = Record<string, string>;

export interface InputProblem {
  /** One sentence naming every field in error. */
  message: string;
  fieldErrors: FieldErrors;
}

/** zod issues (or the control API's `details`) as a sentence and per-field messages, keyed by the field's first path segment. */
export function describeProblems(issues: readonly { field: string; message: string }[], labels: Record<string, string> = {}): InputProblem {
  const fieldErrors: FieldErrors = {};
  for (const { field, message } of issues) {
    const key = field.split(/[.[]/)[0] ?? field;
    fieldErrors[key] ??= message;
  }
  const parts = issues.map(({ field, message }) => {
    const key = field.split(/[.[]/)[0] ?? field;
    return `${labels[key] ?? field}: ${message}`;
  });
  return { message: `Please correct: ${parts.join("; ")}.`, fieldErrors };
}

export function zodProblems(error: { issues: readonly z.core.$ZodIssue[] }, labels: Record<string, string> = {}): InputProblem {
  return describeProblems(
    error.issues.map((issue) => ({ field: formatIssuePath(issue.path), message: issue.message })),
    labels,
  );
}

/** A form or query value: trimmed; a blank field is the same as a missing one. */
function blankAsMissing<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (typeof value === "string" ? (value.trim() === "" ? undefined : value.trim()) : value), schema.optional());
}

/** A number typed into a form; blank or missing gives `blank`. */
function numberField<Blank extends number | null>(blank: Blank) {
  return z
    .string()
    .optional()
    .transform((value, ctx) => {
      const text = (value ?? "").trim();
      if (text === "") return blank as number | Blank;
      const number = Number(text);
      if (!Number.isFinite(number)) {
        ctx.issues.push({ code: "custom", input: value, message: "must be a number" });
        return z.NEVER;
      }
      return number;
    });
}

/** A checkbox: present ("on", the HTML default value) when checked, absent when not. */
const checkboxField = z
  .enum(["on"], { error: "must be checked or left out" })
  .optional()
  .transform((value) => value === "on");

export const DELIVERY_OUTCOMES = [
  "pending",
  "delivering",
  "delivered",
  "failed",
  "dropped",
] as const satisfies readonly WebhookDelivery["state"][];

/** Every status an event of some domain can have (spec: Events → Domains and statuses). */
export const EVENT_STATUSES: readonly string[] = [...new Set(Object.values(WEBHOOK_DOMAINS).flat())].sort();

export const DELIVERY_LOG_PAGE_SIZE = 50;

/** The delivery log's URL: filters, page, and the id of a message left by the action that led here. */
export const deliveryLogQuerySchema = z.strictObject({
  seller: blankAsMissing(z.string().max(200)),
  domain: blankAsMissing(webhookDomainSchema),
  status: blankAsMissing(z.enum(EVENT_STATUSES as [string, ...string[]])),
  outcome: blankAsMissing(z.enum(DELIVERY_OUTCOMES)),
  page: blankAsMissing(z.coerce.number().int().min(1).max(1_000_000)),
  notice: blankAsMissing(z.string().max(64)),
});
export type DeliveryLogQuery = z.infer<typeof deliveryLogQuerySchema>;
export const DELIVERY_FILTER_LABELS: Record<string, string> = {
  seller: "Seller",
  domain: "Domain",
  status: "Status",
  outcome: "Outcome",
  page: "Page",
};

/** Resend button: the delivery and the filters of the log it was pressed on (to return to them). */
export const resendFormSchema = deliveryLogQuerySchema
  .pick({ seller: true, domain: true, status: true, outcome: true })
  .extend({ delivery: objectIdSchema });

/** The orders page's URL: whose newest orders to list, which order to open. */
export const ordersPageQuerySchema = z.strictObject({
  seller: blankAsMissing(z.string().max(200)),
  order: blankAsMissing(objectIdSchema),
  notice: blankAsMissing(z.string().max(64)),
});
export type OrdersPageQuery = z.infer<typeof ordersPageQuerySchema>;

/** Other pages only carry a notice. */
export const noticeQuerySchema = z.strictObject({ notice: blankAsMissing(z.string().max(64)) });

/** → `POST /_sandbox/orders`. The control API checks the seller and the count's range. */
export const createOrdersFormSchema = z.strictObject({
  seller: z.string({ error: "is required" }).trim().min(1, "is required"),
  count: numberField(1),
});
export const ORDER_FORM_LABELS: Record<string, string> = {
  seller: "Seller",
  count: "Count",
  order: "Order",
  delivery: "Delivery",
  status: "Status",
};

/** → `POST /_sandbox/orders/{order}/status`. */
export const orderStatusFormSchema = z.strictObject({
  order: z.string({ error: "is required" }).trim().pipe(objectIdSchema),
  status: orderStatusSchema,
});

/** → `POST /_sandbox/orders/{order}/deliveries/{delivery}/status`. */
export const deliveryStatusFormSchema = orderStatusFormSchema.extend({
  delivery: z.string({ error: "is required" }).trim().pipe(objectIdSchema),
  status: deliveryStatusSchema,
});

/** → `POST /_sandbox/orders/{order}/deliveries/{delivery}/shipping`: a shipment the seller arranges. */
export const shipmentStatusFormSchema = deliveryStatusFormSchema.extend({ status: shippingStatusSchema });

/** → `POST /_sandbox/clock`. The control API checks the range. */
export const clockFormSchema = z.strictObject({ advanceSeconds: numberField(null).pipe(z.number({ error: "is required" })) });

/** → `POST /_sandbox/reset`; blank keeps the configured number of seeded orders. */
export const resetFormSchema = z
  .strictObject({ seedOrders: numberField(null) })
  .transform(({ seedOrders }) => (seedOrders === null ? {} : { seedOrders }));

/** `[{"field": ..., "message": ...}]` typed into a text area; blank = no fault. */
const rejectSkusField = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const text = (value ?? "").trim();
    if (text === "") return null as FaultsPatch["rejectSkus"];
    try {
      // Typed as what the pipe into faultsPatchSchema expects, which is where it is checked.
      return JSON.parse(text) as FaultsPatch["rejectSkus"];
    } catch {
      ctx.issues.push({ code: "custom", input: value, message: 'must be JSON, e.g. [{"field": "title", "message": "is not allowed"}]' });
      return z.NEVER;
    }
  });

/** Delivery ids typed into a text area, one a line (spaces or commas also separate them); blank = no fault. */
const failLabelsField = z
  .string()
  .optional()
  .transform((value) => {
    const ids = (value ?? "").split(/[\s,]+/).filter((id) => id !== "");
    return ids.length === 0 ? null : ids;
  });

/**
 * → `POST /_sandbox/faults` with every field: the form shows all the faults, so submitting it sets
 * all of them (an unchecked box or a blank field is "no fault"). Rules from faultsPatchSchema.
 */
export const faultsFormSchema = z
  .strictObject({
    errorRate: numberField(0),
    latencyMs: numberField(0),
    importDown: checkboxField,
    rejectSkus: rejectSkusField,
    rateLimitPerMinute: numberField(null),
    duplicateWebhooks: checkboxField,
    dropWebhookRate: numberField(0),
    reorderWebhooks: checkboxField,
    maintenance: checkboxField,
    failLabels: failLabelsField,
    labelLatencyMs: numberField(0),
  })
  // Every field given, as the patch's input type (zod's pipe wants the two types to match exactly).
  .transform((form): z.input<typeof faultsPatchSchema> => form)
  .pipe(faultsPatchSchema);

export const FAULT_LABELS: Record<string, string> = {
  errorRate: "Error rate",
  latencyMs: "Latency (ms)",
  importDown: "SKU import down",
  rejectSkus: "Reject SKUs",
  rateLimitPerMinute: "Rate limit per minute",
  duplicateWebhooks: "Duplicate webhooks",
  dropWebhookRate: "Drop webhook rate",
  reorderWebhooks: "Reorder webhooks",
  maintenance: "Maintenance",
  failLabels: "Failing labels",
  labelLatencyMs: "Label latency (ms)",
};

/**
 * Validates a form body (`target: "form"`) or the query (`"query"`) with `schema`; on failure
 * answers what `invalid` renders (the page again, with the problem and what was typed).
 */
export function consoleInput<T extends z.ZodType, Target extends "form" | "query">(
  target: Target,
  schema: T,
  invalid: (c: Context, problem: InputProblem, raw: Record<string, unknown>) => Response | Promise<Response>,
  labels: Record<string, string> = {},
) {
  return zValidator(target, schema, async (result, c) => {
    if (!result.success) return invalid(c, zodProblems(result.error, labels), result.data as Record<string, unknown>);
  });
}

/** A raw form or query value as the text to put back into its field (repeated values: the first). */
export function typed(raw: Record<string, unknown>, name: string): string | undefined {
  const value = raw[name];
  const first = Array.isArray(value) ? (value[0] as unknown) : value;
  return typeof first === "string" ? first : undefined;
}
