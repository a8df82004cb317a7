// npm run bench:labels [-- --counts 50,200] [-- --seed-orders 1500] [-- --runs 1]
// The labels PDF of a shipping morning on the route handler's own code, not the page: the framework's
// share is one request and one response whatever the count (scripts/README.md).
import { spawn } from "node:child_process";
import { freePort } from "./lib/bench-processes";
import path from "node:path";
import { parseArgs } from "node:util";
import v8 from "node:v8";
import vm from "node:vm";
import { createMarketplaceClient } from "@marketplace/api/client";
import { ordersQuery } from "@marketplace/api/list-query";
import type { Order } from "@marketplace/api/schemas/order";
import { buildPickingList, labelJobsOf } from "../lib/shipping/picking-list";
import type { LabelJob } from "../lib/shipping/picking-list";
import { obtainAccessToken } from "@marketplace/sandbox/testing";
import { stubServerOnly } from "./lib/server-only-stub";

const { values: args } = parseArgs({
  options: {
    counts: { type: "string", default: "50,200" },
    "seed-orders": { type: "string", default: "1500" },
    runs: { type: "string", default: "1" },
  },
});
const COUNTS = args.counts.split(",").map(Number);
const SEED_ORDERS = Number(args["seed-orders"]);
const RUNS = Number(args.runs);
if (COUNTS.some((count) => !Number.isInteger(count) || count < 1)) throw new Error(`--counts must be whole numbers, not ${args.counts}`);
const TIME_TARGET_S = 20;
const TARGET_COUNT = 200;
const IDS_PER_REQUEST = 50;
const WARM_UP_LABELS = 5;

// A full collection before each run, so "before" is what the process really holds.
v8.setFlagsFromString("--expose-gc");
const collectGarbage = vm.runInNewContext("gc") as () => void;

async function startSandbox(port: number, baseUrl: string) {
  const child = spawn(process.execPath, ["--import", "tsx", path.join("sandbox", "main.ts")], {
    env: {
      ...process.env,
      SANDBOX_PORT: String(port),
      SANDBOX_HOST: "127.0.0.1",
      SANDBOX_PUBLIC_URL: baseUrl,
      SANDBOX_SEED_ORDERS: String(SEED_ORDERS),
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const stop = () => {
    if (child.exitCode === null) child.kill("SIGTERM");
  };
  process.on("exit", stop);
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("listening on")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`sandbox exited early with code ${code}`)));
  });
  return stop;
}

const mb = (bytes: number) => bytes / 1024 / 1024;

async function main(): Promise<void> {
  stubServerOnly();
  const { createLabelFetcher } = await import("../lib/shipping/label-fetch.server");
  const { mergeLabels } = await import("../lib/shipping/label-merge");

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const stop = await startSandbox(port, baseUrl);
  try {
    console.log(
      `sandbox up with ${SEED_ORDERS.toLocaleString("en")} orders for seller@example.com in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const token = await obtainAccessToken(baseUrl, { scopes: ["order-order:read"] });
    const client = createMarketplaceClient({ baseUrl, accessToken: token });

    // Every approved order, then the parcels still to send: the picking list of "all to ship".
    const approved: Order[] = [];
    for (let offset = 0; ;) {
      const page = await client.listOrders(ordersQuery({ status: "approved", limit: 100, offset }));
      approved.push(...page.items);
      if (!page.next || page.items.length === 0) break;
      offset += page.items.length;
    }
    const allJobs = labelJobsOf(buildPickingList(approved));
    const wanted = Math.max(...COUNTS);
    if (allJobs.length < wanted)
      throw new Error(`only ${allJobs.length} parcels to send among ${approved.length} approved orders: raise --seed-orders`);
    console.log(`${allJobs.length} parcels to send among ${approved.length} approved orders; ${RUNS} run(s) per count\n`);

    /** What the route handler does for these parcels: their orders by ids, then every label fetched and merged. */
    async function labelsPdf(jobs: readonly LabelJob[]) {
      const ids = [...new Set(jobs.map((job) => job.orderId))];
      for (let start = 0; start < ids.length; start += IDS_PER_REQUEST) {
        const chunk = ids.slice(start, start + IDS_PER_REQUEST);
        await client.listOrders(ordersQuery({ ids: chunk, limit: chunk.length }));
      }
      const fetcher = createLabelFetcher({ platformBaseUrl: baseUrl, accessToken: token });
      try {
        return await mergeLabels(jobs, fetcher.fetch, { title: "bench" });
      } finally {
        fetcher.close();
      }
    }

    const warm = await labelsPdf(allJobs.slice(0, WARM_UP_LABELS));
    if (warm.failed.length > 0) throw new Error(`warm-up labels failed: ${JSON.stringify(warm.failed)}`);

    console.log("labels   seconds   labels/s   PDF MB   pages   failed   RSS peak +MB/label   heap peak +MB/label   kept after GC +MB");
    const results: { count: number; seconds: number }[] = [];
    for (const count of COUNTS) {
      for (let run = 0; run < RUNS; run++) {
        const jobs = allJobs.slice(0, count);
        collectGarbage();
        const before = process.memoryUsage();
        let peakRss = before.rss;
        let peakHeap = before.heapUsed;
        const sampler = setInterval(() => {
          const now = process.memoryUsage();
          peakRss = Math.max(peakRss, now.rss);
          peakHeap = Math.max(peakHeap, now.heapUsed);
        }, 20);
        const runStarted = performance.now();
        const merged = await labelsPdf(jobs);
        const seconds = (performance.now() - runStarted) / 1000;
        clearInterval(sampler);
        const end = process.memoryUsage();
        peakRss = Math.max(peakRss, end.rss);
        peakHeap = Math.max(peakHeap, end.heapUsed);
        collectGarbage();
        // The PDF is still held here, as the response holds it until it is sent.
        const kept = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers - before.heapUsed - before.arrayBuffers;
        const size = merged.pdf?.length ?? 0;
        results.push({ count, seconds });
        console.log(
          [
            String(count).padStart(6),
            seconds.toFixed(2).padStart(9),
            (count / seconds).toFixed(1).padStart(10),
            mb(size).toFixed(2).padStart(8),
            String(merged.pages).padStart(7),
            String(merged.failed.length).padStart(8),
            (mb(peakRss - before.rss) / count).toFixed(3).padStart(20),
            (mb(peakHeap - before.heapUsed) / count).toFixed(3).padStart(21),
            mb(kept).toFixed(1).padStart(19),
          ].join(" "),
        );
      }
    }
    const target = results.filter((result) => result.count === TARGET_COUNT);
    if (target.length > 0) {
      const worst = Math.max(...target.map((result) => result.seconds));
      console.log(
        `\n${TARGET_COUNT} labels: ${worst.toFixed(1)} s at worst (target < ${TIME_TARGET_S} s): ${worst < TIME_TARGET_S ? "met" : "NOT met"}`,
      );
    }
  } finally {
    stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
