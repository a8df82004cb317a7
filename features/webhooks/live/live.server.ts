import "server-only";
import { EventEmitter } from "node:events";
import { onChannel, onConnectionEvents } from "@/lib/db-notifications.server";
import { LIVE_CHANNEL } from "@/lib/db-channels";
import { log } from "@/lib/log.server";
import { pool } from "@/lib/pg-pool.server";
import type { LiveEnvelope, LiveMessage } from "@/features/webhooks/live/live-messages";

// NOTIFY is not stored, so messages are also rows: a stream that reconnects, or an instance whose
// LISTEN connection dropped, reads what it missed from the table (decision 0002).
const KEEP_MINUTES = 60;
/**
 * Ids are taken at insert but visible at commit, so a smaller id can appear late: a replay re-sends
 * this window before the last id seen, and the browser drops ids it already handled.
 */
const LATE_COMMIT_WINDOW_SECONDS = 5;

export async function replayLiveMessages(shopId: string, afterId: string): Promise<LiveEnvelope[]> {
  const result = await pool.query<{ id: string; payload: LiveMessage }>({
    name: "live_message_replay",
    text: `
      (SELECT "id", "payload" FROM "LiveMessage" WHERE "sellerId" = $1 AND "id" > $2::bigint ORDER BY "id" LIMIT 1000)
      UNION
      (SELECT "id", "payload" FROM "LiveMessage"
       WHERE "sellerId" = $1 AND "id" < $2::bigint
         AND "createdAt" >= (SELECT "createdAt" FROM "LiveMessage" WHERE "id" = $2::bigint) - make_interval(secs => $3)
       ORDER BY "id" DESC LIMIT 100)
      ORDER BY "id"`,
    values: [shopId, afterId, LATE_COMMIT_WINDOW_SECONDS],
  });
  return result.rows.map((row) => ({ id: String(row.id), message: row.payload }));
}

/** The newest message id: where a new stream starts, so that a reconnect can catch up from it. */
export async function latestLiveMessageId(): Promise<string> {
  const result = await pool.query<{ id: string }>(`SELECT COALESCE(MAX("id"), 0)::text AS id FROM "LiveMessage"`);
  return result.rows[0]?.id ?? "0";
}

// Pruning goes by id, up to an id noted KEEP_MINUTES ago: no index on createdAt to maintain per message.
const pruneCheckpoints: { at: number; id: string }[] = [];

/** Drops messages older than the catch-up window. Safe to run from every instance. */
export async function pruneLiveMessages(now = Date.now()): Promise<number> {
  pruneCheckpoints.push({ at: now, id: await latestLiveMessageId() });
  let cutoff: string | null = null;
  while (pruneCheckpoints.length > 0 && pruneCheckpoints[0]!.at <= now - KEEP_MINUTES * 60_000) cutoff = pruneCheckpoints.shift()!.id;
  if (cutoff === null) return 0;
  const result = await pool.query(`DELETE FROM "LiveMessage" WHERE "id" <= $1::bigint`, [cutoff]);
  return result.rowCount ?? 0;
}

const globalForBus = globalThis as unknown as { liveShops?: { emitter: EventEmitter; stopListening: (() => void) | null } };
const shops = globalForBus.liveShops ?? { emitter: new EventEmitter(), stopListening: null };
shops.emitter.setMaxListeners(0);
globalForBus.liveShops = shops;

const shopChannel = (shopId: string) => `seller:${shopId}`;

const liveLog = log.child({ component: "live" });

/** A notification carries a few messages (features/webhooks/process/queue.server.ts), in id order: each goes to its seller's streams. */
function fanOut(payload: string) {
  try {
    for (const { id, sellerId: shopId, message } of JSON.parse(payload) as { id: string; sellerId: string; message: LiveMessage }[]) {
      shops.emitter.emit(shopChannel(shopId), { id, message } satisfies LiveEnvelope);
    }
  } catch (error) {
    liveLog.error({ err: error }, "unreadable live notification");
  }
}

export interface LiveSubscription {
  unsubscribe(): void;
}

/** `onResync`: the LISTEN connection came back from a drop, so replay from the last id. `onClose`: shutdown. */
export function subscribeToShop(
  shopId: string,
  handlers: { onMessage(envelope: LiveEnvelope): void; onResync(): void; onClose(): void },
): LiveSubscription {
  shops.stopListening ??= onChannel(LIVE_CHANNEL, fanOut);
  const channel = shopChannel(shopId);
  shops.emitter.on(channel, handlers.onMessage);
  const stopConnectionEvents = onConnectionEvents(handlers);
  return {
    unsubscribe() {
      shops.emitter.off(channel, handlers.onMessage);
      stopConnectionEvents();
    },
  };
}
