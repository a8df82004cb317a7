import { describe, expect, it } from "vitest";
import { ROLES } from "@/lib/people/roles";
import type { Role } from "@/lib/people/roles";
import { LIVE_MESSAGE_TYPES, liveFrame, mayReceiveLiveMessage, readLiveMessage } from "@/features/webhooks/live/live-messages";
import type { LiveMessage, LiveMessageType } from "@/features/webhooks/live/live-messages";

const messages: LiveMessage[] = [
  { type: "order", eventId: "e1", domain: "order.order", status: "new", orderId: "o1", deliveryId: null },
  { type: "order", eventId: "e2", domain: "order.delivery", status: "posted", orderId: "o1", deliveryId: "d1", source: "reconciliation" },
  { type: "price", eventId: "e3", status: "updated", priceId: "p1", sku: "SKU-1" },
  { type: "sku", eventId: "e4", status: "created", skuId: "s1", code: null },
  { type: "event", eventId: "e5", domain: null, status: null },
];

describe("live messages", () => {
  it.each(messages)("a $type message survives the stream's frame as it was sent", (message) => {
    const frame = liveFrame({ id: "42", message });
    expect(frame).toMatch(new RegExp(`^id: 42\\nevent: ${message.type}\\ndata: .+\\n\\n$`));
    const data = /\ndata: (.+)\n/.exec(frame)![1]!;
    expect(readLiveMessage(data)).toEqual(message);
  });

  it.each([
    ["not JSON", "{"],
    ["an unknown type", JSON.stringify({ type: "refund", eventId: "e" })],
    ["an order without its id", JSON.stringify({ type: "order", eventId: "e", domain: "order.order", status: "new", deliveryId: null })],
    ["a number for a status", JSON.stringify({ type: "price", eventId: "e", status: 3, priceId: "p", sku: null })],
  ])("reads %s as no message", (_, data) => {
    expect(readLiveMessage(data)).toBeNull();
  });
});

describe("who is sent which live messages", () => {
  // Decision 0010's table: operations sees orders, not prices, SKUs or the event log.
  const sent: Record<Role, LiveMessageType[]> = {
    owner: ["order", "price", "sku", "event"],
    manager: ["order", "price", "sku", "event"],
    operations: ["order"],
    viewer: ["order", "price", "sku", "event"],
  };

  it.each(ROLES)("a stream of %s carries only the types of the pages it may open", (role) => {
    expect(LIVE_MESSAGE_TYPES.filter((type) => mayReceiveLiveMessage(role, type))).toEqual(sent[role]);
  });
});
