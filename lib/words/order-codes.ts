// The order codes we have words for (lib/words/order-words.ts): any other shows marked.
import { WEBHOOK_DOMAINS } from "@marketplace/api/values";

/** Both notification domains' states: an order's delivery does not say which kind it is. */
export const DELIVERY_STATUSES = [...new Set([...WEBHOOK_DOMAINS["order.delivery"], ...WEBHOOK_DOMAINS["order.shipping"]])];

/** The spec names no payment methods: these are the ones the sandbox seeds, and the usual Brazilian ones. */
export const PAYMENT_METHODS = ["credit_card", "debit_card", "pix", "boleto"] as const;

/** The spec shows `value` only; `percentage` is the other kind a commission has. */
export const COMMISSION_TYPES = ["value", "percentage"] as const;

/** `dropoff` is the platform's; `seller` is how the sandbox marks a delivery the seller arranges (sandbox/seed/orders.ts). */
export const PICKUP_METHODS = ["dropoff", "seller"] as const;

export const MEASURE_UNITS = ["PC", "UN"] as const;

export const DURATION_PRECISIONS = ["days", "hours"] as const;
