// npm run bench:scale [-- --skip-build] [-- --shops 10000] [-- --concurrency 4] [-- --rate 200]
//                     [-- --event-seconds 60] [-- --warm-seconds 10] [-- --events 5000000] [-- --skip-event-log]
//                     [-- --skip-reconcile-sweep] [-- --profile]
// Ten thousand shops on two instances: connect, reconciliation sweeps with every shop due at once,
// events spread across shops, then bench:event-log (phases and targets: bench/README.md).
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { signWebhookBody } from "@marketplace/api/signature";
import { buildDashboard, clusterCpu, productionDashboardEnv, stackCpuUsed } from "./lib/processes";
import { connectExtraSellers, postAtRate, waitForServer } from "./lib/webhook-kit";
import { percentile } from "./lib/load";
import { scrapeMetric } from "./lib/metrics";
import { withServerNodeOptions } from "@/scripts/lib/server-node-options";
import { migrateFreshDatabase } from "@/scripts/migrate";

const { values: args } = parseArgs({
  options: {
    "skip-build": { type: "boolean", default: false },
    shops: { type: "string", default: "10000" },
    concurrency: { type: "string", default: "4" },
    rate: { type: "string", default: "200" },
    "event-seconds": { type: "string", default: "60" },
    "warm-seconds": { type: "string", default: "10" },
    events: { type: "string", default: "5000000" },
    "skip-event-log": { type: "boolean", default: false },
    "skip-reconcile-sweep": { type: "boolean", default: false },
    profile: { type: "boolean", default: false },
  },
});
const SHOPS = Number(args.shops);
const RATE = Number(args.rate);
const EVENT_SECONDS = Number(args["event-seconds"]);
const WARM_SECONDS = Number(args["warm-seconds"]);
const INSTANCES = [
  { port: 3340, metricsPort: 9470 },
  { port: 3341, metricsPort: 9471 },
];
const SANDBOX_PORT = 4340;
const SANDBOX = `http://127.0.0.1:${SANDBOX_PORT}`;
const DATABASE = "bench_scale";

const children: ChildProcess[] = [];
const spawned: { sandbox?: ChildProcess; instances: ChildProcess[] } = { instances: [] };
function startGroup(command: string, commandArgs: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(command, commandArgs, { env, stdio: ["ignore", "ignore", "inherit"], detached: true });
  children.push(child);
  return child;
}
function stopAll() {
  for (const child of children) {
    try {
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    } catch {}
  }
}
process.on("exit", stopAll);

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

/** The sum of a counter or histogram count over every instance's /metrics, optionally filtered by a label text. */
async function scrapeSum(name: string, labelFilter = ""): Promise<number> {
  let total = 0;
  for (const { metricsPort } of INSTANCES) {
    for (const { labels, value } of await scrapeMetric(`http://127.0.0.1:${metricsPort}/metrics`, name)) {
      if (labels.includes(labelFilter)) total += value;
    }
  }
  return total;
}

interface SweepFigures {
  seconds: number;
  lag: { p50: number; p95: number; max: number };
  platformRequestsPerSecond: number;
  connections: { max: number; mean: number };
  failed: number;
}

/** Makes every shop due now, then waits until each has completed a run since; samples connections meanwhile. */
async function sweep(db: pg.Client): Promise<SweepFigures> {
  const requestsBefore = await scrapeSum("dashboard_platform_request_duration_seconds_count");
  const runsBefore = await scrapeSum("dashboard_reconcile_runs_total", 'outcome="');
  const okBefore = await scrapeSum("dashboard_reconcile_runs_total", 'outcome="ok"');
  const { rows } = await db.query<{ now: Date }>(`SELECT now() AT TIME ZONE 'UTC' AS now`);
  const since = rows[0]!.now;
  await db.query(`UPDATE "SellerSync" SET "nextRunAt" = now() AT TIME ZONE 'UTC'`);
  const started = performance.now();
  const connections: number[] = [];
  for (;;) {
    const [done, active] = await Promise.all([
      db.query<{ n: number }>(`SELECT COUNT(*)::int AS n FROM "SellerSync" WHERE "lastReconciledAt" >= $1`, [since]),
      db.query<{ n: number }>(
        `SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'dashboard%'`,
      ),
    ]);
    connections.push(active.rows[0]!.n);
    if (done.rows[0]!.n >= SHOPS) break;
    if (performance.now() - started > 1_800_000) throw new Error(`sweep unfinished after 30 min: ${done.rows[0]!.n} of ${SHOPS}`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  const elapsedMs = performance.now() - started;
  const lags = await db.query<{ lag: number }>(
    `SELECT EXTRACT(EPOCH FROM (now() AT TIME ZONE 'UTC') - "lastReconciledAt")::float8 AS lag FROM "SellerSync"`,
  );
  const lag = sorted(lags.rows.map((row) => row.lag));
  const requests = (await scrapeSum("dashboard_platform_request_duration_seconds_count")) - requestsBefore;
  const runs = (await scrapeSum("dashboard_reconcile_runs_total", 'outcome="')) - runsBefore;
  const ok = (await scrapeSum("dashboard_reconcile_runs_total", 'outcome="ok"')) - okBefore;
  return {
    seconds: elapsedMs / 1000,
    lag: { p50: percentile(lag, 50), p95: percentile(lag, 95), max: lag.at(-1)! },
    platformRequestsPerSecond: requests / (elapsedMs / 1000),
    connections: { max: Math.max(...connections), mean: connections.reduce((a, b) => a + b, 0) / connections.length },
    failed: runs - ok,
  };
}

const ORDER_NOTIFICATIONS = [
  ...["new", "approved", "cancelled", "finished"].map((status) => ({ domain: "order.order", status })),
  ...["created", "received", "posted", "delivered"].map((status) => ({ domain: "order.delivery", status })),
];

/** CPU used so far, in ms, by each part: both instances, PostgreSQL, the sandbox, this process, and the machine. */
const cpuByPart = () =>
  clusterCpu(
    spawned.instances.map((child) => child.pid!),
    spawned.sandbox!.pid!,
  );

type Shops = Map<string, { token: string; webhookKey: string }>;
type MirroredOrder = { sellerId: string; orderId: string };

/**
 * `RATE` events a second for `seconds`, each a distinct body about a mirrored order of a random shop
 * (events `first`… of the shuffled list), to both instances in turn.
 */
async function eventLoad(db: pg.Client, shops: Shops, orders: MirroredOrder[], first: number, seconds: number) {
  const total = RATE * seconds;
  if (orders.length * ORDER_NOTIFICATIONS.length < first + total)
    throw new Error(`${orders.length} mirrored orders give too few distinct events`);
  const events = Array.from({ length: total }, (_, index) => {
    const i = first + index;
    const order = orders[i % orders.length]!;
    const { domain, status } = ORDER_NOTIFICATIONS[Math.floor(i / orders.length)]!;
    const shop = shops.get(order.sellerId)!;
    const body = JSON.stringify({ data: { domain, status, order_id: order.orderId } });
    const instance = INSTANCES[i % INSTANCES.length]!;
    return {
      url: `http://127.0.0.1:${instance.port}/api/webhooks/marketplace/${shop.webhookKey}`,
      body,
      signature: signWebhookBody(body, shop.token),
    };
  });
  const { rows } = await db.query<{ now: Date }>(`SELECT now() AT TIME ZONE 'UTC' AS now`);
  const since = rows[0]!.now;
  const cpuBefore = cpuByPart();
  const { answers, sendSeconds } = await postAtRate(events, RATE);
  for (;;) {
    const { rows: left } = await db.query<{ n: number }>(
      `SELECT COUNT(*)::int AS n FROM "WebhookEvent" WHERE "source" = 'webhook' AND "receivedAt" >= $1 AND "processingState" IN ('pending', 'processing', 'retrying')`,
      [since],
    );
    if (left[0]!.n === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const cpu = stackCpuUsed(cpuBefore, cpuByPart());
  const { rows: done } = await db.query<{ latency: number; processedAt: Date; receivedAt: Date; processingState: string }>(
    `SELECT EXTRACT(EPOCH FROM "processedAt" - "receivedAt")::float8 * 1000 AS latency, "processedAt", "receivedAt", "processingState"
     FROM "WebhookEvent" WHERE "source" = 'webhook' AND "receivedAt" >= $1`,
    [since],
  );
  const latencies = sorted(done.map((row) => row.latency));
  const firstReceived = Math.min(...done.map((row) => row.receivedAt.getTime()));
  const last = Math.max(...done.map((row) => row.processedAt.getTime()));
  const states: Record<string, number> = {};
  for (const row of done) states[row.processingState] = (states[row.processingState] ?? 0) + 1;
  // p95 by 10 s of receipt, to show a transient apart from the steady state.
  const windows: string[] = [];
  for (let from = 0; from < seconds; from += 10) {
    const inWindow = sorted(
      done
        .filter(
          (row) => row.receivedAt.getTime() - firstReceived >= from * 1000 && row.receivedAt.getTime() - firstReceived < (from + 10) * 1000,
        )
        .map((row) => row.latency),
    );
    if (inWindow.length > 0) windows.push(`${from}–${from + 10} s: ${percentile(inWindow, 95).toFixed(0)}`);
  }
  return {
    sent: total,
    sendSeconds,
    cpu,
    answers,
    states,
    perSecond: done.length / ((last - firstReceived) / 1000),
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    max: latencies.at(-1)!,
    windows,
  };
}

function printLoad(label: string, load: Awaited<ReturnType<typeof eventLoad>>) {
  console.log(
    `\n${label}: ${load.sent} sent at ${RATE}/s in ${load.sendSeconds.toFixed(1)} s (answers ${JSON.stringify(load.answers)}; ${JSON.stringify(load.states)})\n` +
      `processed ${load.perSecond.toFixed(0)}/s; receipt → processed p50 ${load.p50.toFixed(0)} ms, p95 ${load.p95.toFixed(0)} ms, max ${load.max.toFixed(0)} ms\n` +
      `p95 (ms) by 10 s of receipt: ${load.windows.join(", ")}\n` +
      `CPU meanwhile: machine ${((load.cpu.machine / load.cpu.total) * 100).toFixed(0)} % busy; per event: ` +
      (["dashboards", "database", "platform", "loadGenerator"] as const)
        .map((part) => `${part} ${(load.cpu[part] / load.sent).toFixed(2)} ms`)
        .join(", "),
  );
}

async function main() {
  const app = `http://127.0.0.1:${INSTANCES[0]!.port}`;
  const env = productionDashboardEnv(app, SANDBOX, {
    RECONCILE_INTERVAL_SECONDS: "300",
    RECONCILE_CONCURRENCY: args.concurrency,
    WEBHOOK_PROCESSING: "inline",
    LOG_LEVEL: "warn",
  });
  if (!args["skip-build"]) buildDashboard(env);
  env.DATABASE_URL = await migrateFreshDatabase(DATABASE);
  const db = new pg.Client({ connectionString: env.DATABASE_URL, options: "-c timezone=UTC" });
  await db.connect();

  let started = performance.now();
  spawned.sandbox = startGroup(process.execPath, ["--import", "tsx", "sandbox/main.ts"], {
    ...process.env,
    SANDBOX_PORT: String(SANDBOX_PORT),
    SANDBOX_SEED_ORDERS: "0",
    SANDBOX_SEED_SELLERS: String(SHOPS),
  });
  await waitForServer(`${SANDBOX}/_sandbox/health`, 300_000);
  console.log(`sandbox with ${SHOPS} extra sellers (${SHOPS * 5} orders) up in ${seconds(performance.now() - started)} s`);

  started = performance.now();
  const shops = await connectExtraSellers(db, env, SANDBOX, SHOPS);
  // Scheduled, but not yet due: the sweeps below make every shop due at the same moment.
  await db.query(
    `INSERT INTO "SellerSync" ("sellerId", "nextRunAt") SELECT "sellerId", now() AT TIME ZONE 'UTC' + interval '1 day' FROM "Connection"`,
  );
  console.log(
    `${shops.length} shops connected (tokens from POST /_sandbox/tokens, no OAuth flows) in ${seconds(performance.now() - started)} s`,
  );

  for (const instance of INSTANCES) {
    const instanceEnv = withServerNodeOptions({ ...env, METRICS_PORT: String(instance.metricsPort) });
    if (args.profile) instanceEnv.NODE_OPTIONS = `${instanceEnv.NODE_OPTIONS} --cpu-prof --cpu-prof-dir=${path.resolve(".data/profiles")}`;
    spawned.instances.push(
      startGroup(process.execPath, ["node_modules/next/dist/bin/next", "start", "--port", String(instance.port)], instanceEnv),
    );
  }
  for (const instance of INSTANCES) await waitForServer(`http://127.0.0.1:${instance.metricsPort}/metrics`, 120_000);
  console.log(`two instances (RECONCILE_CONCURRENCY=${args.concurrency} each)\n`);

  console.log("sweep                     | time s | lag p50/p95/max s   | platform req/s | db connections max/mean | failed runs");
  for (const label of ["back-fill (after connect)", ...(args["skip-reconcile-sweep"] ? [] : ["reconciliation"])]) {
    const figures = await sweep(db);
    console.log(
      `${label.padEnd(25)} | ${figures.seconds.toFixed(1).padStart(6)} | ${[figures.lag.p50, figures.lag.p95, figures.lag.max]
        .map((value) => value.toFixed(1))
        .join(" / ")
        .padEnd(
          19,
        )} | ${figures.platformRequestsPerSecond.toFixed(0).padStart(14)} | ${`${figures.connections.max} / ${figures.connections.mean.toFixed(1)}`.padStart(23)} | ${figures.failed}`,
    );
  }

  // Back to the normal schedule (slots spread over the interval) while events arrive.
  await db.query(`UPDATE "SellerSync" SET "nextRunAt" = now() AT TIME ZONE 'UTC' + random() * interval '300 seconds'`);
  const eventsStarted = performance.now();
  const byShop: Shops = new Map(shops.map((shop) => [shop.id, shop]));
  const { rows: orders } = await db.query<MirroredOrder>(`SELECT "sellerId", "orderId" FROM "OrderMirror" ORDER BY random()`);
  if (WARM_SECONDS > 0) printLoad(`warm-up (not counted)`, await eventLoad(db, byShop, orders, 0, WARM_SECONDS));
  printLoad("events", await eventLoad(db, byShop, orders, RATE * WARM_SECONDS, EVENT_SECONDS));

  if (args.profile) {
    // The instances write their CPU profiles (.data/profiles) as they exit, which SIGKILL would prevent.
    for (const child of spawned.instances) process.kill(-child.pid!, "SIGTERM");
    await Promise.all(
      spawned.instances.map((child) => new Promise((resolve) => (child.exitCode === null ? child.once("exit", resolve) : resolve(null)))),
    );
    console.log(
      `CPU profiles of both instances in .data/profiles (the event phase is their last ${seconds(performance.now() - eventsStarted)} s)`,
    );
  }
  stopAll();
  await db.end();

  if (!args["skip-event-log"]) {
    const { runEventLogBench } = await import("./event-log");
    await runEventLogBench({ events: Number(args.events) });
  }
}

await main();
process.exit(0);
