// The receiving side of one queue (QUEUE_EVAL_SIDE), as a child of the coordinator: enqueues the
// workload's bodies as the webhook receiver would after checking a signature, and answers what it
// cost. Ours is features/webhooks/store.server.ts's insertWebhookEvent itself (group commit, coalescing,
// the queue row in the same statement); pg-boss's is the prototype in ./pgboss-pipeline.ts.
import { createHash } from "node:crypto";
import { emit, serve } from "./ipc";
import { percentile, probeBody, streamBody } from "./shared";
import type { EvalOrder, PgBossQueue, Side } from "./shared";
import type { Enqueued } from "./pgboss-pipeline";

const side = process.env.QUEUE_EVAL_SIDE as Side;
type Enqueue = (body: string, receivedAt: Date, queue: PgBossQueue) => Promise<Enqueued>;

let orders: EvalOrder[] = [];
let enqueue: Enqueue | null = null;
let close: () => Promise<void> = async () => {};

async function init(args: { orders: EvalOrder[]; sellerId: string }) {
  orders = args.orders;
  if (side === "ours") {
    const { insertWebhookEvent } = await import("@/features/webhooks/store.server");
    const { parseWebhookBody } = await import("@/features/webhooks/parse");
    const { receiverPool, pool } = await import("@/lib/pg-pool.server");
    enqueue = async (body, receivedAt) => {
      // claimedBy null: WEBHOOK_PROCESSING=worker, any worker takes it (announced at COMMIT).
      const stored = await insertWebhookEvent({
        sellerId: args.sellerId,
        receivedAt,
        rawBody: body,
        bodyHash: createHash("sha256").update(body).digest("hex"),
        headers: {},
        parsed: parseWebhookBody(body),
        claimedBy: null,
      });
      return { id: stored.id, duplicate: stored.duplicate };
    };
    close = async () => {
      await Promise.all([receiverPool.end(), pool.end()]);
    };
  } else {
    const { createPgBossReceiver } = await import("./pgboss-pipeline");
    const receiver = await createPgBossReceiver(process.env.DATABASE_URL!, args.sellerId);
    enqueue = receiver.enqueue;
    close = receiver.close;
  }
  return {};
}

interface RunArgs {
  /** sequential: one at a time; concurrent: `lanes` at once (group commit batches them); rate: paced. */
  mode: "sequential" | "concurrent" | "rate";
  from: number;
  count: number;
  seconds: number;
  lanes?: number;
  perSecond?: number;
  queue: PgBossQueue;
}

export interface RunResult {
  acked: string[];
  /** Bodies used (from `from` on): the next phase starts after them. */
  consumed: number;
  duplicates: number;
  failures: number;
  elapsedMs: number;
  cpuMs: number;
  ackP50: number;
  ackP95: number;
  ackP99: number;
}

async function run(args: RunArgs): Promise<RunResult> {
  if (!enqueue) throw new Error("init first");
  const send = enqueue;
  const acked: string[] = [];
  const latencies: number[] = [];
  let duplicates = 0;
  let failures = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const deadline = started + args.seconds * 1000;
  let next = args.from;
  const end = args.from + args.count;
  const one = async (index: number) => {
    const began = performance.now();
    try {
      const result = await send(streamBody(orders, index), new Date(), args.queue);
      latencies.push(performance.now() - began);
      if (result.duplicate) duplicates++;
      else acked.push(result.id);
    } catch (error) {
      failures++;
      if (failures <= 3) console.error(`[receiver] ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  if (args.mode === "sequential") {
    while (performance.now() < deadline && next < end) await one(next++);
  } else if (args.mode === "concurrent") {
    const lane = async () => {
      while (performance.now() < deadline && next < end) await one(next++);
    };
    await Promise.all(Array.from({ length: args.lanes ?? 50 }, lane));
  } else {
    // Paced: each event starts at its own moment, whether or not earlier ones were answered.
    const interval = 1000 / (args.perSecond ?? 200);
    const inFlight: Promise<void>[] = [];
    while (performance.now() < deadline && next < end) {
      const due = started + (next - args.from) * interval;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      inFlight.push(one(next++));
    }
    await Promise.all(inFlight);
  }
  const elapsedMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  latencies.sort((a, b) => a - b);
  return {
    acked,
    consumed: next - args.from,
    duplicates,
    failures,
    elapsedMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    ackP50: percentile(latencies, 50),
    ackP95: percentile(latencies, 95),
    ackP99: percentile(latencies, 99),
  };
}

/** The same probe body `copies` times, all at once or one after another. */
async function repeat(args: { probe: number; copies: number; concurrent: boolean; queue: PgBossQueue }): Promise<Enqueued[]> {
  if (!enqueue) throw new Error("init first");
  const send = enqueue;
  const body = probeBody(orders, args.probe);
  if (args.concurrent) return Promise.all(Array.from({ length: args.copies }, () => send(body, new Date(), args.queue)));
  const results: Enqueued[] = [];
  for (let copy = 0; copy < args.copies; copy++) results.push(await send(body, new Date(), args.queue));
  return results;
}

serve({
  init,
  run,
  repeat,
  close: async () => {
    await close();
    setImmediate(() => process.exit(0));
    return {};
  },
});
emit({ event: "ready" });
