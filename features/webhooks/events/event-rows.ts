// Not server-only: the event log table and lib/data both use it.
import type { TablePage } from "@/lib/tables/table-page";
import { idEnding, orderLabel } from "@/lib/words/order-reference";
import type { WebhookFields } from "@/features/webhooks/parse";

export type WebhookEventRow = WebhookFields & {
  id: string;
  receivedAt: string;
  valid: boolean;
  processingState: string;
  source: string;
  attempts: number;
  duplicateCount: number;
  /** Set when repeats of this body are folded into one processing at this instant (ISO). */
  heldUntil: string | null;
  /** The order's short reference (decision 0018), when the event names an order that has one. */
  orderReference: number | null;
};

export type EventPage = TablePage<WebhookEventRow>;

/** What an event is about, as the seller names it: the order's short reference, the SKU's code (never the platform's ids). */
export function eventSubject(row: Pick<WebhookEventRow, "orderId" | "orderReference" | "code" | "resourceId">): string {
  if (row.orderId) return orderLabel({ id: row.orderId, reference: row.orderReference });
  return row.code || (row.resourceId ? idEnding(row.resourceId) : "—");
}
