import "server-only";
import { randomUUID } from "node:crypto";
import { CLAIM_LEASE_SECONDS, ORPHAN_AFTER_SECONDS } from "@/features/webhooks/process/queue.server";
import { env } from "@/lib/env";
import { WORK_CHANNEL } from "@/lib/db-channels";
import { metrics } from "@/lib/metrics.server";
import { DB_NOW, RECEIVER_WRITES_IN_FLIGHT, receiverPool } from "@/lib/pg-pool.server";
import { storableText } from "@/features/webhooks/parse";
import type { ParsedWebhook } from "@/features/webhooks/parse";

// The receiver's hot path (decision 0002): one prepared statement per batch on a pool of its own,
// one round trip and one commit. Its SQL follows prisma/schema.prisma by hand.

/**
 * Group commit: events arriving while a write is in flight go in together, as one JSON parameter
 * (cheaper on this thread than pg's escaping of text arrays). A repeat of an event still waiting
 * only bumps its duplicateCount; after take-up it is a new receipt (decision 0004). Whether a body
 * waits is its queue row's: the queue row goes in first, and on conflict names the waiting event.
 * The event's row follows in the same statement (foreign keys are checked at its end), also as
 * `INSERT … ON CONFLICT`: unlike an UPDATE, that counts a copy on a receipt another batch
 * committed after this statement began. `(xmax = 0)` tells an inserted row from an updated one.
 * Unclaimed events are announced on WORK_CHANNEL at COMMIT. A body stored
 * WEBHOOK_REPLAY_LIMIT_PER_MINUTE times this minute is held to the minute's end, so later copies
 * coalesce into it.
 */
export const receiverBatchStatement = {
  name: "webhook_event_upsert_batch",
  text: `
    WITH batch AS (
      SELECT * FROM json_to_recordset($1::json) AS batch(
        id text, seller_id text, received_at text, domain text, status text, resource_id text, code text,
        order_id text, delivery_id text, raw_body text, body_hash text, headers text, valid boolean,
        invalid_reason text, repeats int, claimed_by text)
    ),
    counted AS (
      SELECT batch.*, CASE WHEN (
        SELECT count(*) FROM "WebhookEvent" earlier
        WHERE earlier."sellerId" = batch.seller_id AND earlier."bodyHash" = batch.body_hash
          AND earlier."receivedAt" >= date_trunc('minute', batch.received_at::timestamp(3))
      ) >= $4::int THEN date_trunc('minute', batch.received_at::timestamp(3)) + interval '1 minute' END AS held_until
      FROM batch
    ),
    queued AS (
      INSERT INTO "WebhookWork" ("eventId", "sellerId", "waitingHash", "claimedBy", "availableAt")
      SELECT id, seller_id, body_hash, CASE WHEN held_until IS NULL THEN claimed_by END,
             CASE WHEN held_until IS NOT NULL THEN held_until
                  ELSE ${DB_NOW} + make_interval(secs => CASE WHEN claimed_by IS NULL THEN $3::float8 ELSE $2::float8 END) END
      FROM counted
      ON CONFLICT ("sellerId", "waitingHash") DO UPDATE SET "waitingHash" = excluded."waitingHash"
      RETURNING "eventId", "sellerId", "waitingHash", (xmax = 0) AS inserted, "claimedBy"
    ),
    stored AS (
      INSERT INTO "WebhookEvent" (
        "id", "sellerId", "receivedAt", "lastReceivedAt", "domain", "status", "resourceId", "code",
        "orderId", "deliveryId", "rawBody", "bodyHash", "headers", "signatureResult", "valid",
        "invalidReason", "processingState", "duplicateCount", "heldUntil"
      )
      SELECT queued."eventId", seller_id, received_at::timestamp(3), received_at::timestamp(3), domain, status, resource_id, code,
             order_id, delivery_id, raw_body, body_hash, headers, 'valid', valid,
             invalid_reason, 'pending', repeats, held_until
      FROM counted JOIN queued ON queued."sellerId" = counted.seller_id AND queued."waitingHash" = counted.body_hash
      ON CONFLICT ("id") DO UPDATE SET
        "duplicateCount" = "WebhookEvent"."duplicateCount" + 1 + excluded."duplicateCount",
        "lastReceivedAt" = excluded."lastReceivedAt"
      RETURNING "id", "sellerId", "bodyHash", (xmax = 0) AS inserted, "heldUntil"
    ),
    announced AS (
      SELECT pg_notify('${WORK_CHANNEL}', '1') FROM queued WHERE inserted AND "claimedBy" IS NULL LIMIT 1
    )
    SELECT stored.* FROM stored, (SELECT COUNT(*) FROM announced) AS announcement`,
};

export interface NewWebhookEvent {
  sellerId: string;
  receivedAt: Date;
  rawBody: string;
  bodyHash: string;
  headers: Record<string, string>;
  parsed: ParsedWebhook;
  /** It holds the claim from the start; null leaves the event to any sweep. */
  claimedBy: string | null;
}

export interface StoredWebhookEvent {
  id: string;
  duplicate: boolean;
  /** When a held replay will be processed; null for an event processed as usual. */
  heldUntil: Date | null;
}

interface Waiting {
  event: NewWebhookEvent;
  resolve: (stored: StoredWebhookEvent) => void;
  reject: (error: unknown) => void;
}

const dedupeKey = (event: NewWebhookEvent) => `${event.sellerId}\n${event.bodyHash}`;

async function writeBatch(batch: readonly Waiting[]): Promise<void> {
  const firstIndex = new Map<string, number>();
  const rows: NewWebhookEvent[] = [];
  const repeats: number[] = [];
  // Sorted, so two instances' batches lock shared rows in one order and never deadlock.
  const keyed = batch.map(({ event }) => ({ event, key: dedupeKey(event) })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (const { event, key } of keyed) {
    const index = firstIndex.get(key);
    if (index === undefined) {
      firstIndex.set(key, rows.length);
      rows.push(event);
      repeats.push(0);
    } else {
      repeats[index]! += 1;
    }
  }
  const batchJson = JSON.stringify(
    rows.map((event, index) => ({
      id: randomUUID(),
      seller_id: event.sellerId,
      received_at: event.receivedAt.toISOString(),
      domain: event.parsed.domain,
      status: event.parsed.status,
      resource_id: event.parsed.resourceId,
      code: event.parsed.code,
      order_id: event.parsed.orderId,
      delivery_id: event.parsed.deliveryId,
      // A raw NUL can only be in a body that is not JSON (stored as invalid, with its hash).
      raw_body: storableText(event.rawBody),
      body_hash: event.bodyHash,
      headers: JSON.stringify(event.headers),
      valid: event.parsed.valid,
      invalid_reason: event.parsed.invalidReason,
      repeats: repeats[index],
      claimed_by: event.claimedBy,
    })),
  );
  const result = await receiverPool.query<{ id: string; sellerId: string; bodyHash: string; inserted: boolean; heldUntil: Date | null }>({
    ...receiverBatchStatement,
    // With workers, an unclaimed event is for them at once; else its receiver gets a moment first.
    values: [
      batchJson,
      CLAIM_LEASE_SECONDS,
      env.WEBHOOK_PROCESSING === "worker" ? 0 : ORPHAN_AFTER_SECONDS,
      env.WEBHOOK_REPLAY_LIMIT_PER_MINUTE,
    ],
  });
  const stored = new Map(result.rows.map((row) => [`${row.sellerId}\n${row.bodyHash}`, row]));
  const answered = new Set<string>();
  for (const item of batch) {
    const key = dedupeKey(item.event);
    const row = stored.get(key);
    if (!row) {
      item.reject(new Error("The event upsert returned no row"));
      continue;
    }
    const duplicate = answered.has(key) || !row.inserted;
    (duplicate ? metrics.eventsCoalesced : metrics.eventsReceived).inc();
    item.resolve({ id: row.id, duplicate, heldUntil: row.heldUntil });
    answered.add(key);
  }
}

let waiting: Waiting[] = [];
let inFlight = 0;

function flush() {
  if (waiting.length === 0 || inFlight >= RECEIVER_WRITES_IN_FLIGHT) return;
  const batch = waiting;
  waiting = [];
  inFlight++;
  writeBatch(batch)
    .catch(async () => {
      // One by one, so a bad row (a seller deleted meanwhile) fails only its own request.
      for (const item of batch) {
        await writeBatch([item]).catch((error: unknown) => item.reject(error));
      }
    })
    .finally(() => {
      inFlight--;
      flush();
    });
}

/** Resolves once every event handed to insertWebhookEvent so far is written (or failed). */
export async function webhookWritesSettled(): Promise<void> {
  while (waiting.length > 0 || inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Resolves when the row is committed. */
export function insertWebhookEvent(event: NewWebhookEvent): Promise<StoredWebhookEvent> {
  return new Promise((resolve, reject) => {
    waiting.push({ event, resolve, reject });
    if (waiting.length === 1) setImmediate(flush);
  });
}
