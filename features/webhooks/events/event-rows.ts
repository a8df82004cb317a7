// Not server-only: the event log table and lib/data both use it.
import type { TablePage } from "@/lib/tables/table-page";
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
};

export type EventPage = TablePage<WebhookEventRow>;
