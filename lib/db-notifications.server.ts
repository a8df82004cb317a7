import "server-only";
import { EventEmitter } from "node:events";
import pg from "pg";
import { log } from "@/lib/log.server";
import { LIVE_CHANNEL, RECEIVER_CHANGED_CHANNEL, SESSIONS_CHANGED_CHANNEL, WORK_CHANNEL } from "@/lib/db-channels";
import { connectionConfig } from "@/lib/pg-pool.server";

// One LISTEN connection per process for every channel the instances announce on: each module
// registers for its channel here instead of opening a connection of its own. It reconnects with
// backoff when it drops, and says so (onResync), since NOTIFY is not stored.

const CHANNELS = [LIVE_CHANNEL, RECEIVER_CHANGED_CHANNEL, SESSIONS_CHANGED_CHANNEL, WORK_CHANNEL] as const;
type Channel = (typeof CHANNELS)[number];

interface ListenerState {
  emitter: EventEmitter;
  client: pg.Client | null;
  connecting: Promise<void> | null;
  retryTimer: NodeJS.Timeout | null;
  closed: boolean;
}

const globalForNotifications = globalThis as unknown as { dbNotifications?: ListenerState };
const state: ListenerState = globalForNotifications.dbNotifications ?? {
  emitter: new EventEmitter(),
  client: null,
  connecting: null,
  retryTimer: null,
  closed: false,
};
state.emitter.setMaxListeners(0);
globalForNotifications.dbNotifications = state;

const notificationsLog = log.child({ component: "notifications" });

function onNotification(notification: pg.Notification) {
  if (!notification.payload || !(CHANNELS as readonly string[]).includes(notification.channel)) return;
  try {
    state.emitter.emit(notification.channel, notification.payload);
  } catch (error) {
    notificationsLog.error({ err: error, channel: notification.channel }, "unreadable notification");
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
      for (const channel of CHANNELS) await client.query(`LISTEN ${channel}`);
      client.on("notification", onNotification);
      const lost = (error?: Error) => {
        if (state.client !== client) return;
        state.client = null;
        client.removeAllListeners();
        client.on("error", () => {});
        void client.end().catch(() => {});
        if (!state.closed) {
          notificationsLog.error({ err: error }, "LISTEN connection lost; reconnecting");
          scheduleReconnect(250);
        }
      };
      client.on("error", lost);
      client.on("end", () => lost());
      state.client = client;
      // What was announced while no connection listened is missed: listeners catch up.
      if (reconnecting) state.emitter.emit("resync");
    } catch (error) {
      client.removeAllListeners();
      client.on("error", () => {});
      void client.end().catch(() => {});
      notificationsLog.error({ err: error }, "cannot LISTEN");
      scheduleReconnect(retryDelayMs);
    } finally {
      state.connecting = null;
    }
  })();
  return state.connecting;
}

/** Resolves once this process listens (start-up, tests). */
export function startListening(): Promise<void> {
  return listen();
}

/** Runs `listener` with each payload announced on `channel` by any instance; answers how to stop. */
export function onChannel(channel: Channel, listener: (payload: string) => void): () => void {
  state.emitter.on(channel, listener);
  void listen();
  return () => state.emitter.off(channel, listener);
}

/** Runs `listener` when the connection came back from a drop (what was announced meanwhile is lost), and at shutdown `onClose`. */
export function onConnectionEvents(listeners: { onResync(): void; onClose(): void }): () => void {
  state.emitter.on("resync", listeners.onResync);
  state.emitter.on("close", listeners.onClose);
  void listen();
  return () => {
    state.emitter.off("resync", listeners.onResync);
    state.emitter.off("close", listeners.onClose);
  };
}

export const onReceiverChanged = (listener: (shopId: string) => void) => onChannel(RECEIVER_CHANGED_CHANNEL, listener);
export const onSessionsChanged = (listener: (personId: string) => void) => onChannel(SESSIONS_CHANGED_CHANNEL, listener);
export const onWorkAvailable = (listener: () => void) => onChannel(WORK_CHANNEL, () => listener());

/** Graceful shutdown: tells listeners (open streams end) and closes the LISTEN connection. */
export async function closeNotifications(): Promise<void> {
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
