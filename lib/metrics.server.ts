import "server-only";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { env } from "@/lib/env";
import { log } from "@/lib/log.server";
import { DEAD_UNTIL } from "@/lib/webhook-work";
import { DB_NOW, pool, receiverPool } from "@/lib/pg-pool.server";

// Counters are this process's; gauges read from the database are the whole cluster's. Everything
// lives on globalThis because Next.js may load this module once per bundle in one process.

/** Seconds: receiver answers take milliseconds; a platform call may take up to its 15 s timeout. */
const RECEIVER_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const PLATFORM_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15];

/** What the webhook receiver answered (features/webhooks/receive/receiver.server.ts, webhookOutcome). */
export type WebhookOutcomeLabel =
  "accepted" | "duplicate" | "held" | "invalid" | "unauthorized" | "rate_limited" | "not_found" | "gone" | "too_large" | "unavailable";

export type ReconcileOutcomeLabel = "ok" | "failed" | "rate_limited" | "timeout";

function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const metrics = {
    webhookRequests: new Histogram<"outcome">({
      name: "dashboard_webhook_request_duration_seconds",
      help: "Webhook deliveries by the receiver's answer, and the time it took (body read, lookup, signature, commit).",
      labelNames: ["outcome"],
      buckets: RECEIVER_BUCKETS,
      registers,
    }),
    eventsReceived: new Counter({
      name: "dashboard_events_received_total",
      help: "Authentic notifications stored as new events.",
      registers,
    }),
    eventsCoalesced: new Counter({
      name: "dashboard_events_coalesced_total",
      help: "Authentic notifications folded into an identical event still waiting (its duplicate count).",
      registers,
    }),
    eventsProcessed: new Counter({
      name: "dashboard_events_processed_total",
      help: "Events whose processing finished (including bodies skipped as not a valid notification).",
      registers,
    }),
    processingBatches: new Counter<"gate">({
      name: "dashboard_processing_batches_total",
      help: "Passes of processing over the events received, by why the gate let them through: room (the thread had room) or overdue (it was saturated and the pass had waited its longest).",
      labelNames: ["gate"],
      registers,
    }),
    eventsFailed: new Counter({
      name: "dashboard_events_failed_total",
      help: "Processing attempts that failed and will be retried.",
      registers,
    }),
    eventsDead: new Counter({
      name: "dashboard_events_dead_total",
      help: "Events given up on: their last attempt failed, or the failure cannot heal.",
      registers,
    }),
    reconcileRuns: new Counter<"outcome">({
      name: "dashboard_reconcile_runs_total",
      help: "Reconciliation runs of one shop, by outcome.",
      labelNames: ["outcome"],
      registers,
    }),
    reconcileRecovered: new Counter({
      name: "dashboard_reconcile_recovered_total",
      help: "Order changes reconciliation found that no notification had reported.",
      registers,
    }),
    platformRequests: new Histogram<"endpoint" | "status">({
      name: "dashboard_platform_request_duration_seconds",
      help: "Requests to the marketplace platform by endpoint and HTTP status (network, timeout: no answer), until the answer's headers.",
      labelNames: ["endpoint", "status"],
      buckets: PLATFORM_BUCKETS,
      registers,
    }),
    notificationsFannedOut: new Counter<"kind">({
      name: "dashboard_notifications_created_total",
      help: "Notifications written (one per person told) and put into their channels' messages, by kind.",
      labelNames: ["kind"],
      registers,
    }),
    notificationMessages: new Counter<"channel" | "outcome">({
      name: "dashboard_notification_messages_total",
      help: "Attempts to send a notification message, by channel (email, push) and outcome: sent, retrying (the server refused for now or could not be reached), failed (given up; the shop's owner sees it), dropped (unsubscribed, no address, left the shop).",
      labelNames: ["channel", "outcome"],
      registers,
    }),
    liveStreams: new Gauge({
      name: "dashboard_live_streams_open",
      help: "Live-update streams (server-sent events) open on this instance.",
      registers,
    }),
  };

  registerDatabaseGauges(registers);
  return { registry, metrics };
}

/** Several gauges of one scrape share one query: callers while it runs get the same promise. */
function sharedWhileRunning<T>(read: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | null = null;
  return () => {
    running ??= read().finally(() => {
      running = null;
    });
    return running;
  };
}

/** One warning per query and minute at most: a scrape every 15 s must not fill the log. */
const lastWarnedAt = new Map<string, number>();
function warnQueryFailed(query: string, error: unknown) {
  const now = Date.now();
  if ((lastWarnedAt.get(query) ?? 0) > now - 60_000) return;
  lastWarnedAt.set(query, now);
  log.warn({ component: "metrics", query, err: error }, "a metrics query failed: its gauges are left out of this scrape");
}

/** A statement that fails leaves its gauges out of the scrape (absent, not zero); the rest is served. */
function registerDatabaseGauges(registers: Registry[]) {
  // Registered first, so a scrape reads the pools before its own statements below take connections.
  new Gauge<"pool" | "state">({
    name: "dashboard_db_pool_connections",
    help: "Connections of this instance's pg pools: total open, idle, and queries waiting for one.",
    labelNames: ["pool", "state"],
    registers,
    collect() {
      for (const [name, each] of [
        ["dashboard", pool],
        ["receiver", receiverPool],
      ] as const) {
        this.set({ pool: name, state: "total" }, each.totalCount);
        this.set({ pool: name, state: "idle" }, each.idleCount);
        this.set({ pool: name, state: "waiting" }, each.waitingCount);
      }
    },
  });

  const queue = sharedWhileRunning(async () => {
    const { rows } = await pool.query<{ depth: number; dead: number; oldest: number | null }>(
      `SELECT COUNT(*) FILTER (WHERE w."availableAt" <> ${DEAD_UNTIL})::int AS depth,
              COUNT(*) FILTER (WHERE w."availableAt" = ${DEAD_UNTIL})::int AS dead,
              EXTRACT(EPOCH FROM ${DB_NOW} - MIN(e."receivedAt") FILTER (WHERE w."availableAt" <> ${DEAD_UNTIL}))::float8 AS oldest
         FROM "WebhookWork" w JOIN "WebhookEvent" e ON e."id" = w."eventId"`,
    );
    return rows[0] ?? { depth: 0, dead: 0, oldest: null };
  });
  // A connected shop never reconciled counts from when it connected.
  const reconciliation = sharedWhileRunning(async () => {
    const { rows } = await pool.query<{ max: number | null; p95: number | null; overdue: number }>(
      `WITH lag AS (
         SELECT EXTRACT(EPOCH FROM ${DB_NOW} - COALESCE(s."lastReconciledAt", c."connectedAt"))::float8 AS seconds
           FROM "Connection" c LEFT JOIN "SellerSync" s ON s."sellerId" = c."sellerId"
       )
       SELECT MAX(seconds) AS max,
              percentile_cont(0.95) WITHIN GROUP (ORDER BY seconds) AS p95,
              COUNT(*) FILTER (WHERE seconds > $1)::int AS overdue
         FROM lag`,
      [2 * env.RECONCILE_INTERVAL_SECONDS],
    );
    return rows[0] ?? { max: null, p95: null, overdue: 0 };
  });

  const outbox = sharedWhileRunning(async () => {
    const { rows } = await pool.query<{ channel: string; waiting: number; oldest: number | null }>(
      // A message gathering a burst or held by quiet hours is waiting by design until its window
      // ends: it counts from then.
      `SELECT "channel", COUNT(*)::int AS waiting,
              EXTRACT(EPOCH FROM ${DB_NOW} - MIN(coalesce("gatherUntil", "createdAt"))
                FILTER (WHERE "gatherUntil" IS NULL OR "gatherUntil" <= ${DB_NOW}))::float8 AS oldest
         FROM "NotificationMessage" WHERE "state" = 'waiting' GROUP BY "channel"`,
    );
    return new Map(rows.map((row) => [row.channel, row]));
  });
  new Gauge<"channel">({
    name: "dashboard_notification_messages_waiting",
    help: "Notification messages waiting to be sent (gathering a burst, held by quiet hours, due, being sent or retrying), by channel, cluster-wide.",
    labelNames: ["channel"],
    registers,
    async collect() {
      try {
        const waiting = await outbox();
        for (const channel of ["email", "push"]) this.set({ channel }, waiting.get(channel)?.waiting ?? 0);
      } catch (error) {
        this.remove();
        warnQueryFailed("outbox", error);
      }
    },
  });
  new Gauge<"channel">({
    name: "dashboard_notification_oldest_waiting_age_seconds",
    help: "Age of the oldest notification message not yet sent, by channel, cluster-wide, counted from when it was due (the end of its burst window or quiet hours); 0 when none waits.",
    labelNames: ["channel"],
    registers,
    async collect() {
      try {
        const waiting = await outbox();
        for (const channel of ["email", "push"]) this.set({ channel }, Math.max(0, waiting.get(channel)?.oldest ?? 0));
      } catch {
        this.remove();
      }
    },
  });
  new Gauge({
    name: "dashboard_queue_depth",
    help: "Events waiting to be processed, retrying or being processed, cluster-wide (dead ones not included).",
    registers,
    async collect() {
      try {
        this.set((await queue()).depth);
      } catch (error) {
        this.remove();
        warnQueryFailed("queue", error);
      }
    },
  });
  new Gauge({
    name: "dashboard_queue_oldest_age_seconds",
    help: "Age of the oldest event not yet processed (dead ones not included), cluster-wide; 0 when none waits.",
    registers,
    async collect() {
      try {
        this.set(Math.max(0, (await queue()).oldest ?? 0));
      } catch {
        this.remove();
      }
    },
  });
  new Gauge({
    name: "dashboard_events_dead",
    help: "Events currently dead (given up on until processed again on request), cluster-wide.",
    registers,
    async collect() {
      try {
        this.set((await queue()).dead);
      } catch {
        this.remove();
      }
    },
  });
  new Gauge<"stat">({
    name: "dashboard_reconcile_lag_seconds",
    help: "Time since each connected shop's last completed reconciliation (since it connected, if never): the maximum and the 95th percentile over shops.",
    labelNames: ["stat"],
    registers,
    async collect() {
      this.reset();
      try {
        const lag = await reconciliation();
        this.set({ stat: "max" }, Math.max(0, lag.max ?? 0));
        this.set({ stat: "p95" }, Math.max(0, lag.p95 ?? 0));
      } catch (error) {
        warnQueryFailed("reconciliation", error);
      }
    },
  });
  new Gauge({
    name: "dashboard_reconcile_shops_overdue",
    help: "Connected shops not reconciled for two RECONCILE_INTERVAL_SECONDS.",
    registers,
    async collect() {
      try {
        this.set((await reconciliation()).overdue);
      } catch {
        this.remove();
      }
    },
  });
}

const globalForMetrics = globalThis as unknown as { dashboardMetrics?: ReturnType<typeof createMetrics> };
const state = (globalForMetrics.dashboardMetrics ??= createMetrics());

export const metricsRegistry: Registry = state.registry;

export const metrics = state.metrics;

/** What a platform client reports of each request (packages/marketplace/src/client.ts, onResponse). */
export function recordPlatformResponse(observation: { endpoint: string; status: number | "network" | "timeout"; durationMs: number }) {
  metrics.platformRequests.observe({ endpoint: observation.endpoint, status: String(observation.status) }, observation.durationMs / 1000);
}
