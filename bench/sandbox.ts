// `npm run bench:sandbox`: list-query throughput and latency of the sandbox with 100,000 seeded
// orders, and its memory (cases and options: bench/README.md).
import { spawn } from "node:child_process";
import path from "node:path";
import { freePort, residentMb } from "./lib/processes";
import { percentile, runLoad } from "./lib/load";
import { obtainAccessToken } from "@marketplace/sandbox/testing";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SEED_ORDERS = Number(process.env.BENCH_SEED_ORDERS ?? 100_000);

interface BenchCase {
  name: string;
  path: string;
  /** When set, each request's path instead (a query that is never the same twice). */
  nextPath?: () => string;
}

const CASES: BenchCase[] = [
  { name: "default page", path: "/v1.0/marketplace/orders" },
  { name: "status filter + _sort", path: "/v1.0/marketplace/orders?status=approved&_sort=updated_at:desc" },
  { name: "customer.name__like", path: "/v1.0/marketplace/orders?customer.name__like=silva" },
];

/** Orders per `id__in` request: what the dashboard's processing asks for (ORDER_LIST_CHUNK). */
const IDS_PER_REQUEST = 50;

/** As the dashboard's processing fetches a batch's orders; never the same ids twice, so no cached filter helps. */
async function idInCase(baseUrl: string, token: string): Promise<BenchCase> {
  const ids: string[] = [];
  for (let offset = 0; offset < 2_000; offset += 200) {
    const response = await fetch(`${baseUrl}/v1.0/marketplace/orders?_limit=200&_offset=${offset}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const page = (await response.json()) as { results: { id: string }[] };
    ids.push(...page.results.map((order) => order.id));
  }
  const nextPath = () => {
    const picked = Array.from({ length: IDS_PER_REQUEST }, () => ids[Math.floor(Math.random() * ids.length)]!);
    return `/v1.0/marketplace/orders?id__in=${[...new Set(picked)].join(",")}&_limit=${IDS_PER_REQUEST}`;
  };
  return { name: `id__in (${IDS_PER_REQUEST} ids)`, path: nextPath(), nextPath };
}

const MEMORY_TARGET_MB = 600;

async function main(): Promise<void> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, ["--import", "tsx", path.join("sandbox", "main.ts")], {
    env: { ...process.env, SANDBOX_PORT: String(port), SANDBOX_HOST: "127.0.0.1", SANDBOX_SEED_ORDERS: String(SEED_ORDERS) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const stop = () => {
    if (child.exitCode === null) child.kill("SIGTERM");
  };
  process.on("exit", stop);
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("listening on")) resolve();
      });
      child.once("exit", (code) => reject(new Error(`sandbox exited early with code ${code}`)));
    });
    console.log(
      `sandbox up with ${SEED_ORDERS.toLocaleString("en")} orders for seller@example.com in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const seededMb = residentMb(child.pid!);
    console.log(`sandbox memory once seeded: ${seededMb.toFixed(0)} MB resident (target < ${MEMORY_TARGET_MB} MB)`);

    const token = await obtainAccessToken(baseUrl, { scopes: ["order-order:read"] });
    console.log(`token obtained through the OAuth flow; ${CONNECTIONS} connections, ${SECONDS} s per case\n`);
    console.log("case                     cold ms   req/s     p50 ms   p95 ms   p99 ms   non-2xx");

    for (const benchCase of [...CASES, await idInCase(baseUrl, token)]) {
      // The first request builds the cached columns, sorted view and filter bitmap (as after any
      // data change); it is timed on its own as "cold", the run then measures the warm state.
      const coldStarted = performance.now();
      const warm = await fetch(`${baseUrl}${benchCase.path}`, { headers: { Authorization: `Bearer ${token}` } });
      if (warm.status !== 200) throw new Error(`${benchCase.name}: HTTP ${warm.status} ${await warm.text()}`);
      await warm.arrayBuffer();
      const coldMs = performance.now() - coldStarted;
      const { result, latencies } = await runLoad({
        url: `${baseUrl}${benchCase.path}`,
        headers: { Authorization: `Bearer ${token}` },
        connections: CONNECTIONS,
        duration: SECONDS,
        ...(benchCase.nextPath ? { requests: [{ setupRequest: (request) => ({ ...request, path: benchCase.nextPath!() }) }] } : {}),
      });
      const row = [
        benchCase.name.padEnd(24),
        coldMs.toFixed(1).padStart(7),
        result.requests.average.toFixed(0).padStart(6),
        percentile(latencies, 50).toFixed(1).padStart(9),
        percentile(latencies, 95).toFixed(1).padStart(8),
        percentile(latencies, 99).toFixed(1).padStart(8),
        String(result.non2xx).padStart(9),
      ];
      console.log(row.join(" "));
    }
    console.log(
      `\nsandbox memory after the load: ${residentMb(child.pid!).toFixed(0)} MB resident (once seeded: ${seededMb.toFixed(0)} MB; target < ${MEMORY_TARGET_MB} MB)`,
    );
  } finally {
    stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
