// npm run bench:instances [-- --skip-build] [-- --duration 20] [-- --connections 50]
// Two dashboard instances on one database: embedded server start, A → B live-stream latency, events/s
// in total, and every event processed once (bench/README.md).
import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { encode } from "next-auth/jwt";
import { parseEnv } from "@/lib/env.js";
import { backlogDrained, makeOrderEvents, postSignedEvents, prepareWebhookBench, startDashboard, waitForServer } from "./lib/webhook-kit";
import type { BenchDashboard } from "./lib/webhook-kit";
import type { SignedPayload } from "./lib/webhook-kit";
import { embeddedServerState, startEmbeddedServer, stopEmbeddedServer } from "@/scripts/lib/embedded-postgres";
import { percentile } from "./lib/load";

const { values: args } = parseArgs({
  options: {
    "skip-build": { type: "boolean", default: false },
    duration: { type: "string", default: "20" },
    connections: { type: "string", default: "50" },
  },
});
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const PORTS = { a: 3320, b: 3321 };
const origin = (port: number) => `http://127.0.0.1:${port}`;
const BENCH_DATABASE = "bench_instances";
const PLATFORM_PORT = 4320;

const env = parseEnv(process.env);
const childEnv = { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" } as NodeJS.ProcessEnv;
const dashboards: BenchDashboard[] = [];

function stopAll() {
  for (const dashboard of dashboards) dashboard.signal("SIGTERM");
}

/** Proportional set size of a process and its children, in MB: shared memory counted once. */
function pssMb(rootPid: number): number {
  const pids = [rootPid];
  for (const entry of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${entry}/status`, "utf8"))?.[1]);
      if (ppid === rootPid) pids.push(Number(entry));
    } catch {}
  }
  let kb = 0;
  for (const pid of pids) {
    try {
      kb += Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))?.[1] ?? 0);
    } catch {}
  }
  return kb / 1024;
}

function measureEmbeddedStart() {
  const parent = mkdtempSync(path.join(".data", "bench-embedded-"));
  chmodSync(parent, 0o755);
  const dataDir = path.resolve(parent, "postgres");
  const port = 55_950;
  try {
    let started = performance.now();
    startEmbeddedServer({ dataDir, port });
    const cold = performance.now() - started;
    const state = embeddedServerState(dataDir);
    const idleMb = state.running ? pssMb(state.pid) : Number.NaN;
    stopEmbeddedServer(dataDir);
    started = performance.now();
    startEmbeddedServer({ dataDir, port });
    const warm = performance.now() - started;
    started = performance.now();
    startEmbeddedServer({ dataDir, port });
    const reuse = performance.now() - started;
    return { cold, warm, reuse, idleMb };
  } finally {
    stopEmbeddedServer(dataDir);
    rmSync(parent, { recursive: true, force: true });
  }
}

/** A live stream of instance B, read as a browser's EventSource would, timing each order message. */
async function openStream(url: string, cookie: string, onOrder: (key: string) => void) {
  const response = await fetch(url, { headers: { cookie } });
  if (response.status !== 200) throw new Error(`live stream answered ${response.status}`);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (!block.includes("event: order")) continue;
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (!data) continue;
        const message = JSON.parse(data) as { domain: string; status: string; orderId: string };
        onOrder(`${message.domain}:${message.status}:${message.orderId}`);
      }
    }
  })();
  return () => reader.cancel().catch(() => {});
}

const post = (url: string, payload: SignedPayload) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", "x-svc-signature": payload.signature }, body: payload.body });

async function main() {
  console.log("Embedded PostgreSQL (scratch data directory):");
  const embedded = measureEmbeddedStart();
  console.log(
    `  cold start (initdb + start) ${embedded.cold.toFixed(0)} ms, warm start ${embedded.warm.toFixed(0)} ms, ` +
      `already running ${embedded.reuse.toFixed(0)} ms; idle memory ${embedded.idleMb.toFixed(0)} MB (PSS, all its processes)`,
  );

  const {
    db,
    platform,
    seller: shop,
  } = await prepareWebhookBench({
    database: BENCH_DATABASE,
    platformPort: PLATFORM_PORT,
    childEnv,
    skipBuild: args["skip-build"],
  });
  const warmOrders = await platform.createOrders("seller@example.com", 200);
  const pacedOrders = await platform.createOrders("seller@example.com", 500);
  const loadOrders = await platform.createOrders("seller@example.com", DURATION * 400);

  for (const port of [PORTS.a, PORTS.b]) dashboards.push(startDashboard(port, childEnv));
  await Promise.all([waitForServer(`${origin(PORTS.a)}/api/health`), waitForServer(`${origin(PORTS.b)}/api/health`)]);

  // A session for the bench seller, as Auth.js would have issued after the OAuth flow.
  const { AUTH_SECRET } = parseEnv(childEnv);
  // A session names its person and its server-side row, and when it began.
  const sessionId = `bench-${randomBytes(8).toString("hex")}`;
  await db.query(`INSERT INTO "PersonSession" (id, "personId") VALUES ($1, $2)`, [sessionId, shop.personId]);
  const jwt = await encode({
    token: { personId: shop.personId, sub: shop.personId, sessionId, startedAt: Date.now() },
    secret: AUTH_SECRET,
    salt: "authjs.session-token",
  });
  const arrivals = new Map<string, number>();
  const closeStream = await openStream(`${origin(PORTS.b)}/api/s/${shop.sellerId}/live`, `authjs.session-token=${jwt}`, (key) => {
    if (!arrivals.has(key)) arrivals.set(key, performance.now());
  });

  const receiver = (port: number) => `${origin(port)}/api/webhooks/marketplace/${shop.webhookKey}`;
  // Warm both instances (JIT, module loading, the receiver's key cache).
  for (const payload of makeOrderEvents(warmOrders, 200, shop.accessToken))
    await post(receiver(payload.orderId < "8" ? PORTS.a : PORTS.b), payload);
  await new Promise((resolve) => setTimeout(resolve, 1_000));

  // Paced: 500 events at 50/s to A, each timed to its arrival on B's stream.
  const paced = makeOrderEvents(pacedOrders, 500, shop.accessToken);
  const sentAt = new Map<string, number>();
  for (const payload of paced) {
    sentAt.set(payload.key, performance.now());
    void post(receiver(PORTS.a), payload);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const latencies = (events: Iterable<[string, number]>) =>
    [...events]
      .map(([key, sent]) => (arrivals.get(key) ?? Number.NaN) - sent)
      .filter(Number.isFinite)
      .sort((a, b) => a - b);
  const pacedLatencies = latencies(sentAt);

  // Throughput: both instances loaded at once; events sent to A are timed to B's stream too.
  const loadEvents = makeOrderEvents(loadOrders, DURATION * 4_000, shop.accessToken);
  let next = 0;
  const loadSentAtA = new Map<string, number>();
  const loadOn = (port: number) =>
    postSignedEvents({
      url: receiver(port),
      connections: CONNECTIONS,
      seconds: DURATION,
      next: () => {
        const payload = loadEvents[next++ % loadEvents.length]!;
        if (port === PORTS.a) loadSentAtA.set(payload.key, performance.now());
        return payload;
      },
    });
  console.log(`\nLoad: ${DURATION}s, ${CONNECTIONS} connections on each of A and B…`);
  const [onA, onB] = await Promise.all([loadOn(PORTS.a), loadOn(PORTS.b)]);
  await backlogDrained(db, shop.sellerId);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const loadLatencies = latencies(loadSentAtA);
  closeStream();

  const { rows } = await db.query<{ events: number; processed: number; once: number }>(
    `SELECT COUNT(*)::int AS events,
            COUNT(*) FILTER (WHERE "processingState" = 'processed')::int AS processed,
            (SELECT COUNT(*)::int FROM (
               SELECT m."payload"->>'eventId' FROM "LiveMessage" m
               WHERE m."sellerId" = $1
               GROUP BY 1 HAVING COUNT(*) = 1) once) AS once
     FROM "WebhookEvent" WHERE "sellerId" = $1`,
    [shop.sellerId],
  );
  const stored = rows[0]!;
  await db.end();
  const server = env.EMBEDDED_DATABASE ? embeddedServerState() : { running: false as const };
  const serverMb = server.running ? pssMb(server.pid) : Number.NaN;

  const total = onA.requests.total + onB.requests.total;
  const non2xx = onA.non2xx + onB.non2xx + onA.errors + onB.errors + onA.timeouts + onB.timeouts;
  const fmt = (values: number[]) =>
    `p50 ${percentile(values, 50).toFixed(1)} ms, p95 ${percentile(values, 95).toFixed(1)} ms, p99 ${percentile(values, 99).toFixed(1)} ms (${values.length} events)`;
  console.log(`\nreceived on A → live stream on B, paced 50/s: ${fmt(pacedLatencies)}   (target p95 ≤ 100 ms)`);
  console.log(`received on A → live stream on B, under full load: ${fmt(loadLatencies)}`);
  console.log(
    `events/s in total: ${(total / DURATION).toFixed(0)} (A ${onA.requests.average.toFixed(0)}/s, B ${onB.requests.average.toFixed(0)}/s; ` +
      `p99 A ${onA.latency.p99} ms, B ${onB.latency.p99} ms); non-2xx or errors: ${non2xx}`,
  );
  console.log(`stored ${stored.events}, processed ${stored.processed}, processed exactly once ${stored.once}`);
  if (Number.isFinite(serverMb))
    console.log(`embedded PostgreSQL memory after the run: ${serverMb.toFixed(0)} MB (PSS, all its processes)`);
  const ok = non2xx === 0 && stored.processed === stored.events && stored.once === stored.events && pacedLatencies.length === paced.length;
  console.log(ok ? "CHECK OK: nothing lost, every event processed once, every paced event reached B" : "CHECK FAILED");
  process.exitCode = ok ? 0 : 1;
  stopAll();
  platform.stop();
}

await main();
