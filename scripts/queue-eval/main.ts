// npm run bench:queue-eval [-- --runs 2] [-- --sides ours,pgboss] [-- --head-to-head-only] [-- --keep]
// Our webhook queue against a pg-boss 12 prototype of the same pipeline, phase by phase on decision
// 0004's promises (scripts/README.md; figures and verdict in decision 0011).
import { loadavg } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { PgBoss } from "pg-boss";
import { cpuOfTree } from "../lib/bench-processes";
import { seedBenchSeller, startBenchPlatform } from "../lib/bench-webhook-kit";
import type { BenchPlatform } from "../lib/bench-webhook-kit";
import { dropDatabase } from "../lib/database";
import { runPrismaCli } from "../lib/prisma-cli";
import { migrateFreshDatabase } from "../migrate";
import { Child } from "./ipc";
import type { RunResult } from "./receiver";
import {
  COORDINATOR_APP,
  DATABASES,
  LIVE_CHANNEL,
  PGBOSS_QUEUE_OPTIONS,
  PGBOSS_QUEUES,
  distinctBodies,
  percentile,
  probeBody,
  sleep,
} from "./shared";
import type { EvalOrder, PgBossQueue, Side } from "./shared";

const { values: args } = parseArgs({
  options: {
    runs: { type: "string", default: "2" },
    sides: { type: "string", default: "ours,pgboss" },
    // The receivers' alternating rounds alone.
    "head-to-head-only": { type: "boolean", default: false },
    // Leave the databases for a look afterwards (dropped by default).
    keep: { type: "boolean", default: false },
  },
});
const RUNS = Number(args.runs);
const SIDES = args.sides.split(",") as Side[];
const PLATFORM_PORT = 4361;
const ORDERS = 6_500;
const HERE = import.meta.dirname;
const RECEIVER_FILE = path.join(HERE, "receiver.ts");
const WORKER_FILE = path.join(HERE, "worker.ts");

const SINGLE = { seconds: 5, count: 15_000 };
const BATCHED = { seconds: 8, count: 25_000, lanes: 50 };
const DRAIN_TIMEOUT_MS = 120_000;
const STEADY = { perSecond: 200, seconds: 15 };
const KILL = { perSecond: 200, seconds: 20, killAfterMs: 5_000, platformLatencyMs: 100, recoveryTimeoutMs: 60_000 };
const TAKE_UP_LATENCY_MS = 1_500;

// ---------------------------------------------------------------------------------------------
// Observing a side: completions (NOTIFY), connections, the database

/** When each event's processing was announced (its "order" live message, at COMMIT), by event id. */
class Completions {
  readonly first = new Map<string, number>();
  constructor(listener: pg.Client) {
    listener.on("notification", (notification) => {
      if (notification.channel !== LIVE_CHANNEL || !notification.payload) return;
      const at = Date.now();
      for (const entry of JSON.parse(notification.payload) as { message: { type: string; eventId: string } }[]) {
        if (entry.message.type === "order" && !this.first.has(entry.message.eventId)) this.first.set(entry.message.eventId, at);
      }
    });
  }

  /** Waits until every id was announced, or `deadline` (Date.now()) passed; answers how many were. */
  async wait(ids: readonly string[], deadline: number): Promise<number> {
    for (;;) {
      const done = ids.filter((id) => this.first.has(id)).length;
      if (done === ids.length || Date.now() > deadline) return done;
      await sleep(100);
    }
  }
}

interface ConnectionPeak {
  total: number;
  byApp: Record<string, number>;
}

/** pg_stat_activity for the side's database every 250 ms: the most connections each phase saw. */
class ConnectionSampler {
  phase = "setup";
  readonly peaks = new Map<string, ConnectionPeak>();
  private stopped = false;
  private readonly done: Promise<void>;

  constructor(
    private readonly client: pg.Client,
    database: string,
  ) {
    this.done = (async () => {
      while (!this.stopped) {
        const { rows } = await client.query<{ app: string; n: number }>(
          `SELECT application_name AS app, COUNT(*)::int AS n FROM pg_stat_activity
           WHERE datname = $1 AND backend_type = 'client backend' AND application_name <> $2 GROUP BY 1`,
          [database, COORDINATOR_APP],
        );
        const byApp: Record<string, number> = {};
        for (const row of rows) {
          // pg-boss names each instance's pool "pgboss:<id>": counted together.
          const app = row.app.startsWith("pgboss:") ? "pgboss" : row.app || "(none)";
          byApp[app] = (byApp[app] ?? 0) + row.n;
        }
        const total = rows.reduce((sum, row) => sum + row.n, 0);
        if (total > (this.peaks.get(this.phase)?.total ?? -1)) this.peaks.set(this.phase, { total, byApp });
        await sleep(250);
      }
    })();
  }

  async stop() {
    this.stopped = true;
    await this.done;
    await this.client.end();
  }
}

async function connectTo(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: COORDINATOR_APP, options: "-c timezone=UTC" });
  client.on("error", () => {});
  await client.connect();
  return client;
}

/**
 * CPU used so far by this database's client backends (not the coordinator's), by pid. Only the
 * side's own connections: the machine's other PostgreSQL work (other databases, other sessions
 * sharing the server) is left out; so are autovacuum and the WAL writer.
 */
async function backendCpu(db: pg.Client, database: string): Promise<Map<number, number>> {
  const { rows } = await db.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend' AND application_name <> $2`,
    [database, COORDINATOR_APP],
  );
  return new Map(rows.map((row) => [row.pid, cpuOfTree(row.pid)]));
}

/** CPU between two backendCpu snapshots, in ms (a backend that ended in between is missed). */
function backendCpuUsed(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

/**
 * Statistics for a database that has just been filled, as a deployed one has them: on a fresh one
 * our receiver's prepared upsert can keep a generic plan made on an empty table (decision 0011, Consequences).
 */
async function analyze(db: pg.Client) {
  await db.query("ANALYZE");
}

async function storedAndProcessed(db: pg.Client, ids: readonly string[]) {
  const { rows } = await db.query<{ stored: number; processed: number }>(
    `SELECT COUNT(e."id")::int AS stored, COUNT(*) FILTER (WHERE e."processingState" = 'processed')::int AS processed
     FROM unnest($1::text[]) AS sent(id) LEFT JOIN "WebhookEvent" e ON e."id" = sent.id`,
    [ids],
  );
  return rows[0]!;
}

/** Events whose processing was recorded more than once (two live messages of type "order"). */
async function processedTwice(db: pg.Client, ids: readonly string[]): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT COUNT(*)::int AS n FROM (
       SELECT m."payload"->>'eventId' FROM "LiveMessage" m
       WHERE m."payload"->>'type' = 'order' AND m."payload"->>'eventId' = ANY($1::text[])
       GROUP BY 1 HAVING COUNT(*) > 1) twice`,
    [ids],
  );
  return rows[0]!.n;
}

async function receivedAt(db: pg.Client, ids: readonly string[]): Promise<Map<string, number>> {
  const { rows } = await db.query<{ id: string; ms: number }>(
    `SELECT "id", (extract(epoch FROM "receivedAt") * 1000)::float8 AS ms FROM "WebhookEvent" WHERE "id" = ANY($1::text[])`,
    [ids],
  );
  return new Map(rows.map((row) => [row.id, row.ms]));
}

// ---------------------------------------------------------------------------------------------
// One side, once

interface EnqueueFigures {
  eventsPerSecond: number;
  ackP50: number;
  ackP95: number;
  receiverCpuUsPerEvent: number;
  databaseCpuUsPerEvent: number;
  failures: number;
}

interface KillFigures {
  acked: number;
  failures: number;
  inFlight: number;
  recoveryMaxMs: number;
  recoveryMinMs: number;
  lost: number;
  processedTwice: number;
}

/** 0004's duplicate rule, probed on one queue (ours; a pg-boss policy). */
interface CoalescingFigures {
  waiting?: { sent: number; answeredDuplicate: number; events: number; queueItems: number; duplicateCount: number };
  takeUp?: { repeatAfterTakeUpIsNew: boolean; thirdCopy: string; receipts: number; secondDoneAfterFirstMs: number };
  retry?: { repeatWhileRetryingIsNew: boolean; receipts: number };
  retrySlot?: { newerProcessed: boolean; newerAfterKillMs: number; newerFinal: string; olderProcessed: boolean };
}

interface SideResult {
  side: Side;
  run: number;
  setup?: { pgbossInstallMs: number; pgbossTables: number; prismaStatus: string };
  coalescing: Record<string, CoalescingFigures>;
  single: EnqueueFigures;
  batched: EnqueueFigures;
  drain: { events: number; processed: number; eventsPerSecond: number; workerCpuMsPerEvent: number; databaseCpuMsPerEvent: number };
  steady: { acked: number; failures: number; lost: number; p50: number; p95: number; p99: number; ackP95: number };
  kill: KillFigures;
  killFast?: KillFigures;
  connections: Record<string, ConnectionPeak>;
  /** The machine's 1-minute load average at the start and the end: other work shares its 2 cores. */
  load: [number, number];
}

type Enqueued = { id: string; duplicate: boolean };
type Worker = { worker: Child; instanceId?: string };

/**
 * A side's fresh database: our migrations, a connected seller, and for pg-boss its schema and
 * queues (then a check that Prisma still finds its own schema up to date).
 */
async function prepareSide(side: Side, platform: BenchPlatform, token: string) {
  const url = await migrateFreshDatabase(DATABASES[side]);
  const db = await connectTo(url);
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    DATABASE_URL: url,
    MARKETPLACE_BASE_URL: platform.url,
    MARKETPLACE_AUTH_URL: platform.url,
    WEBHOOK_PROCESSING: "worker",
    QUEUE_EVAL_SIDE: side,
  };
  const seller = await seedBenchSeller(db, childEnv, token);
  if (side === "ours") return { url, db, childEnv, seller };
  const started = performance.now();
  const boss = new PgBoss({ connectionString: url, max: 2, supervise: false, schedule: false, instanceName: "queue-eval-setup" });
  boss.on("error", (error) => console.error(`[pgboss setup] ${error.message}`));
  await boss.start();
  for (const [name, options] of Object.entries(PGBOSS_QUEUE_OPTIONS)) await boss.createQueue(name, options);
  await boss.stop({ graceful: false });
  const pgbossInstallMs = performance.now() - started;
  const tables = await db.query<{ n: number }>(`SELECT COUNT(*)::int AS n FROM information_schema.tables WHERE table_schema = 'pgboss'`);
  const status = runPrismaCli(["migrate", "status"], { databaseUrl: url, stdio: "pipe" });
  const said = `${status.stdout ?? ""}${status.stderr ?? ""}`;
  const prismaStatus =
    status.status === 0 && /up to date/i.test(said)
      ? "up to date"
      : `exit ${status.status}: ${said.trim().split("\n").slice(-2).join(" ")}`;
  return { url, db, childEnv, seller, setup: { pgbossInstallMs, pgbossTables: tables.rows[0]!.n, prismaStatus } };
}

async function runSide(side: Side, run: number, platform: BenchPlatform, orders: EvalOrder[], token: string): Promise<SideResult> {
  const database = DATABASES[side];
  const { url, db, childEnv, seller, setup } = await prepareSide(side, platform, token);
  const result = { side, run, setup, connections: {}, coalescing: {}, load: [loadavg()[0]!, 0] } as SideResult;
  const faults = async (body: Record<string, number>) => {
    const response = await fetch(`${platform.url}/_sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`faults answered ${response.status}`);
  };
  await faults({ errorRate: 0, latencyMs: 0 });

  const listener = await connectTo(url);
  const completions = new Completions(listener);
  await listener.query(`LISTEN ${LIVE_CHANNEL}`);
  const sampler = new ConnectionSampler(await connectTo(url), database);
  const queue: PgBossQueue = PGBOSS_QUEUES.main;
  // The queues the duplicate rule is probed on, each with probe bodies of its own.
  const variants: { name: string; queue: PgBossQueue }[] =
    side === "ours"
      ? [{ name: "ours", queue }]
      : [
          { name: "short", queue },
          { name: "stately", queue: PGBOSS_QUEUES.stately },
        ];
  const probe = (variant: number, which: number) => variant * 4 + which;
  let cursor = 0;

  const receiver = new Child(`${side} receiver`, RECEIVER_FILE, childEnv);
  await receiver.waitFor("ready");
  await receiver.call("init", { orders, sellerId: seller.sellerId });
  const send = (probeNumber: number, onQueue: PgBossQueue, copies = 1, concurrent = false) =>
    receiver.call<Enqueued[]>("repeat", { probe: probeNumber, copies, concurrent, queue: onQueue });

  const workers: Child[] = [];
  /** What each pg-boss worker took (its handler started), by worker. */
  const taken = new Map<Child, { ids: Set<string>; listeners: (() => void)[] }>();
  const byInstance = new Map<string, Worker>();
  const startWorker = async (name: string): Promise<Worker> => {
    const worker = new Child(name, WORKER_FILE, childEnv);
    const record = { ids: new Set<string>(), listeners: [] as (() => void)[] };
    taken.set(worker, record);
    worker.on((event) => {
      if (event.event !== "taken") return;
      for (const id of event.ids as string[]) record.ids.add(id);
      for (const listener of record.listeners.splice(0)) listener();
    });
    const ready = await worker.waitFor("ready");
    workers.push(worker);
    const started = { worker, instanceId: ready.instanceId as string | undefined };
    byInstance.set(started.instanceId ?? worker.name, started);
    return started;
  };
  const killWorker = async (victim: Worker) => {
    victim.worker.kill("SIGKILL");
    const at = Date.now();
    await victim.worker.exited;
    workers.splice(workers.indexOf(victim.worker), 1);
    return at;
  };
  /** The live worker holding event `id`: ours, the claim's instance; pg-boss, the worker that took the job. */
  const holderOf = async (id: string): Promise<Worker | undefined> => {
    if (side === "ours") {
      const { rows } = await db.query<{ claimedBy: string }>(`SELECT "claimedBy" FROM "WebhookWork" WHERE "eventId" = $1`, [id]);
      return byInstance.get(rows[0]?.claimedBy ?? "");
    }
    const worker = workers.find((candidate) => taken.get(candidate)?.ids.has(id));
    return worker ? { worker } : undefined;
  };
  const receiptsOf = async (probeNumber: number) =>
    (await db.query<{ n: number }>(`SELECT COUNT(*)::int AS n FROM "WebhookEvent" WHERE "rawBody" = $1`, [probeBody(orders, probeNumber)]))
      .rows[0]!.n;

  const enqueue = async (phase: string, runArgs: Omit<Parameters<typeof receiverRun>[1], "from">) => {
    sampler.phase = phase;
    const databaseBefore = await backendCpu(db, database);
    // Every body of the stream is distinct: a repeat would be coalesced and measure something else.
    if (cursor + runArgs.count > distinctBodies(orders)) throw new Error(`${phase} would run out of distinct bodies`);
    const outcome = await receiverRun(receiver, { ...runArgs, from: cursor });
    const databaseMs = backendCpuUsed(databaseBefore, await backendCpu(db, database));
    cursor += outcome.consumed;
    return { outcome, databaseMs };
  };
  const figures = ({ outcome, databaseMs }: Awaited<ReturnType<typeof enqueue>>): EnqueueFigures => {
    const events = outcome.acked.length + outcome.duplicates;
    return {
      eventsPerSecond: events / (outcome.elapsedMs / 1000),
      ackP50: outcome.ackP50,
      ackP95: outcome.ackP95,
      receiverCpuUsPerEvent: (outcome.cpuMs * 1000) / Math.max(1, events),
      databaseCpuUsPerEvent: (databaseMs * 1000) / Math.max(1, events),
      failures: outcome.failures,
    };
  };

  try {
    // 1. Coalescing while the first waits: nobody takes anything up yet.
    sampler.phase = "coalescing";
    for (const [index, variant] of variants.entries()) {
      const copies = [...(await send(probe(index, 0), variant.queue, 10, true)), ...(await send(probe(index, 0), variant.queue, 5))];
      const body = probeBody(orders, probe(index, 0));
      const stored = await db.query<{ id: string; duplicateCount: number }>(
        `SELECT "id", "duplicateCount" FROM "WebhookEvent" WHERE "rawBody" = $1`,
        [body],
      );
      const queued =
        side === "ours"
          ? await db.query<{ n: number }>(
              `SELECT COUNT(*)::int AS n FROM "WebhookWork" w JOIN "WebhookEvent" e ON e."id" = w."eventId" WHERE e."rawBody" = $1`,
              [body],
            )
          : // The probe's order is named by no other body.
            await db.query<{ n: number }>(`SELECT COUNT(*)::int AS n FROM pgboss.job WHERE name = $1 AND data->>'orderId' = $2`, [
              variant.queue,
              orders[probe(index, 0)]!.id,
            ]);
      result.coalescing[variant.name] = {
        waiting: {
          sent: copies.length,
          answeredDuplicate: copies.filter((copy) => copy.duplicate).length,
          events: stored.rowCount ?? 0,
          queueItems: queued.rows[0]!.n,
          duplicateCount: stored.rows.reduce((sum, row) => sum + row.duplicateCount, 0),
        },
      };
    }

    // 2. Enqueue throughput, nothing processing; after a warm-up (the receiver's code is compiled
    // and optimised as it first runs), whose events join the backlog.
    const warmUp = await enqueue("warm-up", { mode: "concurrent", seconds: 2, count: 6_000, lanes: BATCHED.lanes, queue });
    await analyze(db);
    const single = await enqueue("enqueue single", { mode: "sequential", seconds: SINGLE.seconds, count: SINGLE.count, queue });
    result.single = figures(single);
    const batched = await enqueue("enqueue batched", {
      mode: "concurrent",
      seconds: BATCHED.seconds,
      count: BATCHED.count,
      lanes: BATCHED.lanes,
      queue,
    });
    result.batched = figures(batched);

    // 3. Two workers drain the backlog. Throughput between the first and the last completion
    // (a worker's start-up is not processing).
    sampler.phase = "drain";
    const backlog = [...warmUp.outcome.acked, ...single.outcome.acked, ...batched.outcome.acked];
    const [first] = await Promise.all([startWorker(`${side} worker A`), startWorker(`${side} worker B`)]);
    let firstAt = 0;
    let cpuAtFirst = { workers: 0, database: new Map<number, number>() };
    const cpuNow = async () => ({
      workers: workers.reduce((sum, worker) => sum + cpuOfTree(worker.pid), 0),
      database: await backendCpu(db, database),
    });
    const drainDeadline = Date.now() + DRAIN_TIMEOUT_MS;
    while (Date.now() < drainDeadline) {
      const done = backlog.filter((id) => completions.first.has(id)).length;
      if (done > 0 && firstAt === 0) {
        firstAt = backlog.reduce((min, id) => Math.min(min, completions.first.get(id) ?? Infinity), Infinity);
        cpuAtFirst = await cpuNow();
      }
      if (done === backlog.length) break;
      await sleep(100);
    }
    const cpuAtEnd = await cpuNow();
    const doneTimes = backlog.map((id) => completions.first.get(id)).filter((at): at is number => at !== undefined);
    const lastAt = doneTimes.reduce((max, at) => Math.max(max, at), 0);
    result.drain = {
      events: backlog.length,
      processed: doneTimes.length,
      eventsPerSecond: doneTimes.length / Math.max(0.001, (lastAt - firstAt) / 1000),
      workerCpuMsPerEvent: (cpuAtEnd.workers - cpuAtFirst.workers) / Math.max(1, doneTimes.length),
      databaseCpuMsPerEvent: backendCpuUsed(cpuAtFirst.database, cpuAtEnd.database) / Math.max(1, doneTimes.length),
    };

    // 4. Coalescing after take-up: the platform answers slowly, so the first stays in processing.
    // Then a repeat while the first waits for its retry: taken up already, so a new receipt.
    sampler.phase = "coalescing";
    for (const [index, variant] of variants.entries()) {
      await faults({ errorRate: 0, latencyMs: TAKE_UP_LATENCY_MS });
      const [firstCopy] = await send(probe(index, 1), variant.queue);
      await until(async () => (await takenUp(db, side, firstCopy!.id)) === true, 10_000);
      const [secondCopy] = await send(probe(index, 1), variant.queue);
      const [thirdCopy] = await send(probe(index, 1), variant.queue);
      await completions.wait([...new Set([firstCopy!.id, secondCopy!.id, thirdCopy!.id])], Date.now() + 15_000);
      result.coalescing[variant.name]!.takeUp = {
        repeatAfterTakeUpIsNew: !secondCopy!.duplicate && secondCopy!.id !== firstCopy!.id,
        thirdCopy:
          thirdCopy!.id === secondCopy!.id
            ? "folded into the second (it still waited)"
            : thirdCopy!.duplicate
              ? "folded elsewhere"
              : "a new receipt (the second was taken up)",
        receipts: await receiptsOf(probe(index, 1)),
        secondDoneAfterFirstMs:
          (completions.first.get(secondCopy!.id) ?? Number.NaN) - (completions.first.get(firstCopy!.id) ?? Number.NaN),
      };
      await faults({ errorRate: 1, latencyMs: 0 });
      const [failing] = await send(probe(index, 2), variant.queue);
      await until(async () => (await waitsForRetry(db, side, failing!.id)) === true, 10_000);
      await faults({ errorRate: 0, latencyMs: 0 });
      const [repeated] = await send(probe(index, 2), variant.queue);
      result.coalescing[variant.name]!.retry = {
        repeatWhileRetryingIsNew: !repeated!.duplicate && repeated!.id !== failing!.id,
        receipts: await receiptsOf(probe(index, 2)),
      };
    }

    // 5. A steady 200 events/s: from receipt to the processed event's NOTIFY.
    const steady = await enqueue("steady 200/s", {
      mode: "rate",
      perSecond: STEADY.perSecond,
      seconds: STEADY.seconds,
      count: STEADY.perSecond * STEADY.seconds,
      queue,
    });
    await completions.wait(steady.outcome.acked, Date.now() + 30_000);
    const steadyReceived = await receivedAt(db, steady.outcome.acked);
    const latencies = steady.outcome.acked
      .filter((id) => completions.first.has(id) && steadyReceived.has(id))
      .map((id) => completions.first.get(id)! - steadyReceived.get(id)!)
      .sort((a, b) => a - b);
    const steadyStored = await storedAndProcessed(db, steady.outcome.acked);
    result.steady = {
      acked: steady.outcome.acked.length,
      failures: steady.outcome.failures,
      lost: steady.outcome.acked.length - steadyStored.processed,
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      p99: percentile(latencies, 99),
      ackP95: steady.outcome.ackP95,
    };

    // 6. SIGKILL mid-work.
    const killPhase = async (label: string, victim: Worker, onQueue: PgBossQueue): Promise<KillFigures> => {
      await faults({ errorRate: 0, latencyMs: KILL.platformLatencyMs });
      const stream = enqueue(label, {
        mode: "rate",
        perSecond: KILL.perSecond,
        seconds: KILL.seconds,
        count: KILL.perSecond * KILL.seconds,
        queue: onQueue,
      });
      await sleep(KILL.killAfterMs);
      // The victim must have just started a batch: ours, a claim in its name it did not hold a moment
      // ago (a claim seen at the end of its batch is often finished before the kill lands);
      // pg-boss, a batch its handler just started.
      if (side === "ours") {
        const claims = async () =>
          (
            await db.query<{ id: string }>(`SELECT "eventId" AS id FROM "WebhookWork" WHERE "claimedBy" = $1`, [victim.instanceId])
          ).rows.map((row) => row.id);
        const before = new Set(await claims());
        await until(async () => (await claims()).some((id) => !before.has(id)), 10_000, 5);
      } else {
        const record = taken.get(victim.worker)!;
        await new Promise<void>((resolve, reject) => {
          record.listeners.push(resolve);
          setTimeout(() => reject(new Error(`${victim.worker.name} took no work in 10 s`)), 10_000).unref();
        });
      }
      await sleep(20);
      const killAt = await killWorker(victim);
      const inFlight =
        side === "ours"
          ? (
              await db.query<{ id: string }>(`SELECT "eventId" AS id FROM "WebhookWork" WHERE "claimedBy" = $1`, [victim.instanceId])
            ).rows.map((row) => row.id)
          : (
              await db.query<{ id: string }>(`SELECT id::text AS id FROM pgboss.job WHERE id = ANY($1::uuid[]) AND state = 'active'`, [
                [...taken.get(victim.worker)!.ids],
              ])
            ).rows.map((row) => row.id);
      const { outcome } = await stream;
      await completions.wait([...outcome.acked, ...inFlight], killAt + KILL.recoveryTimeoutMs);
      const stored = await storedAndProcessed(db, outcome.acked);
      const recovered = inFlight.map((id) => (completions.first.get(id) ?? Number.NaN) - killAt);
      return {
        acked: outcome.acked.length,
        failures: outcome.failures,
        inFlight: inFlight.length,
        recoveryMaxMs: recovered.some(Number.isNaN) ? Number.NaN : Math.max(...recovered),
        recoveryMinMs: Math.min(...recovered),
        lost: outcome.acked.length - stored.processed,
        processedTwice: await processedTwice(db, outcome.acked),
      };
    };
    result.kill = await killPhase("kill", first, queue);
    if (side === "pgboss") {
      // The best pg-boss can do: a lost heartbeat retried with no delay.
      result.killFast = await killPhase("kill, no retry delay", await startWorker(`${side} worker C`), PGBOSS_QUEUES.fast);
    }

    // 7. An older receipt waits for its retry; the newer one's worker dies mid-work.
    sampler.phase = "retry slot";
    for (const [index, variant] of variants.entries()) {
      await startWorker(`${side} worker ${variant.name} spare`);
      await faults({ errorRate: 1, latencyMs: 0 });
      const [older] = await send(probe(index, 3), variant.queue);
      await until(async () => (await waitsForRetry(db, side, older!.id)) === true, 10_000);
      await faults({ errorRate: 0, latencyMs: 3_000 });
      const [newer] = await send(probe(index, 3), variant.queue);
      await until(async () => (await takenUp(db, side, newer!.id)) === true, 10_000);
      // A pg-boss worker's "taken" message may arrive just after the job shows active.
      await until(async () => (await holderOf(newer!.id)) !== undefined, 5_000);
      const killedAt = await killWorker((await holderOf(newer!.id))!);
      await faults({ errorRate: 0, latencyMs: 0 });
      await completions.wait([newer!.id, older!.id], killedAt + 55_000);
      const newerState =
        side === "ours"
          ? (await db.query<{ state: string }>(`SELECT "processingState" AS state FROM "WebhookEvent" WHERE "id" = $1`, [newer!.id]))
              .rows[0]?.state
          : (
              await db.query<{ state: string; output: string | null }>(
                `SELECT state::text, output->'value'->>'message' AS output FROM pgboss.job WHERE id = $1::uuid`,
                [newer!.id],
              )
            ).rows
              .map((row) => `job ${row.state}${row.output ? `: ${row.output}` : ""}`)
              .join();
      result.coalescing[variant.name]!.retrySlot = {
        newerProcessed: completions.first.has(newer!.id),
        newerAfterKillMs: (completions.first.get(newer!.id) ?? Number.NaN) - killedAt,
        newerFinal: newerState ?? "?",
        olderProcessed: completions.first.has(older!.id),
      };
    }
  } finally {
    sampler.phase = "stop";
    await faults({ errorRate: 0, latencyMs: 0 }).catch(() => {});
    await Promise.all(workers.map((worker) => worker.call("stop").catch(() => worker.kill("SIGKILL"))));
    await receiver.call("close").catch(() => receiver.kill("SIGKILL"));
    await sampler.stop();
    result.connections = Object.fromEntries(sampler.peaks);
    result.load[1] = loadavg()[0]!;
    await listener.end();
    await db.end();
    if (!args.keep) await dropDatabase(url);
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// The two receivers head to head

const HEAD_TO_HEAD = { rounds: 4, seconds: 2, singleCount: 4_000, batchedCount: 8_000 };

interface HeadToHead {
  mode: string;
  bySide: Record<string, { eventsPerSecond: number[]; receiverCpuUs: number[]; databaseCpuUs: number[]; ackP95: number[] }>;
}

/**
 * The receiving side is the hot path (decision 0002), and this machine's 2 cores are shared with
 * other work whose load comes and goes within a run. So the two receivers also run in alternating
 * rounds of HEAD_TO_HEAD.seconds, one at a time, the order flipped each round: whatever else the
 * machine does weighs on both alike. No worker runs.
 */
async function receiversHeadToHead(platform: BenchPlatform, orders: EvalOrder[], token: string): Promise<HeadToHead[]> {
  const sides: Side[] = ["ours", "pgboss"];
  const prepared = await Promise.all(sides.map((side) => prepareSide(side, platform, token)));
  const receivers: Child[] = [];
  const cursors = sides.map(() => 0);
  try {
    for (const [index, side] of sides.entries()) {
      const receiver = new Child(`${side} receiver (head to head)`, RECEIVER_FILE, prepared[index]!.childEnv);
      await receiver.waitFor("ready");
      await receiver.call("init", { orders, sellerId: prepared[index]!.seller.sellerId });
      receivers.push(receiver);
    }
    const runOne = async (index: number, mode: "sequential" | "concurrent", seconds: number, count: number) => {
      const database = DATABASES[sides[index]!];
      const databaseBefore = await backendCpu(prepared[index]!.db, database);
      const outcome = await receiverRun(receivers[index]!, {
        mode,
        seconds,
        count,
        lanes: BATCHED.lanes,
        from: cursors[index]!,
        queue: PGBOSS_QUEUES.main,
      });
      const databaseMs = backendCpuUsed(databaseBefore, await backendCpu(prepared[index]!.db, database));
      cursors[index]! += outcome.consumed;
      const events = outcome.acked.length + outcome.duplicates;
      return { outcome, events, databaseMs };
    };
    // Warm both up first: compiled and optimised code, connections open.
    for (const index of sides.keys()) await runOne(index, "concurrent", 2, 6_000);
    for (const { db } of prepared) await analyze(db);
    const results: HeadToHead[] = [];
    for (const mode of ["sequential", "concurrent"] as const) {
      const figures: HeadToHead = { mode: mode === "sequential" ? "one at a time" : `${BATCHED.lanes} at once`, bySide: {} };
      for (const side of sides) figures.bySide[side] = { eventsPerSecond: [], receiverCpuUs: [], databaseCpuUs: [], ackP95: [] };
      for (let round = 0; round < HEAD_TO_HEAD.rounds; round++) {
        const order = round % 2 === 0 ? [0, 1] : [1, 0];
        for (const index of order) {
          const { outcome, events, databaseMs } = await runOne(
            index,
            mode,
            HEAD_TO_HEAD.seconds,
            mode === "sequential" ? HEAD_TO_HEAD.singleCount : HEAD_TO_HEAD.batchedCount,
          );
          const side = figures.bySide[sides[index]!]!;
          side.eventsPerSecond.push(events / (outcome.elapsedMs / 1000));
          side.receiverCpuUs.push((outcome.cpuMs * 1000) / Math.max(1, events));
          side.databaseCpuUs.push((databaseMs * 1000) / Math.max(1, events));
          side.ackP95.push(outcome.ackP95);
        }
      }
      results.push(figures);
    }
    return results;
  } finally {
    await Promise.all(receivers.map((receiver) => receiver.call("close").catch(() => receiver.kill("SIGKILL"))));
    for (const { db, url } of prepared) {
      await db.end();
      if (!args.keep) await dropDatabase(url);
    }
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function headToHeadRows(results: readonly HeadToHead[]): [string, string][] {
  return results.flatMap(({ mode, bySide }) => {
    const ours = bySide.ours!;
    const pgboss = bySide.pgboss!;
    const rounds = (values: number[]) => values.map((value) => fixed(value)).join(", ");
    return [
      [`${mode}: events/s by round (ours; pg-boss)`, `${rounds(ours.eventsPerSecond)}; ${rounds(pgboss.eventsPerSecond)}`],
      [
        `${mode}: medians, pg-boss ÷ ours`,
        `events/s ${fixed(median(ours.eventsPerSecond))} vs ${fixed(median(pgboss.eventsPerSecond))} (${fixed(median(pgboss.eventsPerSecond) / median(ours.eventsPerSecond), 2)}); ` +
          `receiver CPU ${fixed(median(ours.receiverCpuUs))} vs ${fixed(median(pgboss.receiverCpuUs))} µs/event (${fixed(median(pgboss.receiverCpuUs) / median(ours.receiverCpuUs), 2)}); ` +
          `database ${fixed(median(ours.databaseCpuUs))} vs ${fixed(median(pgboss.databaseCpuUs))} µs/event; ack p95 ${fixed(median(ours.ackP95), 1)} vs ${fixed(median(pgboss.ackP95), 1)} ms`,
      ],
    ] as [string, string][];
  });
}

function receiverRun(
  receiver: Child,
  runArgs: {
    mode: "sequential" | "concurrent" | "rate";
    from: number;
    count: number;
    seconds: number;
    lanes?: number;
    perSecond?: number;
    queue: PgBossQueue;
  },
): Promise<RunResult> {
  return receiver.call<RunResult>("run", runArgs);
}

async function until(condition: () => Promise<boolean>, timeoutMs: number, everyMs = 50) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("a condition did not hold in time");
    await sleep(everyMs);
  }
}

/** Whether processing has taken the event up: ours, its state; pg-boss, its job active. */
async function takenUp(db: pg.Client, side: Side, id: string): Promise<boolean> {
  const { rows } =
    side === "ours"
      ? await db.query<{ state: string }>(`SELECT "processingState" AS state FROM "WebhookEvent" WHERE "id" = $1`, [id])
      : await db.query<{ state: string }>(`SELECT state::text FROM pgboss.job WHERE id = $1::uuid`, [id]);
  return rows[0]?.state === (side === "ours" ? "processing" : "active");
}

/** Whether the event's first attempt failed and it waits for the next. */
async function waitsForRetry(db: pg.Client, side: Side, id: string): Promise<boolean> {
  const { rows } =
    side === "ours"
      ? await db.query<{ state: string }>(`SELECT "processingState" AS state FROM "WebhookEvent" WHERE "id" = $1`, [id])
      : await db.query<{ state: string }>(`SELECT state::text FROM pgboss.job WHERE id = $1::uuid`, [id]);
  return rows[0]?.state === (side === "ours" ? "retrying" : "retry");
}

// ---------------------------------------------------------------------------------------------
// Report

const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : "—");
const seconds = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : "never");

function rows(result: SideResult): [string, string][] {
  const kill = (k: KillFigures | undefined) =>
    k
      ? `lost ${k.lost} of ${k.acked} acknowledged (${k.failures} refused); ${k.inFlight} in flight recovered in ${seconds(k.recoveryMinMs)}–${seconds(k.recoveryMaxMs)}; processed twice ${k.processedTwice}`
      : "—";
  const peak = (phase: string) => {
    const p = result.connections[phase];
    return p
      ? `${p.total} (${Object.entries(p.byApp)
          .map(([app, n]) => `${app} ${n}`)
          .join(", ")})`
      : "—";
  };
  const coalescing = (what: (figures: CoalescingFigures) => string) =>
    Object.entries(result.coalescing)
      .map(([variant, figures]) => `${variant}: ${what(figures)}`)
      .join("; ");
  return [
    ["machine load (1 min, start → end)", `${fixed(result.load[0], 1)} → ${fixed(result.load[1], 1)}`],
    [
      "setup",
      result.setup
        ? `pg-boss schema ${result.setup.pgbossTables} tables in ${fixed(result.setup.pgbossInstallMs)} ms; prisma migrate status: ${result.setup.prismaStatus}`
        : "—",
    ],
    [
      "15 copies while the first waits",
      coalescing(({ waiting: w }) => (w ? `${w.events} event, ${w.queueItems} queue item, duplicateCount ${w.duplicateCount}` : "—")),
    ],
    [
      "a copy after take-up",
      coalescing(({ takeUp: t }) =>
        t
          ? `${t.repeatAfterTakeUpIsNew ? "new receipt" : "FOLDED"}, third copy ${t.thirdCopy}, second done ${fixed(t.secondDoneAfterFirstMs)} ms after the first`
          : "—",
      ),
    ],
    [
      "a copy while the first waits for a retry",
      coalescing(({ retry: r }) => (r ? (r.repeatWhileRetryingIsNew ? "new receipt" : "FOLDED") : "—")),
    ],
    [
      "SIGKILL of a copy's worker while an older copy waits for a retry",
      coalescing(({ retrySlot: r }) =>
        r
          ? `${r.newerProcessed ? `processed ${seconds(r.newerAfterKillMs)} after the kill` : "NEVER PROCESSED"} (${r.newerFinal}); older copy ${r.olderProcessed ? "processed" : "not processed"}`
          : "—",
      ),
    ],
    [
      "enqueue one at a time",
      `${fixed(result.single.eventsPerSecond)}/s, ack p50 ${fixed(result.single.ackP50, 1)} ms p95 ${fixed(result.single.ackP95, 1)} ms, receiver CPU ${fixed(result.single.receiverCpuUsPerEvent)} µs/event, database ${fixed(result.single.databaseCpuUsPerEvent)} µs/event`,
    ],
    [
      "enqueue 50 at once (group commit)",
      `${fixed(result.batched.eventsPerSecond)}/s, ack p50 ${fixed(result.batched.ackP50, 1)} ms p95 ${fixed(result.batched.ackP95, 1)} ms, receiver CPU ${fixed(result.batched.receiverCpuUsPerEvent)} µs/event, database ${fixed(result.batched.databaseCpuUsPerEvent)} µs/event, failures ${result.batched.failures}`,
    ],
    [
      "processing, 2 workers (backlog)",
      `${fixed(result.drain.eventsPerSecond)}/s (${result.drain.processed}/${result.drain.events}), workers ${fixed(result.drain.workerCpuMsPerEvent, 2)} ms CPU/event, database ${fixed(result.drain.databaseCpuMsPerEvent, 2)} ms/event`,
    ],
    [
      "receipt → processed at 200/s",
      `p50 ${fixed(result.steady.p50)} ms, p95 ${fixed(result.steady.p95)} ms, p99 ${fixed(result.steady.p99)} ms (lost ${result.steady.lost} of ${result.steady.acked} acknowledged, ${result.steady.failures} refused); ack p95 ${fixed(result.steady.ackP95, 1)} ms`,
    ],
    ["SIGKILL mid-work", kill(result.kill)],
    ["SIGKILL, pg-boss without retry delay", kill(result.killFast)],
    ["connections at peak: enqueue batched", peak("enqueue batched")],
    ["connections at peak: drain", peak("drain")],
    ["connections at peak: steady", peak("steady 200/s")],
  ];
}

async function main() {
  const platform = await startBenchPlatform(PLATFORM_PORT);
  const results: SideResult[] = [];
  const headToHead: HeadToHead[][] = [];
  try {
    const token = await platform.tokenFor("seller@example.com");
    const orders = (await platform.createOrders("seller@example.com", ORDERS)).map(({ id, deliveryId }) => ({ id, deliveryId }));
    console.log(`${orders.length} orders, ${distinctBodies(orders)} distinct bodies`);
    for (let run = 1; run <= RUNS; run++) {
      if (SIDES.length === 2) {
        console.log(`\n=== run ${run}: the receivers head to head ===`);
        try {
          const figures = await receiversHeadToHead(platform, orders, token);
          headToHead.push(figures);
          for (const [what, value] of headToHeadRows(figures)) console.log(`${what}: ${value}`);
        } catch (error) {
          console.error(`run ${run} head to head failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        }
      }
      for (const side of args["head-to-head-only"] ? [] : SIDES) {
        console.log(`\n=== run ${run}: ${side} ===`);
        const started = performance.now();
        try {
          const result = await runSide(side, run, platform, orders, token);
          results.push(result);
          for (const [what, value] of rows(result)) console.log(`${what}: ${value}`);
        } catch (error) {
          console.error(`run ${run} of ${side} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        }
        console.log(`(${((performance.now() - started) / 1000).toFixed(0)} s)`);
      }
    }
  } finally {
    platform.stop();
  }
  if (results.length === 0 && headToHead.length === 0) process.exit(1);
  // One table: a row per figure, a column per side and run.
  const header = results.map((result) => `${result.side} run ${result.run}`);
  console.log(`\n| figure | ${header.join(" | ")} |\n|---|${header.map(() => "---").join("|")}|`);
  const table = results.map(rows);
  table[0]?.forEach(([what], index) => console.log(`| ${what} | ${table.map((cells) => cells[index]![1]).join(" | ")} |`));
  headToHead.forEach((figures, index) => {
    console.log(`\nThe receivers head to head, run ${index + 1}:`);
    for (const [what, value] of headToHeadRows(figures)) console.log(`- ${what}: ${value}`);
  });
  console.log(`\n${JSON.stringify({ results, headToHead })}`);
  process.exit(0);
}

await main();
