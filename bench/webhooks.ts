// npm run bench:webhooks [-- --skip-build] [-- --duration 20] [-- --connections 100]
// The webhook receiver against the framework's floor route, in alternating rounds on one production
// build, with CPU per request from /proc; then a check that nothing acknowledged was lost (bench/README.md).
import { createHash } from "node:crypto";
import path from "node:path";
import { parseArgs } from "node:util";
import { NO_STACK_CPU, residentMb, stackCpu, stackCpuUsed } from "./lib/processes";
import type { StackCpu } from "./lib/processes";
import {
  backlogDrained,
  makeOrderEvents,
  postSignedEvents,
  prepareWebhookBench,
  seedBenchSeller,
  startDashboard,
  waitForServer,
} from "./lib/webhook-kit";
import type { SignedPayload } from "./lib/webhook-kit";
import { scrapeMetric } from "./lib/metrics";

const { values: args } = parseArgs({
  options: {
    "skip-build": { type: "boolean", default: false },
    duration: { type: "string", default: "40" },
    rounds: { type: "string", default: "8" },
    warm: { type: "string", default: "10" },
    connections: { type: "string", default: "100" },
    port: { type: "string", default: "3300" },
    // Writes a V8 CPU profile of the server to .data/profiles/ (open it in Chrome DevTools), from a
    // build left unminified so that it names the app's functions (not with --skip-build).
    profile: { type: "boolean", default: false },
  },
});
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const PORT = Number(args.port);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const DUPLICATE_SHARE = 0.1;
const ROUNDS = Number(args.rounds);
const WARM_SECONDS = Number(args.warm);
const BENCH_DATABASE = "bench_webhooks";
/** The dashboard's metrics, for its passes of processing. */
const METRICS_PORT = 9474;
const METRICS_URL = `http://127.0.0.1:${METRICS_PORT}/metrics`;
const PLATFORM_PORT = 4310;

const childEnv = {
  ...process.env,
  NODE_ENV: "production",
  BENCH_FLOOR_ROUTE: "1",
  METRICS_PORT: String(METRICS_PORT),
  NEXT_TELEMETRY_DISABLED: "1",
  // A profile names the app's functions only in an unminified build (next.config.mjs).
  ...(args.profile ? { BENCH_READABLE_PROFILE: "1" } : {}),
} as NodeJS.ProcessEnv;

interface LoadResult {
  rps: number;
  /** CPU of the server's JavaScript thread per request, ms. */
  cpuPerRequest: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
  /** Where the machine's CPU went during the load and its settling, ms per request. */
  breakdown: Breakdown;
  /** How long its processing went on after the load (0 when not waited for). */
  settleSeconds: number;
}

/** CPU per request (ms) of each part of the stack, and the machine's busy share. */
interface Breakdown {
  server: number;
  database: number;
  platform: number;
  loadGenerator: number;
  machine: number;
  /** Busy share of all cores, 0–1. */
  busy: number;
}

/** CPU so far of each part of the stack, ms (the server's JavaScript thread included); set once the server runs. */
let stackCpuNow = (): StackCpu => ({ ...NO_STACK_CPU });

/** What was sent to the receiver across rounds: which events, and how many repeats. */
interface Sent {
  next: number;
  indexes: number[];
  distinct: Set<number>;
  duplicates: number;
  /** The events the receiver answered with a 2xx (at least once), and how many such answers. */
  acknowledged: Set<SignedPayload>;
  acknowledgedDeliveries: number;
}

const newSent = (): Sent => ({
  next: 0,
  indexes: [],
  distinct: new Set(),
  duplicates: 0,
  acknowledged: new Set(),
  acknowledgedDeliveries: 0,
});

/** `settle` runs before the CPU is read, so a round's CPU includes the processing it caused and the next round does not pay for it. */
async function load(
  url: string,
  payloads: SignedPayload[],
  seconds: number,
  sent: Sent,
  settle?: () => Promise<number>,
): Promise<LoadResult> {
  const stackBefore = stackCpuNow();
  const result = await postSignedEvents({
    url,
    connections: CONNECTIONS,
    seconds,
    next: () => {
      let index: number;
      if (sent.indexes.length > 0 && Math.random() < DUPLICATE_SHARE) {
        index = sent.indexes[Math.floor(Math.random() * sent.indexes.length)]!;
        sent.duplicates++;
      } else {
        index = sent.next++ % payloads.length;
        sent.indexes.push(index);
        sent.distinct.add(index);
      }
      return payloads[index]!;
    },
    acknowledged: (payload) => {
      sent.acknowledged.add(payload);
      sent.acknowledgedDeliveries++;
    },
  });
  const settleSeconds = settle ? await settle() : 0;
  const used = stackCpuUsed(stackBefore, stackCpuNow());
  const requests = Math.max(1, result.requests.total);
  const perRequest = (key: keyof Omit<Breakdown, "busy">) => used[key] / requests;
  const breakdown: Breakdown = {
    server: perRequest("server"),
    database: perRequest("database"),
    platform: perRequest("platform"),
    loadGenerator: perRequest("loadGenerator"),
    machine: perRequest("machine"),
    busy: used.machine / Math.max(1, used.total),
  };
  return {
    rps: result.requests.total / seconds,
    cpuPerRequest: used.serverThread / requests,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    breakdown,
    settleSeconds,
  };
}

/** The dashboard's passes of processing so far, by why its gate let them go (lib/metrics.server.ts); null without metrics. */
async function processingPasses(): Promise<Map<string, number> | null> {
  try {
    const samples = await scrapeMetric(METRICS_URL, "dashboard_processing_batches_total");
    return new Map(samples.map(({ labels, value }) => [labels.replace(/^gate="(\w+)"$/, "$1"), value]));
  } catch {
    return null;
  }
}

/** ", 2 passes of processing during the round (overdue 2)": whether processing took the thread from the requests. */
function passesSince(before: Map<string, number> | null, after: Map<string, number> | null): string {
  if (!before || !after) return "";
  const gates = [...after].map(([gate, count]) => [gate, count - (before.get(gate) ?? 0)] as const).filter(([, count]) => count > 0);
  const total = gates.reduce((sum, [, count]) => sum + count, 0);
  return `; ${total} passes of processing during the round${total ? ` (${gates.map(([gate, count]) => `${gate} ${count}`).join(", ")})` : ""}`;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** Several rounds as one: requests/s and CPU per request over the whole time, the worst p99, the median round's p50. */
function combine(rounds: LoadResult[], seconds: number): LoadResult {
  const total = rounds.reduce((sum, round) => sum + round.total, 0);
  const p50s = rounds.map((round) => round.p50).sort((a, b) => a - b);
  return {
    rps: total / seconds,
    cpuPerRequest: rounds.reduce((sum, round) => sum + round.cpuPerRequest * round.total, 0) / Math.max(1, total),
    p50: p50s[Math.floor(p50s.length / 2)]!,
    p99: Math.max(...rounds.map((round) => round.p99)),
    total,
    non2xx: rounds.reduce((sum, round) => sum + round.non2xx, 0),
    errors: rounds.reduce((sum, round) => sum + round.errors, 0),
    breakdown: Object.fromEntries(
      (Object.keys(rounds[0]!.breakdown) as (keyof Breakdown)[]).map((key) => [
        key,
        key === "busy"
          ? rounds.reduce((sum, round) => sum + round.breakdown.busy, 0) / rounds.length
          : rounds.reduce((sum, round) => sum + round.breakdown[key] * round.total, 0) / Math.max(1, total),
      ]),
    ) as unknown as Breakdown,
    settleSeconds: rounds.reduce((sum, round) => sum + round.settleSeconds, 0),
  };
}

async function main() {
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
  // Warming the receiver writes events: those of another seller, left out of the check.
  const warmShop = await seedBenchSeller(db, childEnv, await platform.tokenFor("seller2@example.com"));
  // Enough distinct events that none repeats by wrap-around at up to 2,500 events/s.
  const payloads = makeOrderEvents(await platform.createOrders("seller@example.com", DURATION * 250), DURATION * 2_500, shop.accessToken);
  const warm = makeOrderEvents(
    await platform.createOrders("seller2@example.com", WARM_SECONDS * 250),
    WARM_SECONDS * 2_500,
    warmShop.accessToken,
  );

  const nodeArgs = args.profile ? ["--cpu-prof", "--cpu-prof-dir", path.resolve(".data/profiles")] : [];
  const dashboard = startDashboard(PORT, childEnv, nodeArgs);
  const stop = () => dashboard.signal("SIGINT");

  try {
    await waitForServer(`${ORIGIN}/`);
    stackCpuNow = () => stackCpu(dashboard.pid, platform.pid);
    const receiverUrl = `${ORIGIN}/api/webhooks/marketplace/${shop.webhookKey}`;
    const floorUrl = `${ORIGIN}/api/bench/floor/${shop.webhookKey}`;

    // Right after a start the floor's rate climbs for tens of seconds (JIT, heap sizes, key cache).
    const warmSent = newSent();
    for (let round = 0; round < 2; round++) {
      await load(`${ORIGIN}/api/bench/floor/${warmShop.webhookKey}`, warm, WARM_SECONDS / 2, newSent());
      await load(`${ORIGIN}/api/webhooks/marketplace/${warmShop.webhookKey}`, warm, WARM_SECONDS / 2, warmSent);
    }
    // The warm-up's processing must not run into the measured rounds.
    await backlogDrained(db, warmShop.sellerId);

    // Short alternating rounds, so that a drift of the machine's speed weighs on both routes alike.
    const roundSeconds = DURATION / ROUNDS;
    const memoryBefore = residentMb(dashboard.pid);
    let memoryPeak = memoryBefore;
    const sampler = setInterval(() => (memoryPeak = Math.max(memoryPeak, residentMb(dashboard.pid))), 250);
    console.log(
      `\n${ROUNDS} rounds of floor then receiver, ${roundSeconds}s each, ${CONNECTIONS} connections; ` +
        `receiver with ${DUPLICATE_SHARE * 100}% duplicates → POST ${receiverUrl.replace(shop.webhookKey, "{key}")}`,
    );
    const floorRounds: LoadResult[] = [];
    const receiverRounds: LoadResult[] = [];
    const track = newSent();
    for (let round = 1; round <= ROUNDS; round++) {
      floorRounds.push(await load(floorUrl, payloads, roundSeconds, newSent()));
      const passesBefore = await processingPasses();
      let passesInRound = "";
      receiverRounds.push(
        await load(receiverUrl, payloads, roundSeconds, track, async () => {
          passesInRound = passesSince(passesBefore, await processingPasses());
          return backlogDrained(db, shop.sellerId);
        }),
      );
      const [f, r] = [floorRounds.at(-1)!, receiverRounds.at(-1)!];
      console.log(
        `  round ${round}: floor ${f.rps.toFixed(0)} req/s (${f.cpuPerRequest.toFixed(3)} ms CPU each), ` +
          `receiver ${r.rps.toFixed(0)} req/s (${r.cpuPerRequest.toFixed(3)} ms CPU each, its processing done ${r.settleSeconds.toFixed(1)} s after` +
          `${passesInRound}): ratio ${(r.rps / f.rps).toFixed(3)}`,
      );
    }
    clearInterval(sampler);
    const floor = combine(floorRounds, DURATION);
    const receiver = combine(receiverRounds, DURATION);

    // Let processing finish (each event fetches its order from the platform) before counting.
    const drainedSeconds = await backlogDrained(db, shop.sellerId);
    const { rows } = await db.query<{ notifications: number; receipts: number; coalesced: number; processed: number }>(
      `SELECT COUNT(DISTINCT "bodyHash")::int AS notifications, COUNT(*)::int AS receipts,
              COALESCE(SUM("duplicateCount"), 0)::int AS coalesced,
              COUNT(*) FILTER (WHERE "processingState" = 'processed')::int AS processed
       FROM "WebhookEvent" WHERE "sellerId" = $1`,
      [shop.sellerId],
    );
    const stored = rows[0]!;

    const fmt = (n: number) => n.toFixed(0).padStart(7);
    console.log("\n                     req/s     p50 ms   p99 ms   requests   non-2xx   errors   CPU ms/request");
    console.log(
      `floor             ${fmt(floor.rps)}  ${fmt(floor.p50)}  ${fmt(floor.p99)}  ${fmt(floor.total)}   ${fmt(floor.non2xx)}  ${fmt(floor.errors)}   ${floor.cpuPerRequest.toFixed(3)}`,
    );
    console.log(
      `receiver          ${fmt(receiver.rps)}  ${fmt(receiver.p50)}  ${fmt(receiver.p99)}  ${fmt(receiver.total)}   ${fmt(receiver.non2xx)}  ${fmt(receiver.errors)}   ${receiver.cpuPerRequest.toFixed(3)}`,
    );
    const roundRatios = receiverRounds.map((round, index) => round.rps / floorRounds[index]!.rps);
    console.log(`\nratio receiver/floor: ${(receiver.rps / floor.rps).toFixed(3)}   (target ≥ 0.85)`);
    console.log(
      `  per round: median ${median(roundRatios).toFixed(3)}, from ${Math.min(...roundRatios).toFixed(3)} to ${Math.max(...roundRatios).toFixed(3)}; ` +
        `server thread CPU per request: floor ${floor.cpuPerRequest.toFixed(3)} ms, receiver ${receiver.cpuPerRequest.toFixed(3)} ms ` +
        `(floor/receiver ${(floor.cpuPerRequest / receiver.cpuPerRequest).toFixed(3)})`,
    );
    const parts = (b: Breakdown) =>
      `server ${b.server.toFixed(3)}, database ${b.database.toFixed(3)}, platform ${b.platform.toFixed(3)}, load generator ${b.loadGenerator.toFixed(3)}; ` +
      `machine ${b.machine.toFixed(3)} (cores ${(b.busy * 100).toFixed(0)}% busy)`;
    console.log(`CPU ms per request, floor:    ${parts(floor.breakdown)}`);
    console.log(`CPU ms per request, receiver: ${parts(receiver.breakdown)}`);
    console.log(
      `server resident memory: ${memoryBefore.toFixed(0)} MB after the warm-up, at most ${memoryPeak.toFixed(0)} MB during the rounds`,
    );
    console.log(
      `events/s: ${receiver.rps.toFixed(0)}   (target ≥ 600); acknowledged and processed, counting each round's processing after it: ` +
        `${(receiver.total / (DURATION + receiver.settleSeconds)).toFixed(0)}/s; processing backlog empty ${drainedSeconds.toFixed(1)} s after the load`,
    );

    // Requests cut off at a round's end were not acknowledged and may or may not have been stored, so
    // the check is on what was acknowledged: each is a receipt or counted on one (decision 0004).
    const acknowledgedHashes = [...track.acknowledged].map((payload) => createHash("sha256").update(payload.body).digest("hex"));
    const found = await db.query<{ n: number }>(
      `SELECT COUNT(DISTINCT "bodyHash")::int AS n FROM "WebhookEvent" WHERE "sellerId" = $1 AND "bodyHash" = ANY($2::text[])`,
      [shop.sellerId, acknowledgedHashes],
    );
    await db.end();
    const lost = acknowledgedHashes.length - found.rows[0]!.n;
    const sentDistinct = track.distinct.size;
    const deliveries = sentDistinct + track.duplicates;
    const storedDeliveries = stored.receipts + stored.coalesced;
    console.log(
      `distinct events sent: ${sentDistinct}, acknowledged: ${acknowledgedHashes.length}, stored: ${stored.notifications}, ` +
        `acknowledged but not stored (lost): ${lost}`,
    );
    console.log(
      `deliveries sent: ${deliveries}, acknowledged: ${track.acknowledgedDeliveries}, stored as receipts: ${stored.receipts} + coalesced: ${stored.coalesced}; ` +
        `receipts processed: ${stored.processed}`,
    );
    const ok =
      receiver.non2xx === 0 &&
      receiver.errors === 0 &&
      lost === 0 &&
      stored.notifications <= sentDistinct &&
      storedDeliveries >= track.acknowledgedDeliveries &&
      storedDeliveries <= deliveries &&
      stored.processed === stored.receipts;
    console.log(
      ok
        ? "CHECK OK: nothing lost: every acknowledged event stored, every acknowledged delivery a receipt or counted on one, every receipt processed"
        : "CHECK FAILED",
    );
    process.exitCode = ok ? 0 : 1;
  } finally {
    stop();
    platform.stop();
  }
}

await main();
