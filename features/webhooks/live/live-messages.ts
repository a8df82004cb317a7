// zod's "mini" build: this module is in every shop page's JavaScript (the live updates), where the
// full build cost about 30 kB gzipped for four small objects (bench:mobile, issue 40).
import * as z from "zod/mini";
import { can } from "@/lib/people/roles";
import type { Capability, Role } from "@/lib/people/roles";

// The server writes these and the browser reads them through one schema, so neither guesses the shape.

const orderMessage = z.object({
  type: z.literal("order"),
  eventId: z.string(),
  domain: z.string(),
  status: z.string(),
  orderId: z.string(),
  deliveryId: z.nullable(z.string()),
  /** A change no notification told, found by reconciliation. */
  source: z.optional(z.literal("reconciliation")),
});
const priceMessage = z.object({
  type: z.literal("price"),
  eventId: z.string(),
  status: z.string(),
  priceId: z.string(),
  sku: z.nullable(z.string()),
});
const skuMessage = z.object({
  type: z.literal("sku"),
  eventId: z.string(),
  status: z.string(),
  skuId: z.string(),
  code: z.nullable(z.string()),
});
const eventMessage = z.object({
  type: z.literal("event"),
  eventId: z.string(),
  domain: z.nullable(z.string()),
  status: z.nullable(z.string()),
});

export const liveMessageSchema = z.discriminatedUnion("type", [orderMessage, priceMessage, skuMessage, eventMessage]);

export type LiveMessage = z.infer<typeof liveMessageSchema>;
export type LiveMessageType = LiveMessage["type"];
export const LIVE_MESSAGE_TYPES = ["order", "price", "sku", "event"] as const satisfies readonly LiveMessageType[];

/**
 * The capability a stream's role needs to be sent each type (decision 0010): the page that listens to
 * it shows no more. A new type in the schema does not compile until it has its row here.
 */
export const LIVE_MESSAGE_CAPABILITY = {
  order: "orders.view",
  price: "prices.view",
  sku: "skus.view",
  event: "events.view",
} as const satisfies Record<LiveMessageType, Capability>;

export function mayReceiveLiveMessage(role: Role, type: LiveMessageType): boolean {
  return can(role, LIVE_MESSAGE_CAPABILITY[type]);
}

export interface ShopLiveMessage {
  sellerId: string;
  message: LiveMessage;
}

/** `id` is the SSE event id, increasing, for Last-Event-ID. */
export interface LiveEnvelope {
  id: string;
  message: LiveMessage;
}

/** The type is the event name, so a page listens only to what it needs. */
export function liveFrame({ id, message }: LiveEnvelope): string {
  return `id: ${id}\nevent: ${message.type}\ndata: ${JSON.stringify(message)}\n\n`;
}

/** Null for a frame that is not one (a newer server, a broken frame). */
export function readLiveMessage(data: string): LiveMessage | null {
  try {
    const parsed = liveMessageSchema.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
