import { z } from "zod";

// What an open dashboard is told through its server-sent-events stream, one message per processed
// webhook event, typed by the resource it concerns ("event" when none). The server writes these
// and the browser reads them: both go through this schema, so neither side guesses the shape.

const orderMessage = z.object({
  type: z.literal("order"),
  eventId: z.string(),
  domain: z.string(),
  status: z.string(),
  orderId: z.string(),
  deliveryId: z.string().nullable(),
  /** A change no notification told, found by reconciliation. */
  source: z.literal("reconciliation").optional(),
});
const priceMessage = z.object({ type: z.literal("price"), eventId: z.string(), status: z.string(), priceId: z.string(), sku: z.string().nullable() });
const skuMessage = z.object({ type: z.literal("sku"), eventId: z.string(), status: z.string(), skuId: z.string(), code: z.string().nullable() });
const eventMessage = z.object({ type: z.literal("event"), eventId: z.string(), domain: z.string().nullable(), status: z.string().nullable() });

export const liveMessageSchema = z.discriminatedUnion("type", [orderMessage, priceMessage, skuMessage, eventMessage]);

export type LiveMessage = z.infer<typeof liveMessageSchema>;
export type LiveMessageType = LiveMessage["type"];
export const LIVE_MESSAGE_TYPES = ["order", "price", "sku", "event"] as const satisfies readonly LiveMessageType[];

export interface SellerLiveMessage {
  sellerId: string;
  message: LiveMessage;
}

/** A message as a stream sends it: `id` is the SSE event id, increasing, for Last-Event-ID. */
export interface LiveEnvelope {
  id: string;
  message: LiveMessage;
}

/** The SSE frame of a message: its type is the event name, so a page listens only to what it needs. */
export function liveFrame({ id, message }: LiveEnvelope): string {
  return `id: ${id}\nevent: ${message.type}\ndata: ${JSON.stringify(message)}\n\n`;
}

/** A received frame's data as a message, or null when it is not one (a newer server, a broken frame). */
export function readLiveMessage(data: string): LiveMessage | null {
  try {
    const parsed = liveMessageSchema.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
