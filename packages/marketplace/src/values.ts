// Without zod, so browser code that only needs the values does not download it.

export const ORDER_STATUSES = ["new", "approved", "cancelled", "finished"] as const;

export const PRICE_TYPES = ["list", "sell"] as const;

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
