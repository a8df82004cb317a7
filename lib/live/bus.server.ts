import "server-only";
import { EventEmitter } from "node:events";
import pg from "pg";
import { log } from "@/lib/log.server";
import { connectionConfig, pool } from "@/lib/pg-pool.server";
import type { LiveEnvelope, LiveMessage } from "@/lib/live/messages";

// NOTIFY is not stored, so messages are also rows: a stream that reconnects, or an instance whose
// LISTEN connection dropped, reads what it missed from the table (decision 0002).
export const LIVE_CHANNEL = "live_messages";
/** A seller's receiver changed (token, key). */
export const RECEIVER_CHANGED_CHANNEL = "receiver_changed";
/** A person's sessions or memberships changed (payload: the person's id): their streams re-check. */
export const SESSIONS_CHANGED_CHANNEL = "sessions_changed";
/** The receiver queued events nobody claimed. */
export const WORK_CHANNEL = "webhook_work";
const KEEP_MINUTES = 60;
/**
 * Ids are taken at insert but visible at commit, so a smaller id can appear late: a replay re-sends
 * this window before the last id seen, and the browser drops ids it already handled.
 */
const LATE_COMMIT_WINDOW_SECONDS = 5;

export async function replayLiveMessages(sellerId: string, afterId: string): Promise<LiveEnvelope[]> {
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
    values: [sellerId, afterId, LATE_COMMIT_WINDOW_SECONDS],
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

interface BusState {
  emitter: EventEmitter;
  client: pg.Client | null;
  connecting: Promise<void> | null;
  retryTimer: NodeJS.Timeout | null;
  closed: boolean;
}

const globalForBus = globalThis as unknown as { liveBus?: BusState };
const state: BusState = globalForBus.liveBus ?? {
  emitter: new EventEmitter(),
  client: null,
  connecting: null,
  retryTimer: null,
  closed: false,
};
state.emitter.setMaxListeners(0);
globalForBus.liveBus = state;

const sellerChannel = (sellerId: string) => `seller:${sellerId}`;

const liveLog = log.child({ component: "live" });

function onNotification(notification: pg.Notification) {
  if (!notification.payload) return;
  try {
    if (notification.channel === LIVE_CHANNEL) {
      for (const { id, sellerId, message } of JSON.parse(notification.payload) as {
        id: string;
        sellerId: string;
        message: LiveMessage;
      }[]) {
        state.emitter.emit(sellerChannel(sellerId), { id, message } satisfies LiveEnvelope);
      }
    } else if (
      notification.channel === RECEIVER_CHANGED_CHANNEL ||
      notification.channel === SESSIONS_CHANGED_CHANNEL ||
      notification.channel === WORK_CHANNEL
    ) {
      state.emitter.emit(notification.channel, notification.payload);
    }
  } catch (error) {
    liveLog.error({ err: error, channel: notification.channel }, "unreadable notification");
  }
}

function scheduleReconnect(delayMs: number) {
  if (state.closed || state.retryTimer) return;
  state.retryTimer = setTimeout(() => {
    state.retryTimer = null;
    void listen(Math.min(delayMs * 2, 5_000));
  }, delayMs);
  state.retryTimer.unref();
}

function listen(retryDelayMs = 250): Promise<void> {
  if (state.closed) return Promise.resolve();
  if (state.client) return Promise.resolve();
  if (state.connecting) return state.connecting;
  const reconnecting = retryDelayMs > 250 || state.emitter.listenerCount("resync") > 0;
  const client = new pg.Client(connectionConfig());
  state.connecting = (async () => {
    try {
      await client.connect();
      await client.query(`LISTEN ${LIVE_CHANNEL}`);
      await client.query(`LISTEN ${RECEIVER_CHANGED_CHANNEL}`);
      await client.query(`LISTEN ${SESSIONS_CHANGED_CHANNEL}`);
      await client.query(`LISTEN ${WORK_CHANNEL}`);
      client.on("notification", onNotification);
      const lost = (error?: Error) => {
        if (state.client !== client) return;
        state.client = null;
        client.removeAllListeners();
        client.on("error", () => {});
        void client.end().catch(() => {});
        if (!state.closed) {
          liveLog.error({ err: error }, "LISTEN connection lost; reconnecting");
          scheduleReconnect(250);
        }
      };
      client.on("error", lost);
      client.on("end", () => lost());
      state.client = client;
      // Whatever was announced while no connection listened is in the table: streams catch up.
      if (reconnecting) state.emitter.emit("resync");
    } catch (error) {
      client.removeAllListeners();
      client.on("error", () => {});
      void client.end().catch(() => {});
      liveLog.error({ err: error }, "cannot LISTEN");
      scheduleReconnect(retryDelayMs);
    } finally {
      state.connecting = null;
    }
  })();
  return state.connecting;
}

export interface LiveSubscription {
  unsubscribe(): void;
}

/** `onResync`: the LISTEN connection came back from a drop, so replay from the last id. `onClose`: shutdown. */
export function subscribeToSeller(
  sellerId: string,
  handlers: { onMessage(envelope: LiveEnvelope): void; onResync(): void; onClose(): void },
): LiveSubscription {
  const channel = sellerChannel(sellerId);
  state.emitter.on(channel, handlers.onMessage);
  state.emitter.on("resync", handlers.onResync);
  state.emitter.on("close", handlers.onClose);
  void listen();
  return {
    unsubscribe() {
      state.emitter.off(channel, handlers.onMessage);
      state.emitter.off("resync", handlers.onResync);
      state.emitter.off("close", handlers.onClose);
    },
  };
}

export function startListening(): Promise<void> {
  return listen();
}

export function onReceiverChanged(listener: (sellerId: string) => void): () => void {
  state.emitter.on(RECEIVER_CHANGED_CHANNEL, listener);
  void listen();
  return () => state.emitter.off(RECEIVER_CHANGED_CHANNEL, listener);
}

export function onSessionsChanged(listener: (personId: string) => void): () => void {
  state.emitter.on(SESSIONS_CHANGED_CHANNEL, listener);
  void listen();
  return () => state.emitter.off(SESSIONS_CHANGED_CHANNEL, listener);
}

export function onWorkAvailable(listener: () => void): () => void {
  state.emitter.on(WORK_CHANNEL, listener);
  void listen();
  return () => state.emitter.off(WORK_CHANNEL, listener);
}

export async function closeLiveBus(): Promise<void> {
  state.closed = true;
  if (state.retryTimer) clearTimeout(state.retryTimer);
  state.emitter.emit("close");
  const client = state.client;
  state.client = null;
  if (client) {
    client.removeAllListeners();
    client.on("error", () => {});
    await client.end().catch(() => {});
  }
}
