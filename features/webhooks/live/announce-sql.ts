// The end of a statement that wrote live messages: it announces them to every instance with
// NOTIFY, delivered at COMMIT, so a page never hears of processing that did not stick.
import { LIVE_CHANNEL } from "@/lib/db-channels";

/**
 * Several messages per NOTIFY cost every instance less. PostgreSQL refuses 8,000 bytes; a message
 * is at most ~4,000 (features/webhooks/parse.ts caps its fields), so a chunk stays under the limit.
 */
const NOTIFY_CHUNK_BYTES = 4_000;

/** Ends a statement whose CTE `inserted` wrote LiveMessage rows. */
export const ANNOUNCE_INSERTED_MESSAGES = `
  SELECT pg_notify('${LIVE_CHANNEL}', json_agg(json_build_object('id', "id"::text, 'sellerId', "sellerId", 'message', "payload") ORDER BY "id")::text)
  FROM (SELECT *, SUM(octet_length("payload"::text) + 100) OVER (ORDER BY "id") / ${NOTIFY_CHUNK_BYTES} AS chunk FROM inserted) AS numbered
  GROUP BY chunk`;
