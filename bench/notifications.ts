// npm run bench:notifications [-- --skip-build] [-- --shops 10000] [-- --rate 200] [-- --seconds 60]
//                             [-- --warm-seconds 10] [-- --drain-seconds 120]
// New orders told by e-mail (issue 41): signed order.order/new webhooks about orders new to the
// mirror, spread across shops and two instances, each shop's owner e-mailed through a local SMTP
// sink; latency from the webhook acknowledged to the e-mail accepted, every e-mail once, CPU per
// e-mail (bench/README.md).
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { signWebhookBody } from "@marketplace/api/signature";
import { buildDashboard, clusterCpu, productionDashboardEnv, startDetached, stackCpuUsed, stopGroup } from "./lib/processes";
import type { ClusterCpu } from "./lib/processes";
import { connectExtraSellers, postAtRate, waitForServer } from "./lib/webhook-kit";
import type { ConnectedExtraSeller, SignedPost } from "./lib/webhook-kit";
import { startSmtpSink, wallClockMs } from "./lib/smtp-sink";
import type { SmtpSink, SunkMessage } from "./lib/smtp-sink";
import { percentile } from "./lib/load";
import { withServerNodeOptions } from "@/scripts/lib/server-node-options";
import { migrateFreshDatabase } from "@/scripts/migrate";

const { values: args } = parseArgs({
  options: {
    "skip-build": { type: "boolean", default: false },
    shops: { type: "string", default: "10000" },
    rate: { type: "string", default: "200" },
    seconds: { type: "string", default: "60" },
    "warm-seconds": { type: "string", default: "10" },
    "drain-seconds": { type: "string", default: "120" },
    // Writes a V8 CPU profile of each instance to .data/profiles/ (open it in Chrome DevTools),
    // from a build left unminified so that it names the app's functions (not with --skip-build).
    profile: { type: "boolean", default: false },
  },
});
const SHOPS = Number(args.shops);
const RATE = Number(args.rate);
const SECONDS = Number(args.seconds);
const WARM_SECONDS = Number(args["warm-seconds"]);
const DRAIN_SECONDS = Number(args["drain-seconds"]);
const INSTANCE_PORTS = [3350, 3351];
const SANDBOX_PORT = 4350;
const SANDBOX = `http://127.0.0.1:${SANDBOX_PORT}`;
const SMTP_PORT = 2550;
const DATABASE = "bench_notifications";

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface BenchOrder {
  shop: ConnectedExtraSeller;
  orderId: string;
}
const keyOf = (shopId: string, orderId: string) => `${shopId}/${orderId}`;

/**
 * `total` orders created now on the platform (so none is in the mirror), spread evenly over the
 * shops, in rounds: every shop's first order in a random order of shops, then every second one...
 * so consecutive webhooks are about different shops.
 */
async function createOrders(shops: readonly ConnectedExtraSeller[], total: number): Promise<BenchOrder[]> {
  const perShop = shops.map((_, index) => Math.floor(total / shops.length) + (index < total % shops.length ? 1 : 0));
  const created: string[][] = shops.map(() => []);
  let next = 0;
  const lane = async () => {
    for (let index = next++; index < shops.length; index = next++) {
      if (perShop[index] === 0) continue;
      const response = await fetch(`${SANDBOX}/_sandbox/orders`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ seller: shops[index]!.email, count: perShop[index] }),
      });
      if (response.status !== 201) throw new Error(`creating orders answered ${response.status}: ${await response.text()}`);
      created[index] = ((await response.json()) as { orders: { id: string }[] }).orders.map((order) => order.id);
    }
  };
  await Promise.all(Array.from({ length: 8 }, lane));
  const shuffled = shops
    .map((shop, index) => ({ shop, ids: created[index]!, sortKey: Math.random() }))
    .sort((a, b) => a.sortKey - b.sortKey);
  const orders: BenchOrder[] = [];
  for (let round = 0; orders.length < total; round++)
    for (const { shop, ids } of shuffled) if (round < ids.length) orders.push({ shop, orderId: ids[round]! });
  return orders;
}

/** Milliseconds since the epoch of a `timestamp` column, which holds UTC (lib/pg-pool.server.ts DB_NOW). */
const epochMs = (column: string) => `(EXTRACT(EPOCH FROM ${column}) * 1000)::float8`;

interface OrderTrail {
  shopId: string;
  orderId: string;
  /** The notification (`Notification.createdAt`: the mirror's upsert that wrote it) and its e-mail message. */
  toldAt: number;
  messageId: string | null;
  messageState: string | null;
  attempts: number | null;
  /** The fan-out wrote the message. */
  queuedAt: number | null;
  receivedAt: number | null;
  processedAt: number | null;
}

/** What the database holds about each order's notification, its e-mail message and its webhook event. */
async function trailsOf(db: pg.Client, orders: readonly BenchOrder[]): Promise<OrderTrail[]> {
  const { rows } = await db.query<OrderTrail>(
    `SELECT n."sellerId" AS "shopId", n."subject" AS "orderId", ${epochMs(`n."createdAt"`)} AS "toldAt",
            m."id" AS "messageId", m."state" AS "messageState", m."attempts", ${epochMs(`m."createdAt"`)} AS "queuedAt",
            ${epochMs(`e."receivedAt"`)} AS "receivedAt", ${epochMs(`e."processedAt"`)} AS "processedAt"
     FROM "Notification" n
     LEFT JOIN "NotificationMessage" m ON m."personId" = n."personId" AND m."sellerId" = n."sellerId" AND m."kind" = n."kind"
       AND m."channel" = 'email' AND m."subject" = n."subject"
     LEFT JOIN "WebhookEvent" e ON e."sellerId" = n."sellerId" AND e."orderId" = n."subject" AND e."source" = 'webhook'
     WHERE n."kind" = 'order.new' AND n."subject" = ANY($1::text[])`,
    [orders.map((order) => order.orderId)],
  );
  return rows;
}

/** Nothing left to do anywhere: no event to process, no notification to fan out, no message waiting. */
async function pipelineEmpty(db: pg.Client): Promise<boolean> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT (SELECT COUNT(*) FROM "WebhookWork") + (SELECT COUNT(*) FROM "NotificationFanOut")
          + (SELECT COUNT(*) FROM "NotificationMessage" WHERE "state" = 'waiting') AS n`,
  );
  return Number(rows[0]!.n) === 0;
}

/** The outbox id a Message-ID carries: `<id@host>` (features/notifications/mail/compose.server.ts). */
const outboxIdOf = (message: SunkMessage) => message.messageId?.slice(1, message.messageId.lastIndexOf("@")) ?? null;

const distribution = (values: number[]) => {
  const ordered = sorted(values);
  return { p50: percentile(ordered, 50), p95: percentile(ordered, 95), max: ordered.at(-1) ?? Number.NaN, count: ordered.length };
};
const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(0)} ms` : "–");
const spread = (values: number[]) => {
  const { p50, p95 } = distribution(values);
  return `${ms(p50)} / ${ms(p95)}`;
};

interface Cluster {
  db: pg.Client;
  sink: SmtpSink;
  instancePids: number[];
  platformPid: number;
  /** Every Message-ID accepted so far, over all phases: a second copy is a duplicate wherever it falls. */
  seen: Set<string>;
}

/**
 * Posts a webhook for each order at RATE a second, waits until each acknowledged order's e-mail
 * arrived and nothing is left to do (or DRAIN_SECONDS passed), then prints what happened.
 */
async function tellOrders(cluster: Cluster, label: string, orders: readonly BenchOrder[]) {
  const { db, sink } = cluster;
  const posts: SignedPost[] = orders.map(({ shop, orderId }, index) => {
    const body = JSON.stringify({ data: { domain: "order.order", status: "new", order_id: orderId } });
    return {
      url: `http://127.0.0.1:${INSTANCE_PORTS[index % INSTANCE_PORTS.length]}/api/webhooks/marketplace/${shop.webhookKey}`,
      body,
      signature: signWebhookBody(body, shop.token),
    };
  });
  const acknowledged = new Map<string, number>();
  const firstMessage = sink.messages.length;
  sink.connections.peak = sink.connections.open;
  const cpuBefore: ClusterCpu = clusterCpu(cluster.instancePids, cluster.platformPid);
  const started = wallClockMs();
  const { answers, sendSeconds } = await postAtRate(posts, RATE, (index, answer, at) => {
    const order = orders[index]!;
    if (typeof answer === "number" && answer >= 200 && answer < 300)
      acknowledged.set(keyOf(order.shop.id, order.orderId), performance.timeOrigin + at);
  });
  // Drained: every acknowledged order's e-mail in (by count; exactly which is checked below) and
  // nothing left to do, or the drain period over.
  const drainStarted = performance.now();
  while (performance.now() - drainStarted < DRAIN_SECONDS * 1000) {
    if (sink.messages.length - firstMessage >= acknowledged.size && (await pipelineEmpty(db))) break;
    await sleep(250);
  }
  const drainSeconds = (performance.now() - drainStarted) / 1000;
  const cpu = stackCpuUsed(cpuBefore, clusterCpu(cluster.instancePids, cluster.platformPid));

  const trails = await trailsOf(db, orders);
  const trailByMessage = new Map(trails.filter((trail) => trail.messageId).map((trail) => [trail.messageId!, trail]));
  const notified = new Set(trails.map((trail) => keyOf(trail.shopId, trail.orderId)));
  const emailed = new Map<string, SunkMessage>();
  let duplicates = 0;
  let strays = 0;
  const phaseMessages = sink.messages.slice(firstMessage);
  for (const message of phaseMessages) {
    const outboxId = outboxIdOf(message);
    if (outboxId !== null && cluster.seen.has(outboxId)) {
      duplicates++;
      continue;
    }
    if (outboxId !== null) cluster.seen.add(outboxId);
    const trail = outboxId === null ? undefined : trailByMessage.get(outboxId);
    if (!trail) strays++;
    else emailed.set(keyOf(trail.shopId, trail.orderId), message);
  }
  const missing = [...acknowledged.keys()].filter((key) => !emailed.has(key));
  const states: Record<string, number> = {};
  for (const trail of trails) states[trail.messageState ?? "no message"] = (states[trail.messageState ?? "no message"] ?? 0) + 1;

  // Latency, whole and by stage, for each order whose e-mail arrived.
  const whole: number[] = [];
  const stages = { told: [] as number[], queued: [] as number[], mail: [] as number[], data: [] as number[], accepted: [] as number[] };
  const byWindow = new Map<number, number[]>();
  for (const trail of trails) {
    const key = keyOf(trail.shopId, trail.orderId);
    const ackAt = acknowledged.get(key);
    const email = emailed.get(key);
    if (ackAt === undefined || email === undefined) continue;
    const acceptedAt = email.at;
    whole.push(acceptedAt - ackAt);
    stages.told.push(trail.toldAt - ackAt);
    if (trail.queuedAt !== null) {
      stages.queued.push(trail.queuedAt - trail.toldAt);
      stages.mail.push(email.mailAt - trail.queuedAt);
    }
    stages.data.push(email.dataAt - email.mailAt);
    stages.accepted.push(acceptedAt - email.dataAt);
    const window = Math.floor((ackAt - started) / 10_000);
    let inWindow = byWindow.get(window);
    if (!inWindow) byWindow.set(window, (inWindow = []));
    inWindow.push(acceptedAt - ackAt);
  }
  const latency = distribution(whole);
  const connections = new Set(phaseMessages.map((message) => message.connection)).size;
  // How long a connection waited for the dashboard between one message accepted and the next MAIL.
  const between = distribution(
    phaseMessages.flatMap((message) => (message.previousAt === null ? [] : [message.mailAt - message.previousAt])),
  );
  const windows = [...byWindow.entries()]
    .sort(([a], [b]) => a - b)
    .map(([window, values]) => `${window * 10}–${window * 10 + 10} s: ${ms(distribution(values).p95)}`);
  const emails = emailed.size;
  const acceptedTimes = [...emailed.values()].map((message) => message.at);
  const emailsPerSecond = emails / ((Math.max(...acceptedTimes) - Math.min(...acceptedTimes)) / 1000);
  const perEmail = (part: keyof ClusterCpu) => `${(cpu[part] / Math.max(emails, 1)).toFixed(2)} ms`;

  console.log(
    `\n${label}: ${orders.length} orders posted at ${RATE}/s in ${sendSeconds.toFixed(1)} s (answers ${JSON.stringify(answers)}); drained in ${drainSeconds.toFixed(1)} s\n` +
      `notifications written ${notified.size}, e-mails received ${emails} (${emailsPerSecond.toFixed(0)}/s from the first to the last; messages ${JSON.stringify(states)}); ` +
      `duplicates by Message-ID ${duplicates} (must be 0), missing ${missing.length} (must be 0)` +
      (strays > 0 ? `, ${strays} e-mails of no order of this phase` : "") +
      "\n" +
      `acknowledged → e-mail accepted: p50 ${ms(latency.p50)}, p95 ${ms(latency.p95)}, max ${ms(latency.max)} (target p95 ≤ 5 s; moonshot 1 s)\n` +
      `  by stage p50 / p95: acknowledged → notification written ${spread(stages.told)}, → its e-mail message written by the fan-out ${spread(stages.queued)}, ` +
      `→ MAIL FROM at the sink ${spread(stages.mail)}, → DATA ${spread(stages.data)}, → accepted ${spread(stages.accepted)}\n` +
      `  SMTP: ${(phaseMessages.reduce((sum, message) => sum + message.bytes, 0) / Math.max(phaseMessages.length, 1) / 1024).toFixed(1)} kB a message, ${connections} connections, at most ${sink.connections.peak} open at once; between a message accepted and the next MAIL FROM on a connection p50 / p95 ${ms(between.p50)} / ${ms(between.p95)}\n` +
      `  p95 by 10 s of acknowledgement: ${windows.join(", ")}\n` +
      `CPU meanwhile (posting and drain): machine ${((cpu.machine / cpu.total) * 100).toFixed(0)} % busy; per e-mail: dashboards ${perEmail("dashboards")}, ` +
      `database ${perEmail("database")}, sandbox ${perEmail("platform")}, this process (sender and sink) ${perEmail("loadGenerator")}; ` +
      // What else ran meanwhile (another test run on the same cores) weighs on every figure above.
      `other processes ${((Math.max(0, cpu.machine - cpu.dashboards - cpu.database - cpu.platform - cpu.loadGenerator) / cpu.total) * 100).toFixed(0)} % of the machine`,
  );
  if (missing.length > 0) console.log(`  missing, first few: ${missing.slice(0, 5).join(", ")}`);
  return { duplicates, missing: missing.length, unacknowledged: orders.length - acknowledged.size };
}

async function main() {
  const app = `http://127.0.0.1:${INSTANCE_PORTS[0]}`;
  const env = productionDashboardEnv(app, SANDBOX, {
    // Each shop's reconciliation slot is set a day away below: its back-fill would mirror the
    // orders as history before their webhooks, and nobody would be told.
    RECONCILE_INTERVAL_SECONDS: "300",
    WEBHOOK_PROCESSING: "inline",
    LOG_LEVEL: "warn",
    // Every order its own e-mail: with the burst rule, a shop's second order within 5 minutes would
    // wait for the window's end, gathered.
    NOTIFY_BURST_SECONDS: "0",
    SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
    MAIL_FROM: "Painel do vendedor <avisos@bench.example>",
  });
  if (!args["skip-build"]) buildDashboard(args.profile ? { ...env, BENCH_READABLE_PROFILE: "1" } : env);
  env.DATABASE_URL = await migrateFreshDatabase(DATABASE);
  const db = new pg.Client({ connectionString: env.DATABASE_URL, options: "-c timezone=UTC" });
  await db.connect();
  const sink = await startSmtpSink(SMTP_PORT);

  let started = performance.now();
  const sandbox = startDetached(process.execPath, ["--import", "tsx", "sandbox/main.ts"], {
    ...process.env,
    SANDBOX_PORT: String(SANDBOX_PORT),
    SANDBOX_SEED_ORDERS: "0",
    SANDBOX_SEED_SELLERS: String(SHOPS),
    // The seeded history is not used (the orders are created below, at now); 1 is the least allowed.
    SANDBOX_SEED_SELLER_ORDERS: "1",
  });
  await waitForServer(`${SANDBOX}/_sandbox/health`, 300_000);
  console.log(`sandbox with ${SHOPS} extra sellers up in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  started = performance.now();
  const shops = await connectExtraSellers(db, env, SANDBOX, SHOPS);
  await db.query(
    `INSERT INTO "SellerSync" ("sellerId", "nextRunAt") SELECT "sellerId", now() AT TIME ZONE 'UTC' + interval '1 day' FROM "Connection"`,
  );
  // The owners chose no morning digest: past its hour (08:00 on the shop's clock), the instances
  // would write one for every owner at their start, an e-mail each on top of the orders'.
  await db.query(
    `INSERT INTO "NotificationChoice" ("personId", "sellerId", "kind", "email", "push") SELECT "personId", "sellerId", 'digest', false, false FROM "Membership"`,
  );
  const warmCount = RATE * WARM_SECONDS;
  const orders = await createOrders(shops, warmCount + RATE * SECONDS);
  console.log(
    `${shops.length} shops connected, each owner with an e-mail address; ${orders.length} orders created on the platform in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const profile = args.profile ? ["--cpu-prof", "--cpu-prof-dir", path.resolve(".data/profiles")] : [];
  const instances = INSTANCE_PORTS.map((port) =>
    startDetached(
      process.execPath,
      [...profile, "node_modules/next/dist/bin/next", "start", "--port", String(port)],
      withServerNodeOptions(env),
    ),
  );
  await Promise.all(INSTANCE_PORTS.map((port) => waitForServer(`http://127.0.0.1:${port}/api/health`, 120_000)));
  console.log(`two instances, NOTIFY_BURST_SECONDS=0, e-mail to a sink on 127.0.0.1:${SMTP_PORT}`);

  const cluster: Cluster = { db, sink, instancePids: instances.map((child) => child.pid!), platformPid: sandbox.pid!, seen: new Set() };
  const outcomes: Awaited<ReturnType<typeof tellOrders>>[] = [];
  if (warmCount > 0) outcomes.push(await tellOrders(cluster, "warm-up (not counted)", orders.slice(0, warmCount)));
  outcomes.push(await tellOrders(cluster, "measured", orders.slice(warmCount)));

  const failed = outcomes.some((outcome) => outcome.duplicates > 0 || outcome.missing > 0 || outcome.unacknowledged > 0);
  console.log(
    failed
      ? "\nCHECK FAILED: an order unacknowledged, an e-mail missing or sent twice"
      : "\nCHECK OK: every order acknowledged and e-mailed once",
  );
  process.exitCode = failed ? 1 : 0;
  if (args.profile) {
    // The profiles are written as the instances exit.
    instances.forEach(stopGroup);
    await Promise.all(instances.map((child) => new Promise((resolve) => child.once("exit", resolve))));
  }
  await sink.close();
  await db.end();
}

await main();
process.exit();
