// npm run bench:durability [-- --skip-build] [-- --duration 30] [-- --connections 50] [-- --kill-at 10] [-- --ratio-only]
// Nothing lost when the dashboard is killed, the database refuses connections or notifications are
// dropped, against a production build and the real sandbox (phases: bench/README.md).
import { parseArgs } from "node:util";
import pg from "pg";
import { Pool } from "undici";
import { NO_STACK_CPU, processGroupAlive, stackCpu, stackCpuUsed } from "./lib/processes";
import type { StackCpu } from "./lib/processes";
import { backlogDrained, makeOrderEvents, prepareWebhookBench, startDashboard, waitForServer } from "./lib/webhook-kit";
import type { BenchDashboard } from "./lib/webhook-kit";
import type { BenchSeller, SignedPayload } from "./lib/webhook-kit";

const { values: args } = parseArgs({
  options: {
    "skip-build": { type: "boolean", default: false },
    duration: { type: "string", default: "30" },
    connections: { type: "string", default: "50" },
    "kill-at": { type: "string", default: "10" },
    // Phase 0 alone: the floor and the receiver's rates and their ratio, then stop.
    "ratio-only": { type: "boolean", default: false },
  },
});
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const KILL_AT = Number(args["kill-at"]);
const PORT = 3330;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const PLATFORM_PORT = 4330;
const BENCH_DATABASE = "bench_durability";
const RECONCILE_INTERVAL_SECONDS = 10;
const OUTAGE_SECONDS = 2;
const PHASE3_ORDERS = 2_000;
/** Events per second no run reaches: each load gets that many per second it lasts, so none runs out. */
const RATE_BOUND = 2_500;
/** Each route is warmed this long, in two alternating halves: the floor's own rate climbs for tens of seconds after a start (bench:webhooks). */
const WARM_SECONDS = 10;
const PHASE2_SECONDS = 10;
/** The floor and the receiver alternate in this many rounds of ROUND_SECONDS each before phase 1. */
const ROUNDS = 4;
const ROUND_SECONDS = 5;

// Phases 0-2 keep the deployed interval: each run re-lists five minutes of orders, which every 10 s
// would weigh on the measured throughput.
const childEnv = {
  ...process.env,
  NODE_ENV: "production",
  BENCH_FLOOR_ROUTE: "1",
  NEXT_TELEMETRY_DISABLED: "1",
} as NodeJS.ProcessEnv;

let dashboard: BenchDashboard | null = null;

function startServer(env = childEnv) {
  dashboard = startDashboard(PORT, env);
}

function killServer(signal: NodeJS.Signals) {
  dashboard?.signal(signal);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface SenderStats {
  /** Distinct events the sender started sending. */
  sent: number;
  /** Distinct events answered 2xx. */
  acknowledged: Set<number>;
  attempts: number;
  failures: number;
  /** Acknowledgements per second, by second since the start. */
  perSecond: number[];
}

/**
 * The platform's side: each connection retries its event until acknowledged, or `tailMs` after
 * `seconds`. Through undici's pool: the sender's own CPU weighs on what is measured, and undici's
 * costs less than node:http's (bench/README.md).
 */
async function sendWithRetries(url: string, payloads: readonly SignedPayload[], seconds: number, tailMs = 60_000): Promise<SenderStats> {
  const target = new URL(url);
  const connections = new Pool(target.origin, { connections: CONNECTIONS, pipelining: 1, headersTimeout: 10_000, bodyTimeout: 10_000 });
  const stats: SenderStats = { sent: 0, acknowledged: new Set(), attempts: 0, failures: 0, perSecond: [] };
  const started = performance.now();
  const stopTaking = started + seconds * 1000;
  const giveUp = stopTaking + tailMs;
  let next = 0;
  /** The answer's status, or 0 when there was none (connection refused or cut, timeout). */
  const post = async (payload: SignedPayload): Promise<number> => {
    try {
      const response = await connections.request({
        method: "POST",
        path: target.pathname,
        headers: { "content-type": "application/json", "x-svc-signature": payload.signature },
        body: payload.body,
      });
      await response.body.dump();
      return response.statusCode;
    } catch {
      return 0;
    }
  };
  const lane = async () => {
    while (performance.now() < stopTaking && next < payloads.length) {
      const index = next++;
      stats.sent++;
      for (let retry = 0; performance.now() < giveUp; retry++) {
        stats.attempts++;
        const status = await post(payloads[index]!);
        if (status >= 200 && status < 300) {
          stats.acknowledged.add(index);
          const second = Math.floor((performance.now() - started) / 1000);
          stats.perSecond[second] = (stats.perSecond[second] ?? 0) + 1;
          break;
        }
        stats.failures++;
        await sleep(Math.min(1_000, 100 * 2 ** retry));
      }
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, lane));
  await connections.destroy();
  return stats;
}

interface Stored {
  notifications: number;
  receipts: number;
  processed: number;
  processedTwice: number;
  storedBodies: Set<string>;
}

async function lastReconciledAt(db: pg.Client, shop: BenchSeller): Promise<number | null> {
  const { rows } = await db.query<{ at: Date | null }>(`SELECT "lastReconciledAt" AS at FROM "SellerSync" WHERE "sellerId" = $1`, [
    shop.sellerId,
  ]);
  return rows[0]?.at?.getTime() ?? null;
}

/**
 * Waits until every process of the dashboard has exited. Not "until the port stops answering":
 * a graceful Next server finishes the requests of connections already open, and polling it over
 * a kept-alive connection keeps it answering.
 */
async function waitForExit(server: BenchDashboard, timeoutMs = 30_000) {
  for (let waited = 0; waited < timeoutMs; waited += 250) {
    if (!processGroupAlive(server.pid)) return;
    await sleep(250);
  }
  throw new Error(`the dashboard (process group ${server.pid}) is still running ${timeoutMs / 1000} s after SIGTERM`);
}

/**
 * Each processing of an order event leaves one live message of type "order"; a failed attempt leaves
 * one of type "event", which is not a processing.
 */
async function storedOf(db: pg.Client, shop: BenchSeller, payloads: readonly SignedPayload[]): Promise<Stored> {
  const bodies = payloads.map((payload) => payload.body);
  const { rows } = await db.query<{ rawBody: string; processingState: string; messages: number }>(
    // Counted once per event, then joined: a counting subquery per event took minutes.
    `WITH messages AS (
       SELECT m."payload"->>'eventId' AS "eventId", COUNT(*)::int AS n FROM "LiveMessage" m
       WHERE m."sellerId" = $1 AND m."payload"->>'type' = 'order' GROUP BY 1
     )
     SELECT e."rawBody", e."processingState", COALESCE(messages.n, 0) AS messages
     FROM "WebhookEvent" e
     JOIN (SELECT DISTINCT body FROM unnest($2::text[]) AS sent(body)) sent ON sent.body = e."rawBody"
     LEFT JOIN messages ON messages."eventId" = e."id"
     WHERE e."sellerId" = $1`,
    [shop.sellerId, bodies],
  );
  return {
    notifications: new Set(rows.map((row) => row.rawBody)).size,
    receipts: rows.length,
    processed: rows.filter((row) => row.processingState === "processed").length,
    processedTwice: rows.filter((row) => row.messages > 1).length,
    storedBodies: new Set(rows.map((row) => row.rawBody)),
  };
}

function report(label: string, payloads: readonly SignedPayload[], stats: SenderStats, stored: Stored) {
  const acknowledged = [...stats.acknowledged].map((index) => payloads[index]!.body);
  const lost = acknowledged.filter((body) => !stored.storedBodies.has(body)).length;
  const unprocessed = stored.receipts - stored.processed;
  console.log(
    `${label}: events sent ${stats.sent} (${stats.attempts} attempts, ${stats.failures} refused or failed and retried), ` +
      `acknowledged ${stats.acknowledged.size}, stored ${stored.notifications} (${stored.receipts} receipts), processed ${stored.processed}; ` +
      `LOST ${lost}, left unprocessed ${unprocessed}, processed more than once ${stored.processedTwice}`,
  );
  return lost === 0 && unprocessed === 0 && stored.processedTwice === 0 && stats.acknowledged.size === stats.sent;
}

async function main() {
  const {
    databaseUrl: url,
    db,
    platform,
    seller: shop,
  } = await prepareWebhookBench({
    database: BENCH_DATABASE,
    platformPort: PLATFORM_PORT,
    childEnv,
    skipBuild: args["skip-build"],
  });
  const loadSeconds = 2 * WARM_SECONDS + 2 * ROUNDS * ROUND_SECONDS + DURATION + PHASE2_SECONDS;
  // Up to 10 distinct notifications per order (makeOrderEvents).
  const orders = await platform.createOrders("seller@example.com", Math.ceil((loadSeconds * RATE_BOUND) / 10));
  const all = makeOrderEvents(orders, loadSeconds * RATE_BOUND, shop.accessToken);
  let taken = 0;
  /** The next events of `all`, enough for `seconds` of load: no event is sent in two loads. */
  const take = (seconds: number) => all.slice(taken, (taken += seconds * RATE_BOUND));
  const receiverUrl = `${ORIGIN}/api/webhooks/marketplace/${shop.webhookKey}`;
  const floorUrl = `${ORIGIN}/api/bench/floor/${shop.webhookKey}`;
  let ok = true;

  try {
    startServer();
    await waitForServer(`${ORIGIN}/api/health/ready`);
    // The mirror's back-fill (the orders above) runs at start: let it finish before measuring.
    for (let waited = 0; waited < 60_000; waited += 250) {
      const { rows } = await db.query(`SELECT 1 FROM "SellerSync" WHERE "sellerId" = $1 AND "backfillState" = 'done'`, [shop.sellerId]);
      if (rows.length > 0) break;
      await sleep(250);
    }
    // Alternating rounds: one round of each would be at the mercy of the machine's drift.
    for (let half = 0; half < 2; half++) {
      await sendWithRetries(floorUrl, take(WARM_SECONDS / 2), WARM_SECONDS / 2);
      await sendWithRetries(receiverUrl, take(WARM_SECONDS / 2), WARM_SECONDS / 2);
    }
    await backlogDrained(db, shop.sellerId);
    // Per route over its rounds: events acknowledged, and the CPU each part of the stack used.
    const measured = (url: string) => ({
      url,
      rounds: [] as number[],
      acknowledged: 0,
      cpu: { ...NO_STACK_CPU },
      seconds: 0,
      drainSeconds: [] as number[],
    });
    type Measured = ReturnType<typeof measured>;
    const routes = { floor: measured(floorUrl), receiver: measured(receiverUrl) };
    for (let round = 0; round < ROUNDS; round++) {
      for (const route of [routes.floor, routes.receiver]) {
        const before = stackCpu(dashboard!.pid, platform.pid);
        const started = performance.now();
        const acknowledged = (await sendWithRetries(route.url, take(ROUND_SECONDS), ROUND_SECONDS)).acknowledged.size;
        // Its processing finishes before the next round, so the floor's rounds never pay for it.
        route.drainSeconds.push(await backlogDrained(db, shop.sellerId));
        const used = stackCpuUsed(before, stackCpu(dashboard!.pid, platform.pid));
        route.seconds += (performance.now() - started) / 1000;
        route.acknowledged += acknowledged;
        route.rounds.push(Math.round(acknowledged / ROUND_SECONDS));
        for (const key of Object.keys(used) as (keyof StackCpu)[]) route.cpu[key] += used[key];
      }
    }
    const perRequest = (key: keyof StackCpu) =>
      [routes.floor, routes.receiver].map((route) => (route.cpu[key] / Math.max(1, route.acknowledged)).toFixed(3)).join(" / ");
    const busy = (route: Measured) => `${((route.cpu.machine / Math.max(1, route.cpu.total)) * 100).toFixed(0)}%`;
    // The server thread's time: on a core, runnable but waiting for one, and idle (waiting on a commit, the sender).
    const share = (key: keyof StackCpu) =>
      [routes.floor, routes.receiver].map((route) => `${((route.cpu[key] / (route.seconds * 1000)) * 100).toFixed(0)}%`).join(" / ");
    console.log(
      `CPU per request: server thread ${perRequest("serverThread")} ms ` +
        `(busy ${share("serverThread")}, waiting for a core ${share("serverThreadWaiting")}), ` +
        `server process ${perRequest("server")} ms, database ${perRequest("database")} ms, platform ${perRequest("platform")} ms, ` +
        `sender ${perRequest("loadGenerator")} ms, machine ${perRequest("machine")} ms (floor / receiver); ` +
        `cores busy ${busy(routes.floor)} / ${busy(routes.receiver)}`,
    );
    await backlogDrained(db, shop.sellerId);
    const floorRps = routes.floor.acknowledged / (ROUNDS * ROUND_SECONDS);
    const receiverRps = routes.receiver.acknowledged / (ROUNDS * ROUND_SECONDS);
    console.log(
      `\nFloor and receiver, ${ROUNDS} alternating rounds of ${ROUND_SECONDS}s each over ${CONNECTIONS} connections, the same retrying sender: ` +
        `floor ${floorRps.toFixed(0)}/s, receiver ${receiverRps.toFixed(0)}/s, ratio ${(receiverRps / floorRps).toFixed(3)} (target ≥ 0.85)`,
    );
    console.log(`  per round (events/s): floor ${routes.floor.rounds.join(", ")}; receiver ${routes.receiver.rounds.join(", ")}`);
    console.log(
      `  after each receiver round, its processing finished in (s): ${routes.receiver.drainSeconds.map((seconds) => seconds.toFixed(1)).join(", ")}; ` +
        `events processed per second of round and drain: ${(routes.receiver.acknowledged / routes.receiver.seconds).toFixed(0)}`,
    );

    if (args["ratio-only"]) return;

    // Phase 1: killed mid-load, restarted.
    const phase1 = take(DURATION);
    console.log(`\nPhase 1: ${DURATION}s over ${CONNECTIONS} connections, SIGKILL at ${KILL_AT}s, restarted at once`);
    let restartedAt = 0;
    const killer = (async () => {
      await sleep(KILL_AT * 1000);
      killServer("SIGKILL");
      startServer();
      restartedAt = performance.now();
      await waitForServer(`${ORIGIN}/api/health/ready`);
      console.log(`  restarted: ready ${((performance.now() - restartedAt) / 1000).toFixed(1)} s after the kill`);
    })();
    const stats1 = await sendWithRetries(receiverUrl, phase1, DURATION);
    const loadEndedAt = performance.now();
    await killer;
    await backlogDrained(db, shop.sellerId);
    const emptySeconds = (performance.now() - restartedAt) / 1000;
    const emptyAfterLoad = (performance.now() - loadEndedAt) / 1000;
    const beforeKill = stats1.perSecond.slice(1, KILL_AT).reduce((sum, count) => sum + (count ?? 0), 0) / Math.max(1, KILL_AT - 1);
    ok = report("  phase 1", phase1, stats1, await storedOf(db, shop, phase1)) && ok;
    console.log(
      `  queue empty ${emptySeconds.toFixed(1)} s after the restart (the load went on for ${(DURATION - KILL_AT).toFixed(0)} s of it), ` +
        `${emptyAfterLoad.toFixed(1)} s after the load ended`,
    );
    console.log(
      `  events/s before the kill: ${beforeKill.toFixed(0)}; floor route, same build and sender (the rounds above): ${floorRps.toFixed(0)}/s; ` +
        `ratio ${(beforeKill / floorRps).toFixed(3)} (target ≥ 0.85)`,
    );

    // Phase 2: the database refuses connections for 2 s during the load.
    const phase2 = take(PHASE2_SECONDS);
    console.log(`\nPhase 2: ${PHASE2_SECONDS}s of load, the database refusing connections for ${OUTAGE_SECONDS}s from the 4th second`);
    const name = new URL(url).pathname.slice(1);
    const admin = new pg.Client({ connectionString: new URL("/postgres", url).toString() });
    await admin.connect();
    const outage = (async () => {
      await sleep(4_000);
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [name]);
      await sleep(OUTAGE_SECONDS * 1000);
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
    })();
    db.on("error", () => {});
    const stats2 = await sendWithRetries(receiverUrl, phase2, PHASE2_SECONDS);
    await outage;
    await admin.end();
    const db2 = new pg.Client({ connectionString: url });
    await db2.connect();
    await backlogDrained(db2, shop.sellerId);
    ok = report("  phase 2", phase2, stats2, await storedOf(db2, shop, phase2)) && ok;

    // Phase 3: notifications dropped by the platform; reconciliation must recover them. The
    // dashboard restarts (gracefully) with a short interval, and its first run at start is let finish.
    const reconciledBefore = await lastReconciledAt(db2, shop);
    // The shop was seeded back-filled with its next check an hour away (bench/lib/webhook-kit.ts),
    // so that no check runs during the rounds: it is due now, and the restarted dashboard checks it.
    await db2.query(`UPDATE "SellerSync" SET "nextRunAt" = now() AT TIME ZONE 'UTC' WHERE "sellerId" = $1`, [shop.sellerId]);
    const stopping = dashboard!;
    killServer("SIGTERM");
    await waitForExit(stopping);
    // childEnv has the database's and the platform's URLs by now (prepareWebhookBench).
    startServer({ ...childEnv, RECONCILE_INTERVAL_SECONDS: String(RECONCILE_INTERVAL_SECONDS) });
    await waitForServer(`${ORIGIN}/api/health/ready`);
    for (let waited = 0; waited < 60_000 && (await lastReconciledAt(db2, shop)) === reconciledBefore; waited += 250) await sleep(250);
    console.log(
      `\nPhase 3: ${PHASE3_ORDERS} orders created while the sandbox drops 20% of notifications (reconciliation every ${RECONCILE_INTERVAL_SECONDS}s)`,
    );
    const token = shop.accessToken;
    const setUrl = await fetch(`${platform.url}/v1.0/marketplace/webhooks/url`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ url: receiverUrl }),
    });
    if (setUrl.status !== 200) throw new Error(`setting the callback URL answered ${setUrl.status}`);
    await fetch(`${platform.url}/_sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ dropWebhookRate: 0.2 }),
    });
    const created = await platform.createOrders("seller@example.com", PHASE3_ORDERS);
    const createdAt = performance.now();
    const ids = created.map((order) => order.id);
    const deliveries = (await (await fetch(`${platform.url}/_sandbox/deliveries`)).json()) as { deliveries: { state: string }[] };
    const dropped = deliveries.deliveries.filter((delivery) => delivery.state === "dropped").length;
    let mirrored = 0;
    const deadline = createdAt + (RECONCILE_INTERVAL_SECONDS + 20) * 1000;
    while (performance.now() < deadline) {
      const { rows } = await db2.query<{ n: number }>(
        `SELECT COUNT(*)::int AS n FROM "OrderMirror" WHERE "sellerId" = $1 AND "orderId" = ANY($2::text[])`,
        [shop.sellerId, ids],
      );
      mirrored = rows[0]!.n;
      if (mirrored === ids.length) break;
      await sleep(250);
    }
    const allInSeconds = (performance.now() - createdAt) / 1000;
    const { rows: sources } = await db2.query<{ source: string; orders: number }>(
      `SELECT "source", COUNT(DISTINCT "orderId")::int AS orders FROM "WebhookEvent" WHERE "sellerId" = $1 AND "orderId" = ANY($2::text[]) GROUP BY "source"`,
      [shop.sellerId, ids],
    );
    const bySource = Object.fromEntries(sources.map((row) => [row.source, row.orders]));
    console.log(
      `  notifications dropped by the platform: ${dropped}; orders in the mirror: ${mirrored} of ${ids.length}, all of them ${allInSeconds.toFixed(1)} s after creation; ` +
        `by notification ${bySource.webhook ?? 0}, by reconciliation ${bySource.reconciliation ?? 0}`,
    );
    const phase3ok = mirrored === ids.length && allInSeconds <= RECONCILE_INTERVAL_SECONDS + 15;
    console.log(
      `  ${phase3ok ? "every order mirrored within one interval (+ the settle window and the reconciliation's own time)" : "SOME ORDERS MISSING"}`,
    );
    ok = phase3ok && ok;
    await db2.end();
  } finally {
    killServer("SIGINT");
    platform.stop();
    await db.end().catch(() => {});
  }
  console.log(ok ? "\nCHECK OK: nothing lost in any phase" : "\nCHECK FAILED");
  process.exitCode = ok ? 0 : 1;
}

await main();
