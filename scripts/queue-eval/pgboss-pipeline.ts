// The pg-boss prototype of our webhook pipeline: only the queue differs (a job per event, keyed by
// seller and body hash, sent in the receiver's transaction; queues in shared.ts); storing and
// processing use our own functions. Runs in the children only (it imports server-only modules).
import { createHash, randomUUID } from "node:crypto";
import pg from "pg";
import { PgBoss } from "pg-boss";
import type { Db, Job } from "pg-boss";
import { withPlatform } from "@/lib/platform/platform.server";
import { upsertMirrorOrders } from "@/lib/orders/order-mirror.server";
import { findCurrentSeller } from "@/lib/shops/shops.server";
import type { SellerLiveMessage } from "@/features/webhooks/live/live-messages";
import { ordersQuery } from "@marketplace/api/list-query";
import { connectionConfig, pool, RECEIVER_WRITES_IN_FLIGHT } from "@/lib/pg-pool.server";
import { parseWebhookBody, storableText } from "@/features/webhooks/parse";
import { classifyProblem } from "@/features/webhooks/process/retry-policy";
import { LIVE_CHANNEL, PGBOSS_LOCAL_CONCURRENCY, PGBOSS_QUEUES, PGBOSS_SUPERVISE_SECONDS } from "./shared";
import type { JobData, PgBossQueue } from "./shared";

export interface Enqueued {
  id: string;
  duplicate: boolean;
}

// ---------------------------------------------------------------------------------------------
// Receiving: group commit, like features/webhooks/store.server.ts, with pg-boss inside the transaction

/**
 * A job pg-boss refused conflicted with the key's queued job, always the body's newest receipt, so
 * that event is found through our (sellerId, bodyHash) index: no index of pgboss.job fits singleton_key.
 */
const STORE_EVENTS = {
  // Named, so prepared once per connection like the receiver's own statement.
  name: "pgboss_proto_store_events",
  text: `
  WITH batch AS (
    SELECT * FROM json_to_recordset($1::json) AS batch(
      id text, seller_id text, received_at text, domain text, status text, resource_id text, code text,
      order_id text, delivery_id text, raw_body text, body_hash text, headers text, valid boolean,
      invalid_reason text, repeats int, inserted boolean, job_key text)
  ),
  stored AS (
    INSERT INTO "WebhookEvent" (
      "id", "sellerId", "receivedAt", "lastReceivedAt", "domain", "status", "resourceId", "code",
      "orderId", "deliveryId", "rawBody", "bodyHash", "headers", "signatureResult", "valid",
      "invalidReason", "processingState", "duplicateCount")
    SELECT id, seller_id, received_at::timestamp(3), received_at::timestamp(3), domain, status, resource_id, code,
           order_id, delivery_id, raw_body, body_hash, headers, 'valid', valid, invalid_reason, 'pending', repeats
    FROM batch WHERE inserted
    RETURNING "id"
  ),
  target AS (
    SELECT batch.job_key, batch.repeats, batch.received_at, newest."id" AS event_id
    FROM batch CROSS JOIN LATERAL (
      SELECT e."id" FROM "WebhookEvent" e
      WHERE e."sellerId" = batch.seller_id AND e."bodyHash" = batch.body_hash
      ORDER BY e."receivedAt" DESC LIMIT 1
    ) newest
    WHERE NOT batch.inserted
  ),
  bumped AS (
    UPDATE "WebhookEvent" e SET "duplicateCount" = e."duplicateCount" + 1 + target.repeats,
      "lastReceivedAt" = target.received_at::timestamp(3)
    FROM target WHERE e."id" = target.event_id
    RETURNING e."id"
  )
  SELECT job_key AS "jobKey", event_id AS "eventId" FROM target, (SELECT COUNT(*) FROM stored) s, (SELECT COUNT(*) FROM bumped) b`,
};

interface Waiting {
  body: string;
  receivedAt: Date;
  queue: PgBossQueue;
  resolve: (enqueued: Enqueued) => void;
  reject: (error: unknown) => void;
}

export async function createPgBossReceiver(connectionString: string, sellerId: string) {
  // The receiver only sends: supervision is the workers' job.
  const boss = new PgBoss({ connectionString, max: 2, supervise: false, schedule: false, instanceName: "queue-eval-receiver" });
  boss.on("error", (error) => console.error(`[pgboss receiver] ${error.message}`));
  await boss.start();
  // One connection per group commit in flight, as the receiver's own pool (RECEIVER_WRITES_IN_FLIGHT).
  const writes = new pg.Pool({ ...connectionConfig(), application_name: "pgboss-proto-receiver", max: RECEIVER_WRITES_IN_FLIGHT });

  async function writeBatch(batch: readonly Waiting[], queue: PgBossQueue) {
    const key = (item: Waiting) => `${sellerId}:${createHash("sha256").update(item.body).digest("hex")}`;
    // Sorted by key, so two batches holding the same keys lock them in one order.
    const keyed = batch.map((item) => ({ item, key: key(item) })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const rows = new Map<string, { id: string; first: Waiting; repeats: number; items: Waiting[] }>();
    for (const { item, key: jobKey } of keyed) {
      const row = rows.get(jobKey);
      if (row) {
        row.repeats++;
        row.items.push(item);
      } else rows.set(jobKey, { id: randomUUID(), first: item, repeats: 0, items: [item] });
    }
    const client = await writes.connect();
    try {
      await client.query("BEGIN");
      const db: Db = { executeSql: (text, values) => client.query(text, values) };
      const jobs = [...rows].map(([jobKey, row]) => {
        const parsed = parseWebhookBody(row.first.body);
        const data: JobData = {
          sellerId,
          domain: parsed.domain,
          status: parsed.status,
          orderId: parsed.orderId,
          deliveryId: parsed.deliveryId,
        };
        return { id: row.id, data, singletonKey: jobKey };
      });
      const inserted = new Set((await boss.insert(queue, jobs, { db, returnId: true })) ?? []);
      const events = [...rows].map(([jobKey, row]) => {
        const parsed = parseWebhookBody(row.first.body);
        return {
          id: row.id,
          seller_id: sellerId,
          received_at: row.first.receivedAt.toISOString(),
          domain: parsed.domain,
          status: parsed.status,
          resource_id: parsed.resourceId,
          code: parsed.code,
          order_id: parsed.orderId,
          delivery_id: parsed.deliveryId,
          raw_body: storableText(row.first.body),
          body_hash: jobKey.slice(sellerId.length + 1),
          headers: "{}",
          valid: parsed.valid,
          invalid_reason: parsed.invalidReason,
          repeats: row.repeats,
          inserted: inserted.has(row.id),
          job_key: jobKey,
        };
      });
      const folded = await client.query<{ jobKey: string; eventId: string }>({ ...STORE_EVENTS, values: [JSON.stringify(events)] });
      await client.query("COMMIT");
      const foldedInto = new Map(folded.rows.map((row) => [row.jobKey, row.eventId]));
      for (const [jobKey, row] of rows) {
        const isNew = inserted.has(row.id);
        const id = isNew ? row.id : foldedInto.get(jobKey);
        row.items.forEach((item, index) => {
          if (id === undefined) item.reject(new Error(`a job of key ${jobKey} was refused and no queued job holds the key`));
          else item.resolve({ id, duplicate: !isNew || index > 0 });
        });
      }
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  let waiting: Waiting[] = [];
  let inFlight = 0;
  function flush() {
    if (waiting.length === 0 || inFlight >= RECEIVER_WRITES_IN_FLIGHT) return;
    const batch = waiting;
    waiting = [];
    inFlight++;
    // One queue per batch: the harness sends a phase to one queue, so a batch never mixes them.
    const byQueue = new Map<PgBossQueue, Waiting[]>();
    for (const item of batch) byQueue.set(item.queue, [...(byQueue.get(item.queue) ?? []), item]);
    Promise.all(
      [...byQueue].map(([queue, items]) =>
        writeBatch(items, queue).catch(async () => {
          // As the receiver does: one bad row fails only its own request.
          for (const item of items) await writeBatch([item], queue).catch((error: unknown) => item.reject(error));
        }),
      ),
    ).finally(() => {
      inFlight--;
      flush();
    });
  }

  return {
    enqueue(body: string, receivedAt: Date, queue: PgBossQueue): Promise<Enqueued> {
      return new Promise((resolve, reject) => {
        waiting.push({ body, receivedAt, queue, resolve, reject });
        if (waiting.length === 1) setImmediate(flush);
      });
    },
    async close() {
      await boss.stop({ graceful: false });
      await writes.end();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Processing: a transactional worker doing what processClaimed does for order events

/** Jobs per fetch: one platform list request (ORDER_LIST_CHUNK in features/webhooks/process/process.server.ts). */
export const PGBOSS_BATCH_SIZE = 50;

/**
 * The outcome and live messages of a batch, as finishEvents writes them (features/webhooks/process/queue.server.ts),
 * minus the queue row: pg-boss completes the jobs in the same transaction right after. The clock
 * is clock_timestamp(): the transaction began before the platform was read.
 */
const RECORD_OUTCOMES = `
  WITH outcome AS (
    SELECT * FROM json_to_recordset($1::json) AS outcome(id text, state text, error text)
  ),
  recorded AS (
    UPDATE "WebhookEvent" AS event
    SET "processingState" = outcome.state, "processingError" = outcome.error,
        "processedAt" = (clock_timestamp() AT TIME ZONE 'UTC'), "attempts" = event."attempts" + 1
    FROM outcome WHERE event."id" = outcome.id
    RETURNING event."id"
  ),
  inserted AS (
    INSERT INTO "LiveMessage" ("sellerId", "payload", "createdAt")
    SELECT message."sellerId", message.message, (clock_timestamp() AT TIME ZONE 'UTC')
    FROM json_to_recordset($2::json) AS message("sellerId" text, message jsonb)
    WHERE message.message->>'eventId' IN (SELECT "id" FROM recorded)
    RETURNING "id", "sellerId", "payload"
  )
  SELECT pg_notify('${LIVE_CHANNEL}', json_agg(json_build_object('id', "id"::text, 'sellerId', "sellerId", 'message', "payload") ORDER BY "id")::text)
  FROM (SELECT *, SUM(octet_length("payload"::text) + 100) OVER (ORDER BY "id") / 4000 AS chunk FROM inserted) AS numbered
  GROUP BY chunk`;

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

/** A failed attempt, recorded outside the handler's transaction (which the throw rolls back). */
async function recordRetrying(ids: readonly string[], error: string) {
  await pool.query(
    `UPDATE "WebhookEvent" SET "processingState" = 'retrying', "processingError" = $2, "attempts" = "attempts" + 1 WHERE "id" = ANY($1::text[])`,
    [ids, error],
  );
}

async function processBatch(jobs: readonly Job<JobData>[], tx: Db) {
  const outcomes: { id: string; state: string; error: string | null }[] = [];
  const messages: SellerLiveMessage[] = [];
  const bySeller = new Map<string, Job<JobData>[]>();
  for (const job of jobs) bySeller.set(job.data.sellerId, [...(bySeller.get(job.data.sellerId) ?? []), job]);
  for (const [sellerId, sellerJobs] of bySeller) {
    const seller = await findCurrentSeller(sellerId);
    const orderIds = [...new Set(sellerJobs.map((job) => job.data.orderId).filter((id): id is string => id !== null))];
    if (!seller) {
      for (const job of sellerJobs) outcomes.push({ id: job.id, state: "dead", error: "The seller is no longer connected" });
      continue;
    }
    const result = await withPlatform(seller, "listOrders", (client) =>
      client.listOrderSummaries(ordersQuery({ ids: orderIds, limit: orderIds.length })),
    );
    if (!result.ok) {
      const failure = classifyProblem(result.problem);
      if (failure.retry) {
        // pg-boss retries the whole batch with its backoff; it has no per-failure delay (Retry-After).
        await recordRetrying(
          sellerJobs.map((job) => job.id),
          failure.error,
        );
        throw new Error(failure.error);
      }
      for (const job of sellerJobs) outcomes.push({ id: job.id, state: "dead", error: failure.error });
      continue;
    }
    await upsertMirrorOrders(sellerId, result.data.items);
    const found = new Set(result.data.items.map((order) => order.id));
    for (const job of sellerJobs) {
      const { domain, status, orderId, deliveryId } = job.data;
      if (!orderId || !found.has(orderId)) {
        await recordRetrying([job.id], "The order was not in the list");
        throw new Error(`order ${orderId} was not in the list`);
      }
      outcomes.push({ id: job.id, state: "processed", error: null });
      messages.push({
        sellerId,
        message: { type: "order", eventId: job.id, domain: domain ?? "", status: status ?? "", orderId, deliveryId },
      });
    }
  }
  await tx.executeSql(RECORD_OUTCOMES, [JSON.stringify(outcomes), JSON.stringify(messages)]);
}

/**
 * A worker process: supervises (expiry and heartbeats every PGBOSS_SUPERVISE_SECONDS, as our sweep
 * runs every 5 s), listens for NOTIFY, and works every queue. `onTaken` hears of each batch as its
 * handler starts (the harness's view of what a killed worker had in hand).
 */
export async function startPgBossWorker(connectionString: string, onTaken: (ids: string[]) => void) {
  const boss = new PgBoss({
    connectionString,
    useListenNotify: true,
    superviseIntervalSeconds: PGBOSS_SUPERVISE_SECONDS,
    monitorIntervalSeconds: PGBOSS_SUPERVISE_SECONDS,
    schedule: false,
    instanceName: "queue-eval-worker",
  });
  boss.on("error", (error) => console.error(`[pgboss worker] ${errorText(error)}`));
  await boss.start();
  for (const queue of Object.values(PGBOSS_QUEUES)) {
    await boss.work(
      queue,
      {
        batchSize: PGBOSS_BATCH_SIZE,
        // 4 on the main queue: FETCH_CONCURRENCY's platform requests in flight.
        localConcurrency: PGBOSS_LOCAL_CONCURRENCY[queue],
        transactional: true,
        // NOTIFY wakes it at once; this is only the backstop, as often as our sweep.
        notifyPollingIntervalSeconds: PGBOSS_SUPERVISE_SECONDS,
        // Renewed every 5 s within the 15 s heartbeat: our lease's rhythm.
        heartbeatRefreshSeconds: 5,
        burstWhenBatchFull: true,
      },
      async (jobs: Job<JobData>[], tx: Db) => {
        onTaken(jobs.map((job) => job.id));
        await processBatch(jobs, tx);
      },
    );
  }
  return { stop: () => boss.stop({ graceful: true, timeout: 10_000 }) };
}
