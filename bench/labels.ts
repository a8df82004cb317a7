// npm run bench:labels [-- --counts 50,200] [-- --seed-orders 1500] [-- --runs 1] [-- --cap-labels 200,11]
// The labels PDF of a shipping morning on the route handler's own code, not the page: the framework's
// share is one request and one response whatever the count (bench/README.md). Then the run's caps:
// the largest run they allow and one they refuse, each in a process of its own for a clean peak.
import { spawn } from "node:child_process";
import { text } from "node:stream/consumers";
import { freePort } from "./lib/processes";
import path from "node:path";
import { parseArgs } from "node:util";
import v8 from "node:v8";
import vm from "node:vm";
import { createMarketplaceClient } from "@marketplace/api/client";
import { ordersQuery } from "@marketplace/api/list-query";
import type { Order } from "@marketplace/api/schemas/order";
import { buildPickingList, labelJobsOf } from "@/features/shipping/picking-list";
import type { LabelJob } from "@/features/shipping/picking-list";
import type { LabelFetchOptions } from "@/features/shipping/label-fetch.server";
import { obtainAccessToken } from "@marketplace/sandbox/testing";
import { stubServerOnly } from "./lib/server-only-stub";

const { values: args } = parseArgs({
  options: {
    counts: { type: "string", default: "50,200" },
    "seed-orders": { type: "string", default: "1500" },
    runs: { type: "string", default: "1" },
    "cap-labels": { type: "string", default: "200,11" },
    // Internal: one capped run in this process (the jobs on stdin), its figures as JSON on stdout.
    "measure-run": { type: "boolean", default: false },
  },
});
const numbers = (list: string, flag: string) => {
  const parsed = list === "" ? [] : list.split(",").map(Number);
  if (parsed.some((count) => !Number.isInteger(count) || count < 1)) throw new Error(`--${flag} must be whole numbers, not ${list}`);
  return parsed;
};
const COUNTS = numbers(args.counts, "counts");
const CAP_LABELS = numbers(args["cap-labels"], "cap-labels");
const SEED_ORDERS = Number(args["seed-orders"]);
const RUNS = Number(args.runs);
/** The largest allowed run's labels fill this share of the bytes cap; the refused run has this many times as many labels. */
const ALLOWED_SHARE = 0.98;
const REFUSED_LABELS = 1.25;
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

interface CappedRunInput {
  baseUrl: string;
  token: string;
  jobs: LabelJob[];
}

interface CappedRunFigures {
  seconds: number;
  refused: boolean;
  pages: number;
  pdfBytes: number;
  fetchedBytes: number;
  rssBefore: number;
  /** The process's high-water mark (getrusage), so no peak between samples is missed. */
  peakRss: number;
  heapBefore: number;
  peakHeap: number;
  arrayBuffersBefore: number;
  peakArrayBuffers: number;
}

/** One labels run through the guarded fetcher and the merge, as the route makes it: in this process, for `--measure-run`. */
async function measureRun(input: CappedRunInput): Promise<CappedRunFigures> {
  stubServerOnly();
  const { createLabelFetcher } = await import("@/features/shipping/label-fetch.server");
  const { LabelsTooLarge, mergeLabels } = await import("@/features/shipping/label-merge");
  const fetcher = createLabelFetcher({ platformBaseUrl: input.baseUrl, accessToken: input.token });
  let fetchedBytes = 0;
  const counted = (url: string, options: LabelFetchOptions) =>
    fetcher.fetch(url, {
      ...options,
      claimBytes: (bytes) => {
        const taken = options.claimBytes?.(bytes) ?? true;
        if (taken) fetchedBytes += bytes;
        return taken;
      },
    });
  collectGarbage();
  const before = process.memoryUsage();
  let peakHeap = before.heapUsed;
  let peakArrayBuffers = before.arrayBuffers;
  const sample = () => {
    const now = process.memoryUsage();
    peakHeap = Math.max(peakHeap, now.heapUsed);
    peakArrayBuffers = Math.max(peakArrayBuffers, now.arrayBuffers);
  };
  const sampler = setInterval(sample, 10);
  const started = performance.now();
  let figures: Pick<CappedRunFigures, "refused" | "pages" | "pdfBytes">;
  try {
    const merged = await mergeLabels(input.jobs, counted, { title: "bench" });
    figures = { refused: false, pages: merged.pages, pdfBytes: merged.pdf?.length ?? 0 };
    if (merged.failed.length > 0) throw new Error(`labels failed: ${JSON.stringify(merged.failed.slice(0, 3))}`);
  } catch (error) {
    if (!(error instanceof LabelsTooLarge)) throw error;
    figures = { refused: true, pages: 0, pdfBytes: 0 };
  } finally {
    clearInterval(sampler);
    fetcher.close();
  }
  sample();
  return {
    ...figures,
    seconds: (performance.now() - started) / 1000,
    fetchedBytes,
    rssBefore: before.rss,
    peakRss: process.resourceUsage().maxRSS * 1024,
    heapBefore: before.heapUsed,
    peakHeap,
    arrayBuffersBefore: before.arrayBuffers,
    peakArrayBuffers,
  };
}

/** `measureRun` in a new process of this script, so that no earlier run's memory stands in for this one's peak. */
async function measureInOwnProcess(input: CappedRunInput): Promise<CappedRunFigures> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join("bench", "labels.ts"), "--measure-run"], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  child.stdin.end(JSON.stringify(input));
  const [output, code] = await Promise.all([text(child.stdout), new Promise<number | null>((resolve) => child.once("exit", resolve))]);
  if (code !== 0) throw new Error(`the measured run exited with ${code}`);
  return JSON.parse(output) as CappedRunFigures;
}

async function main(): Promise<void> {
  stubServerOnly();
  const { createLabelFetcher } = await import("@/features/shipping/label-fetch.server");
  const { mergeLabels } = await import("@/features/shipping/label-merge");

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
    const wanted = Math.max(...COUNTS, ...CAP_LABELS.map((count) => Math.ceil(count * REFUSED_LABELS)));
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

    if (COUNTS.length > 0)
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

    if (CAP_LABELS.length > 0) await capRuns(baseUrl, token, allJobs);
  } finally {
    stop();
  }
}

/**
 * Per label count: labels padded (sandbox fault `labelPaddingBytes`) so that the count fills the
 * bytes cap to ALLOWED_SHARE, the largest run the caps allow; then REFUSED_LABELS times as many of
 * them, which the cap stops. Each run in a process of its own.
 */
async function capRuns(baseUrl: string, token: string, allJobs: readonly LabelJob[]) {
  const { LABELS_RUN_LIMITS } = await import("@/features/shipping/label-merge");
  const { LABEL_LIMITS } = await import("@/features/shipping/label-fetch.server");
  const setPadding = async (labelPaddingBytes: number) => {
    const response = await fetch(`${baseUrl}/_sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ labelPaddingBytes }),
    });
    if (!response.ok) throw new Error(`setting labelPaddingBytes: HTTP ${response.status}`);
  };
  const plain = (await (await fetch(allJobs[0]!.url)).arrayBuffer()).byteLength;
  console.log(
    `\nThe run's caps: ${mb(LABELS_RUN_LIMITS.maxBytes).toFixed(0)} MB of labels, ${LABELS_RUN_LIMITS.maxPages.toLocaleString("en")} pages (a label: ${plain.toLocaleString("en")} B unpadded)`,
  );
  console.log(
    "run                     labels   label MB   fetched MB   seconds   outcome        PDF MB   RSS before   RSS peak (+)        heap peak (+)     buffers peak (+)",
  );
  try {
    for (const count of CAP_LABELS) {
      const labelBytes = Math.floor((LABELS_RUN_LIMITS.maxBytes * ALLOWED_SHARE) / count);
      if (labelBytes > LABEL_LIMITS.maxBytes)
        throw new Error(`${count} labels cannot fill the cap under the ${mb(LABEL_LIMITS.maxBytes)} MB a label`);
      await setPadding(Math.max(0, labelBytes - plain));
      for (const [name, labels] of [
        ["largest allowed", count],
        ["refused at the cap", Math.ceil(count * REFUSED_LABELS)],
      ] as const) {
        const run = await measureInOwnProcess({ baseUrl, token, jobs: allJobs.slice(0, labels) });
        const plus = (peak: number, before: number) => `${mb(peak).toFixed(0)} (+${mb(peak - before).toFixed(0)})`;
        console.log(
          [
            name.padEnd(20),
            String(labels).padStart(9),
            mb(labelBytes).toFixed(2).padStart(10),
            mb(run.fetchedBytes).toFixed(1).padStart(12),
            run.seconds.toFixed(2).padStart(9),
            (run.refused ? "refused" : `${run.pages} pages`).padStart(10),
            mb(run.pdfBytes).toFixed(1).padStart(10),
            mb(run.rssBefore).toFixed(0).padStart(12),
            plus(run.peakRss, run.rssBefore).padStart(14),
            plus(run.peakHeap, run.heapBefore).padStart(20),
            plus(run.peakArrayBuffers, run.arrayBuffersBefore).padStart(20),
          ].join(" "),
        );
      }
    }
  } finally {
    await setPadding(0);
  }
}

if (args["measure-run"]) {
  text(process.stdin)
    .then((input) => measureRun(JSON.parse(input) as CappedRunInput))
    .then((figures) => process.stdout.write(JSON.stringify(figures)))
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
