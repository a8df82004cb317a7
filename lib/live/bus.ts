import "server-only";
import { EventEmitter } from "node:events";

/** What an open dashboard is told, through its server-sent-events stream. */
export type LiveMessage =
  | { type: "order"; domain: string; status: string; orderId: string; deliveryId: string | null }
  | { type: "price"; status: string; priceId: string; sku: string | null }
  | { type: "sku"; status: string; skuId: string; code: string | null }
  | { type: "event"; eventId: string; domain: string | null; status: string | null };

// In-process fan-out: every dashboard stream of a seller in this server process hears what the
// receiver in this process processes. Running several instances needs a shared channel
// (e.g. Redis pub/sub) in its place; noted in docs/decisions/0002-webhooks.md.
const globalForBus = globalThis as unknown as { liveBus?: EventEmitter };
const bus = globalForBus.liveBus ?? new EventEmitter();
bus.setMaxListeners(0);
globalForBus.liveBus = bus;

export function publishToSeller(sellerId: string, message: LiveMessage) {
  bus.emit(`seller:${sellerId}`, message);
}

export function subscribeToSeller(sellerId: string, listener: (message: LiveMessage) => void): () => void {
  const channel = `seller:${sellerId}`;
  bus.on(channel, listener);
  return () => bus.off(channel, listener);
}
