import "server-only";
import { createHash, randomUUID } from "node:crypto";
import { ANNOUNCE_INSERTED_MESSAGES } from "@/features/webhooks/live/announce-sql";
import { DB_NOW, pool } from "@/lib/pg-pool.server";

// What reconciliation writes into the event log: the changes it found that no notification told,
// as processed events with the body the platform would have sent, and the orders it leaves to an
// event still waiting in the queue.

export interface ReconciledOrder {
  orderId: string;
  status: string;
  updatedAt: string;
}

/** A processed event and live message per order, in one statement, with the body the platform would have sent. */
export async function recordReconciledEvents(shopId: string, orders: readonly ReconciledOrder[]): Promise<void> {
  if (orders.length === 0) return;
  const rows = orders.map((order) => {
    const rawBody = JSON.stringify({
      data: { domain: "order.order", status: order.status, order_id: order.orderId },
      updated_at: order.updatedAt,
    });
    return { ...order, id: randomUUID(), rawBody, bodyHash: createHash("sha256").update(rawBody).digest("hex") };
  });
  await pool.query({
    name: "webhook_event_reconciled",
    text: `
      WITH recorded AS (
        INSERT INTO "WebhookEvent" ("id", "sellerId", "source", "receivedAt", "lastReceivedAt", "domain", "status", "resourceId",
          "orderId", "rawBody", "bodyHash", "headers", "signatureResult", "valid", "processingState", "processedAt", "attempts")
        SELECT r.id, $1, 'reconciliation', ${DB_NOW}, ${DB_NOW}, 'order.order', r.status, r."orderId", r."orderId",
               r."rawBody", r."bodyHash", '{}', 'none', true, 'processed', ${DB_NOW}, 1
        FROM json_to_recordset($2::json) AS r(id text, "orderId" text, status text, "rawBody" text, "bodyHash" text)
        RETURNING "id", "status", "orderId"
      ),
      inserted AS (
        INSERT INTO "LiveMessage" ("sellerId", "payload", "createdAt")
        SELECT $1, json_build_object('type', 'order', 'eventId', "id", 'domain', 'order.order', 'status', "status",
                                     'orderId', "orderId", 'deliveryId', NULL, 'source', 'reconciliation')::jsonb, ${DB_NOW}
        FROM recorded
        RETURNING "id", "sellerId", "payload"
      )
      ${ANNOUNCE_INSERTED_MESSAGES}`,
    values: [shopId, JSON.stringify(rows)],
  });
}

/** Orders with an event still to be processed: that event explains them, and will update the mirror. */
export async function ordersWithWaitingEvents(shopId: string, orderIds: readonly string[]): Promise<Set<string>> {
  if (orderIds.length === 0) return new Set();
  const result = await pool.query<{ orderId: string }>(
    `SELECT DISTINCT e."orderId" FROM "WebhookEvent" e JOIN "WebhookWork" w ON w."eventId" = e."id"
     WHERE e."sellerId" = $1 AND e."orderId" = ANY($2::text[]) AND e."processingState" IN ('pending', 'processing', 'retrying')`,
    [shopId, orderIds],
  );
  return new Set(result.rows.map((row) => row.orderId));
}
