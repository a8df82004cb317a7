// The spec's enumerations as plain values (spec: Resources; Events → Domains and statuses). The
// schemas build on them; browser code that only needs the values (a filter's choices) imports
// them from here and does not download zod.

export const ORDER_STATUSES = ["new", "approved", "cancelled", "finished"] as const;

export const PRICE_TYPES = ["list", "sell"] as const;

/** Every notification domain and the statuses it carries. */
export const WEBHOOK_DOMAINS = {
  "order.order": ["new", "approved", "cancelled", "finished"],
  "order.delivery": ["created", "received", "posted", "delivered"],
  "order.shipping": ["shipped", "delivered"],
  "portfolio.sku": ["created"],
  "portfolio.ad": ["created", "updated", "highlighted"],
  "portfolio.price": ["created", "updated"],
  "portfolio.inventory": ["created", "updated", "increased", "decreased"],
  chat: ["new_conversation", "message_received"],
  ticket: ["opened", "closed", "updated"],
} as const satisfies Record<string, readonly string[]>;

