import type pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type * as MetricsServer from "@/lib/metrics-server.server";
import type * as Processing from "@/features/webhooks/process/process.server";
import type * as Reconcile from "@/features/webhooks/sync/reconcile.server";
import type * as Live from "@/features/webhooks/live/live-stream.server";
import { startTestSandbox } from "@marketplace/sandbox/testing";
import type { TestSandbox } from "@marketplace/sandbox/testing";
import { connect, useTestDatabase } from "../support/database";
import { connectTestShop, sweepUntil } from "../support/shops";
import { freeFixedPorts } from "../support/free-port";
import { deliverToReceiver } from "../support/receiver";

// The metrics endpoint as Prometheus sees it, scraped over HTTP before and after each thing an
// operator must be able to see happen: a webhook received and processed, a refused one, a
// platform failure, an event given up on, a reconciliation, a live stream. A real sandbox and a
// database of this file's own, as in durable-processing.test.ts.
let sandbox: TestSandbox;
let sql: pg.Client;
let token: string;
let shopId: string;
let webhookKey: string;
let metricsUrl: string;
let metricsServer: typeof MetricsServer;
let processing: typeof Processing;
let reconcile: typeof Reconcile;
let live: typeof Live;

beforeAll(async () => {
  const databaseUrl = await useTestDatabase();
  sandbox = await startTestSandbox({ config: { seedOrders: 5 } });
  process.env.MARKETPLACE_BASE_URL = sandbox.url;
  processing = await import("@/features/webhooks/process/process.server");
  reconcile = await import("@/features/webhooks/sync/reconcile.server");
  live = await import("@/features/webhooks/live/live-stream.server");
  metricsServer = await import("@/lib/metrics-server.server");
  // Retries milliseconds apart, and few, so an event's whole life fits in the test.
  (await import("@/features/webhooks/process/apply-event.server")).configureRetryPolicy({
    maxAttempts: 2,
    baseSeconds: 0.05,
    capSeconds: 0.1,
  });
  ({ token, sellerId: shopId, webhookKey } = await connectTestShop({ sandboxUrl: sandbox.url }));
  sql = await connect(databaseUrl);
  const [port] = await freeFixedPorts(1);
  const server = await metricsServer.startMetricsServer({ port: port!, host: "127.0.0.1" });
  expect(server).not.toBeNull();
  metricsUrl = `http://127.0.0.1:${server!.port}/metrics`;
}, 60_000);

afterAll(async () => {
  await processing?.stopWebhookProcessing(100);
  await metricsServer?.stopMetricsServer();
  await sql?.end();
  await sandbox?.close();
});

beforeEach(async () => {
  await sandbox.api("/_sandbox/faults", { method: "POST", json: { errorRate: 0, latencyMs: 0 } });
});

/** Samples by name and labels, as `name{a="1",b="2"}` (labels sorted) → value. */
type Samples = Map<string, number>;

function parseMetrics(text: string): Samples {
  const samples: Samples = new Map();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`Not a Prometheus sample: ${line}`);
    const labels = [...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, name, value]) => `${name}="${value}"`).sort();
    samples.set(`${match[1]}{${labels.join(",")}}`, Number(match[3]));
  }
  return samples;
}

async function scrape(): Promise<Samples> {
  const response = await fetch(metricsUrl);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  return parseMetrics(await response.text());
}

/** The sum of a metric's samples whose labels include `labels` (0 when none). */
function value(samples: Samples, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([label, labelValue]) => `${label}="${labelValue}"`);
  let sum = 0;
  for (const [key, sample] of samples) {
    const brace = key.indexOf("{");
    if (key.slice(0, brace) !== name) continue;
    const have = key.slice(brace + 1, -1).split(",");
    if (wanted.every((label) => have.includes(label))) sum += sample;
  }
  return sum;
}

const has = (samples: Samples, name: string, labels: Record<string, string> = {}) =>
  [...samples.keys()].some(
    (key) => key.startsWith(`${name}{`) && Object.entries(labels).every(([label, labelValue]) => key.includes(`${label}="${labelValue}"`)),
  );

const deliver = (body: string) => deliverToReceiver(webhookKey, body, { signWith: token });

async function createOrder(): Promise<string> {
  const response = await sandbox.api("/_sandbox/orders", { method: "POST", json: { seller: "seller@example.com" } });
  return ((await response.json()) as { orders: { id: string }[] }).orders[0]!.id;
}

const orderEvent = (orderId: string) => JSON.stringify({ data: { domain: "order.order", status: "new", order_id: orderId } });

const stateOf = async (body: string) =>
  (
    await sql.query<{ processingState: string; attempts: number }>(
      `SELECT "processingState", "attempts" FROM "WebhookEvent" WHERE "rawBody" = $1`,
      [body],
    )
  ).rows[0];

describe("the metrics endpoint", () => {
  it("serves the Prometheus text format at /metrics only", async () => {
    const samples = await scrape();
    // The process's own, under their usual names.
    expect(value(samples, "process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(has(samples, "nodejs_eventloop_lag_seconds")).toBe(true);
    // Read from the database at scrape time.
    for (const name of [
      "dashboard_queue_depth",
      "dashboard_queue_oldest_age_seconds",
      "dashboard_events_dead",
      "dashboard_reconcile_shops_overdue",
    ]) {
      expect(has(samples, name), name).toBe(true);
    }
    expect(has(samples, "dashboard_reconcile_lag_seconds", { stat: "max" })).toBe(true);
    expect(has(samples, "dashboard_reconcile_lag_seconds", { stat: "p95" })).toBe(true);
    for (const pool of ["dashboard", "receiver"]) {
      for (const state of ["total", "idle", "waiting"])
        expect(has(samples, "dashboard_db_pool_connections", { pool, state }), `${pool} ${state}`).toBe(true);
    }
    expect((await fetch(metricsUrl.replace("/metrics", "/"))).status).toBe(404);
    expect((await fetch(`${metricsUrl}x`)).status).toBe(404);
    expect((await fetch(metricsUrl, { method: "POST" })).status).toBe(405);
  });

  it("counts a webhook received, coalesced and processed, with the receiver's answer and the platform call", async () => {
    const before = await scrape();
    const body = orderEvent(await createOrder());
    // A copy arriving while the first is still being written is folded into it (on a busy machine,
    // one arriving after the first was taken up would be a new receipt). The queue's table is held
    // by this test until both copies' writes wait on it: one event, one copy folded into it.
    const lock = await connect(process.env.DATABASE_URL!);
    const writesWaiting = async () =>
      (await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = '"WebhookWork"'::regclass`))
        .rows[0]!.n;
    let responses: Response[];
    try {
      await lock.query(`BEGIN; LOCK TABLE "WebhookWork" IN EXCLUSIVE MODE`);
      const first = deliver(body);
      await expect.poll(writesWaiting).toBe(1);
      const second = deliver(body);
      await expect.poll(writesWaiting).toBe(2);
      await lock.query("COMMIT");
      responses = await Promise.all([first, second]);
    } finally {
      await lock.end();
    }
    expect(responses.map((response) => response.status)).toEqual([200, 200]);
    await sweepUntil(async () => (await stateOf(body))?.processingState === "processed");
    const after = await scrape();

    expect(value(after, "dashboard_events_received_total") - value(before, "dashboard_events_received_total")).toBe(1);
    expect(value(after, "dashboard_events_coalesced_total") - value(before, "dashboard_events_coalesced_total")).toBe(1);
    expect(value(after, "dashboard_events_processed_total") - value(before, "dashboard_events_processed_total")).toBe(1);
    // Taken up by this instance as it received it, through the gate.
    expect(value(after, "dashboard_processing_batches_total") - value(before, "dashboard_processing_batches_total")).toBeGreaterThanOrEqual(
      1,
    );
    const count = (samples: Samples, outcome: string) => value(samples, "dashboard_webhook_request_duration_seconds_count", { outcome });
    expect(count(after, "accepted") - count(before, "accepted")).toBe(1);
    expect(count(after, "duplicate") - count(before, "duplicate")).toBe(1);
    expect(
      value(after, "dashboard_webhook_request_duration_seconds_sum") - value(before, "dashboard_webhook_request_duration_seconds_sum"),
    ).toBeGreaterThan(0);
    const platformOk = (samples: Samples) =>
      value(samples, "dashboard_platform_request_duration_seconds_count", { endpoint: "listOrders", status: "200" });
    expect(platformOk(after)).toBeGreaterThan(platformOk(before));
  });

  it("counts a refused delivery by its outcome", async () => {
    const before = await scrape();
    const forged = await deliverToReceiver(webhookKey, orderEvent(await createOrder()), { signWith: "not the seller's token" });
    expect(forged.status).toBe(401);
    expect((await deliverToReceiver("no-such-receiver", "{}", { signWith: token })).status).toBe(404);
    const after = await scrape();
    const count = (samples: Samples, outcome: string) => value(samples, "dashboard_webhook_request_duration_seconds_count", { outcome });
    expect(count(after, "unauthorized") - count(before, "unauthorized")).toBe(1);
    expect(count(after, "not_found") - count(before, "not_found")).toBe(1);
    expect(value(after, "dashboard_events_received_total")).toBe(value(before, "dashboard_events_received_total"));
  });

  it("counts a platform failure, the retry, and the event given up on", async () => {
    const orderId = await createOrder();
    const before = await scrape();
    await sandbox.api("/_sandbox/faults", { method: "POST", json: { errorRate: 1 } });
    const body = orderEvent(orderId);
    expect((await deliver(body)).status).toBe(200);
    await sweepUntil(async () => (await stateOf(body))?.processingState === "dead");
    const after = await scrape();

    // Two attempts (maxAttempts 2): the first failed and was retried, the second gave up.
    expect(value(after, "dashboard_events_failed_total") - value(before, "dashboard_events_failed_total")).toBe(1);
    expect(value(after, "dashboard_events_dead_total") - value(before, "dashboard_events_dead_total")).toBe(1);
    const platform500 = (samples: Samples) => value(samples, "dashboard_platform_request_duration_seconds_count", { status: "500" });
    expect(platform500(after) - platform500(before)).toBeGreaterThanOrEqual(2);
    // And the cluster-wide gauges see it: dead, not waiting.
    expect(value(after, "dashboard_events_dead") - value(before, "dashboard_events_dead")).toBe(1);
    expect(value(after, "dashboard_queue_depth")).toBe(0);
  });

  it("reports the queue's depth and its oldest event's age while an event waits", async () => {
    // Written straight into the queue, as an event nobody has taken up yet, received a minute ago.
    await sql.query(
      `INSERT INTO "WebhookEvent" ("id", "sellerId", "receivedAt", "lastReceivedAt", "rawBody", "bodyHash", "headers", "signatureResult", "valid", "processingState")
       VALUES ('metrics-waiting', $1, (now() AT TIME ZONE 'UTC') - interval '60 seconds', (now() AT TIME ZONE 'UTC'), '{}', 'metrics-waiting', '{}', 'valid', false, 'pending')`,
      [shopId],
    );
    await sql.query(
      `INSERT INTO "WebhookWork" ("eventId", "availableAt") VALUES ('metrics-waiting', (now() AT TIME ZONE 'UTC') + interval '1 hour')`,
    );
    try {
      const samples = await scrape();
      expect(value(samples, "dashboard_queue_depth")).toBe(1);
      expect(value(samples, "dashboard_queue_oldest_age_seconds")).toBeGreaterThanOrEqual(59);
    } finally {
      await sql.query(`DELETE FROM "WebhookEvent" WHERE "id" = 'metrics-waiting'`);
    }
  });

  it("counts a reconciliation run, and reports the shops' reconciliation lag", async () => {
    const before = await scrape();
    // Connected, never reconciled: its lag counts from when it connected.
    expect(value(before, "dashboard_reconcile_lag_seconds", { stat: "max" })).toBeGreaterThanOrEqual(0);
    await reconcile.reconcileShopOnce(shopId);
    const after = await scrape();
    const runs = (samples: Samples) => value(samples, "dashboard_reconcile_runs_total", { outcome: "ok" });
    expect(runs(after) - runs(before)).toBe(1);
    expect(value(after, "dashboard_reconcile_lag_seconds", { stat: "max" })).toBeLessThan(60);
    expect(value(after, "dashboard_reconcile_shops_overdue")).toBe(0);
  });

  it("counts open live streams", async () => {
    const before = value(await scrape(), "dashboard_live_streams_open");
    const browser = new AbortController();
    const response = await live.liveStreamResponse(shopId, new Request("http://localhost/api/s/x/live", { signal: browser.signal }));
    expect(value(await scrape(), "dashboard_live_streams_open")).toBe(before + 1);
    browser.abort();
    await response.body?.cancel().catch(() => {});
    expect(value(await scrape(), "dashboard_live_streams_open")).toBe(before);
  });

  it("still answers when a database query fails, without the gauges it could not read", async () => {
    await sql.query(`ALTER TABLE "SellerSync" RENAME TO "SellerSyncAway"`);
    try {
      const samples = await scrape();
      expect(has(samples, "dashboard_reconcile_lag_seconds")).toBe(false);
      expect(has(samples, "dashboard_reconcile_shops_overdue")).toBe(false);
      expect(has(samples, "dashboard_queue_depth")).toBe(true);
      expect(value(samples, "process_resident_memory_bytes")).toBeGreaterThan(0);
    } finally {
      await sql.query(`ALTER TABLE "SellerSyncAway" RENAME TO "SellerSync"`);
    }
    expect(has(await scrape(), "dashboard_reconcile_shops_overdue")).toBe(true);
  });

  it("keeps one registry when the module is loaded again, as Next.js's bundles do", async () => {
    const first = await import("@/lib/metrics.server");
    vi.resetModules();
    const second = await import("@/lib/metrics.server");
    expect(second).not.toBe(first);
    expect(second.metrics.eventsReceived).toBe(first.metrics.eventsReceived);
    expect(second.metricsRegistry).toBe(first.metricsRegistry);
    await expect(second.metricsRegistry.metrics()).resolves.toContain("dashboard_events_received_total");
    await expect(second.metricsRegistry.metrics()).resolves.toContain("dashboard_queue_depth");
    // And the server is the one already listening, not a second one on another port.
    const again = await (await import("@/lib/metrics-server.server")).startMetricsServer();
    expect(again && `http://127.0.0.1:${again.port}/metrics`).toBe(metricsUrl);
  });
});
