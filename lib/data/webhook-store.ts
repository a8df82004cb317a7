import "server-only";
import { randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import type { Statement } from "better-sqlite3";
import { env } from "@/lib/env";
import type { ParsedWebhook } from "@/lib/webhooks/parse";

// The webhook receiver's two writes go through their own better-sqlite3 connection with
// prepared statements, not Prisma: measured here, a Prisma raw upsert costs ~0.5 ms and a Prisma
// update ~1.3 ms of CPU, against ~0.06 ms for the same statements prepared once. At hundreds of
// events per second on two cores that was most of the receiver's cost (see
// docs/decisions/0002-webhook-receiver-hot-path.md). Everything else reads and writes these rows
// through Prisma; the SQL here must stay in step with prisma/schema.prisma.

/** Prisma's SQLite DateTime text form, so Prisma reads and orders these rows like its own. */
export function toPrismaDateTime(date: Date): string {
  return date.toISOString().replace("Z", "+00:00");
}

interface Statements {
  upsert: Statement<unknown[], { id: string; duplicateCount: number }>;
  setState: Statement<unknown[]>;
}

let statements: Statements | undefined;

function prepare(): Statements {
  if (statements) return statements;
  const connection = new Database(env.DATABASE_URL.replace(/^file:/, ""));
  connection.pragma("journal_mode = WAL");
  connection.pragma("synchronous = NORMAL");
  // Both this connection and Prisma's live on the one JavaScript thread: waiting for a lock the
  // other holds could never succeed, so a busy database fails at once (the receiver answers 503
  // and the platform retries) instead of blocking the thread.
  connection.pragma("busy_timeout = 0");
  statements = {
    upsert: connection.prepare(`
      INSERT INTO "WebhookEvent" (
        "id", "sellerId", "receivedAt", "lastReceivedAt", "domain", "status", "resourceId", "code",
        "orderId", "deliveryId", "rawBody", "bodyHash", "headers", "signatureResult", "valid",
        "invalidReason", "processingState"
      ) VALUES (
        @id, @sellerId, @receivedAt, @receivedAt, @domain, @status, @resourceId, @code,
        @orderId, @deliveryId, @rawBody, @bodyHash, @headers, 'valid', @valid,
        @invalidReason, @processingState
      )
      ON CONFLICT ("sellerId", "bodyHash") DO UPDATE SET
        "duplicateCount" = "duplicateCount" + 1,
        "lastReceivedAt" = excluded."lastReceivedAt"
      RETURNING "id", "duplicateCount"`),
    setState: connection.prepare(`
      UPDATE "WebhookEvent"
      SET "processingState" = @state, "processedAt" = @processedAt, "processingError" = @error
      WHERE "id" = @id`),
  };
  return statements;
}

export interface NewWebhookEvent {
  sellerId: string;
  receivedAt: Date;
  rawBody: string;
  bodyHash: string;
  headers: Record<string, string>;
  parsed: ParsedWebhook;
}

type UpsertParams = Record<string, string | number | null>;

function upsertParams(event: NewWebhookEvent): UpsertParams {
  const { parsed } = event;
  return {
    id: randomUUID(),
    sellerId: event.sellerId,
    receivedAt: toPrismaDateTime(event.receivedAt),
    domain: parsed.domain,
    status: parsed.status,
    resourceId: parsed.resourceId,
    code: parsed.code,
    orderId: parsed.orderId,
    deliveryId: parsed.deliveryId,
    rawBody: event.rawBody,
    bodyHash: event.bodyHash,
    headers: JSON.stringify(event.headers),
    valid: parsed.valid ? 1 : 0,
    invalidReason: parsed.invalidReason,
    processingState: parsed.valid ? "pending" : "skipped",
  };
}

interface Waiting {
  params: UpsertParams;
  resolve: (stored: { id: string; duplicate: boolean }) => void;
  reject: (error: unknown) => void;
}

// Group commit: the events that arrive within one turn of the event loop are written in one
// transaction, and each request is answered once that transaction has committed. Under load
// this spreads one commit over many events; alone, an event waits for nothing but its own write.
let waiting: Waiting[] = [];

function upsertOne(params: UpsertParams) {
  const row = prepare().upsert.get(params);
  if (!row) throw new Error("The event upsert returned no row");
  return { id: row.id, duplicate: row.duplicateCount > 0 };
}

function flush() {
  const batch = waiting;
  waiting = [];
  try {
    const { upsert } = prepare();
    const stored = upsert.database.transaction(() => batch.map((item) => upsertOne(item.params)))();
    batch.forEach((item, index) => item.resolve(stored[index]!));
  } catch {
    // The whole transaction rolled back: write the events one by one, so one bad row fails
    // only its own request.
    for (const item of batch) {
      try {
        item.resolve(upsertOne(item.params));
      } catch (error) {
        item.reject(error);
      }
    }
  }
}

/**
 * Stores an authentic notification, once: the spec gives events no id, so the same seller and
 * the same body bytes are the same event, and a repeat only bumps its duplicate count. Resolves
 * when the row is committed.
 */
export function insertWebhookEvent(event: NewWebhookEvent): Promise<{ id: string; duplicate: boolean }> {
  return new Promise((resolve, reject) => {
    let params: UpsertParams;
    try {
      params = upsertParams(event);
    } catch (error) {
      reject(error);
      return;
    }
    waiting.push({ params, resolve, reject });
    if (waiting.length === 1) setImmediate(flush);
  });
}

export interface EventStateUpdate {
  id: string;
  state: "processed" | "skipped" | "failed";
  error?: string | null;
}

/** Records the outcome of processing for a batch of events, in one transaction (one commit). */
export function setWebhookEventStates(updates: readonly EventStateUpdate[]) {
  if (updates.length === 0) return;
  const { setState } = prepare();
  const processedAt = toPrismaDateTime(new Date());
  setState.database.transaction(() => {
    for (const update of updates) setState.run({ id: update.id, state: update.state, processedAt, error: update.error ?? null });
  })();
}
