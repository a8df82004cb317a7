// What the queue evaluation's processes share: the two sides, the workload's bodies, the pg-boss
// configuration that maps our queue's promises (docs/decisions/0004), and small statistics.
// Imported by the coordinator (plain tsx) and by the children (tsx with the react-server
// condition), so nothing here may import a server-only module.

export type Side = "ours" | "pgboss";

export const DATABASES: Record<Side, string> = { ours: "queue_eval_ours", pgboss: "queue_eval_pgboss" };

/** features/webhooks/live/live.server.ts LIVE_CHANNEL (that module is server-only): both sides announce processed events on it. */
export const LIVE_CHANNEL = "live_messages";

/** The coordinator's own connections carry this name, so the connection count leaves them out. */
export const COORDINATOR_APP = "queue-eval";

export interface EvalOrder {
  id: string;
  deliveryId: string;
}

/** The first orders are kept for the coalescing probes; the stream's bodies name the others. */
export const PROBE_ORDERS = 8;

const NOTIFICATIONS = [
  ...["new", "approved", "cancelled", "finished"].map((status) => ({ domain: "order.order", status })),
  ...["created", "received", "posted", "delivered"].map((status) => ({ domain: "order.delivery", status })),
  ...["shipped", "delivered"].map((status) => ({ domain: "order.shipping", status })),
];

/** How many distinct stream bodies `orders` give. */
export const distinctBodies = (orders: readonly EvalOrder[]) => (orders.length - PROBE_ORDERS) * NOTIFICATIONS.length;

/** The stream's body number `index`: distinct for every index below distinctBodies (bench-webhook-kit's shape). */
export function streamBody(orders: readonly EvalOrder[], index: number): string {
  const pool = orders.length - PROBE_ORDERS;
  const order = orders[PROBE_ORDERS + (index % pool)]!;
  const { domain, status } = NOTIFICATIONS[Math.floor(index / pool) % NOTIFICATIONS.length]!;
  return JSON.stringify({ data: { domain, status, order_id: order.id, delivery_id: order.deliveryId } });
}

/** A probe body: no delivery_id, so never one of the stream's bytes. */
export const probeBody = (orders: readonly EvalOrder[], probe: number) =>
  JSON.stringify({ data: { domain: "order.order", status: "new", order_id: orders[probe]!.id } });

/**
 * All keyed by (seller, body hash). `main` is "short", which is 0004's rule; `stately` looks closest
 * but is probed on coalescing only (decision 0011). `fast` has no retry delay: the best crash
 * recovery pg-boss can give, since a lost lease is a failed attempt there.
 */
export const PGBOSS_QUEUES = { main: "webhook-events", fast: "webhook-events-fast", stately: "webhook-events-stately" } as const;
export type PgBossQueue = (typeof PGBOSS_QUEUES)[keyof typeof PGBOSS_QUEUES];

const commonQueueOptions = {
  notify: true,
  // Our lease (15 s, renewed every 5 s): a worker that stops heart-beating loses its jobs.
  heartbeatSeconds: 15,
  expireInSeconds: 900,
  retryLimit: 7,
  deleteAfterSeconds: 3600,
} as const;
const mappedRetries = { retryDelay: 10, retryBackoff: true, retryDelayMax: 1800 } as const;

export const PGBOSS_QUEUE_OPTIONS = {
  [PGBOSS_QUEUES.main]: { ...commonQueueOptions, ...mappedRetries, policy: "short" },
  [PGBOSS_QUEUES.fast]: { ...commonQueueOptions, retryDelay: 0, retryBackoff: false, policy: "short" },
  [PGBOSS_QUEUES.stately]: { ...commonQueueOptions, ...mappedRetries, policy: "stately" },
} as const;

/** Handlers in flight per worker process and queue: the coalescing-only queue needs one. */
export const PGBOSS_LOCAL_CONCURRENCY: Record<PgBossQueue, number> = {
  [PGBOSS_QUEUES.main]: 4,
  [PGBOSS_QUEUES.fast]: 4,
  [PGBOSS_QUEUES.stately]: 1,
};

/** Supervision (expiry and heartbeat checks) as often as our sweep runs. */
export const PGBOSS_SUPERVISE_SECONDS = 5;

/** The job's data: what processing needs without reading the event row. */
export interface JobData {
  sellerId: string;
  domain: string | null;
  status: string | null;
  orderId: string | null;
  deliveryId: string | null;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
