// `npm run bench:bulk-prices`: what reading one upload costs the server, and 1,000 rows applied
// against a rate-limited sandbox (parts and options: bench/README.md).
import { spawnSync } from "node:child_process";
import Papa from "papaparse";
import { createMarketplaceClient } from "@marketplace/api/client";
import type { MarketplaceClient } from "@marketplace/api/client";
import { pricesQuery } from "@marketplace/api/list-query";
import type { Price } from "@marketplace/api/schemas/price";
import { sampleSku } from "@marketplace/api/schemas/fixtures";
import { skuCreateSchema } from "@marketplace/api/schemas/sku";
import type { SkuCreate } from "@marketplace/api/schemas/sku";
import { applyPriceRows } from "@/features/prices/bulk/bulk-apply";
import type { RowResult } from "@/features/prices/bulk/bulk-apply";
import { BULK_LIMITS, parseBulkPriceCsv } from "@/features/prices/bulk/bulk-csv";
import type { BulkPriceRow } from "@/features/prices/bulk/bulk-csv";
import { obtainAccessToken, startTestSandbox } from "@marketplace/sandbox/testing";

const PART = process.env.BENCH_PART ?? "all";
/** Set by the memory part for the child process that measures one case. */
const MEMORY_CASE = process.env.BENCH_MEMORY_CASE;
const ROWS = Number(process.env.BENCH_ROWS ?? 1000);
const RATE_LIMIT = Number(process.env.BENCH_RATE_LIMIT ?? 600);
const TIMEOUT_S = Number(process.env.BENCH_TIMEOUT_S ?? 300);

// ---------------------------------------------------------------------------------------------
// Memory

const FILES = {
  blank: "1 MB of blank lines",
  rows: "1 MB of valid rows",
  accepted: `${BULK_LIMITS.maxRows.toLocaleString("en")} valid rows (the largest accepted)`,
} as const;
const PARSERS = {
  limited: "parseBulkPriceCsv, maxRows",
  everyLine: "every line kept (before)",
} as const;
type MemoryFile = keyof typeof FILES;
type MemoryParser = keyof typeof PARSERS;

interface MemoryFigures {
  records: number;
  outcome: string;
  ms: number;
  heapGrowth: number;
  rssBefore: number;
  peakRssBefore: number;
  peakRssAfter: number;
}

function uploadText(file: MemoryFile): string {
  // LF blank lines: a million of them, the most records 1 MB can make.
  if (file === "blank") return "sku,type,value,currency\n".padEnd(BULK_LIMITS.maxFileBytes, "\n");
  const header = "sku,type,value,currency\r\n";
  const lines: string[] = [];
  let bytes = header.length;
  for (let i = 0; file === "rows" ? bytes < BULK_LIMITS.maxFileBytes - 40 : i < BULK_LIMITS.maxRows; i++) {
    const line = `SKU-${String(i).padStart(6, "0")},${i % 2 === 0 ? "list" : "sell"},${10 + (i % 990)}.${String(i % 100).padStart(2, "0")},BRL\r\n`;
    lines.push(line);
    bytes += line.length;
  }
  return header + lines.join("");
}

/** Runs in the child: one parse of one file, measured from a collected heap. */
function measureCase(name: string): void {
  const [file, parser] = name.split(":") as [MemoryFile, MemoryParser];
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("run with --expose-gc");
  const text = uploadText(file);
  // Counts the records papaparse builds, whichever parser asks it.
  let records = 0;
  const parse = Papa.parse;
  const counting = (input: string, config: Papa.ParseConfig<string[]>) =>
    parse<string[]>(input, {
      ...config,
      step: (result, handle) => {
        records++;
        config.step?.(result, handle);
      },
    });
  Object.assign(Papa, { parse: counting });
  gc();
  const before = process.memoryUsage();
  const peakRssBefore = process.resourceUsage().maxRSS * 1024;
  const started = performance.now();
  let outcome: string;
  if (parser === "limited") {
    const result = parseBulkPriceCsv(text, { maxRows: BULK_LIMITS.maxRows });
    outcome = result.ok ? `${result.rows.length} rows` : `refused: ${result.error.code}`;
  } else {
    // What the parser did before it stopped at the limit: keep every line's record with its
    // offset, then count the rows.
    const kept: { fields: string[]; start: number }[] = [];
    let cursor = 0;
    Papa.parse<string[]>(text, {
      delimiter: ",",
      step: (result) => {
        kept.push({ fields: result.data, start: cursor });
        cursor = result.meta.cursor;
      },
    });
    outcome = `${kept.length} kept`;
  }
  const ms = performance.now() - started;
  const after = process.memoryUsage();
  const figures: MemoryFigures = {
    records,
    outcome,
    ms,
    heapGrowth: after.heapUsed - before.heapUsed,
    rssBefore: before.rss,
    peakRssBefore,
    peakRssAfter: process.resourceUsage().maxRSS * 1024,
  };
  process.stdout.write(JSON.stringify(figures));
}

const mb = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;

function memoryPart(): void {
  console.log(`memory of one upload (maxRows ${BULK_LIMITS.maxRows}; each case in a fresh process)\n`);
  console.log(
    `${"file".padEnd(40)} ${"parser".padEnd(28)} ${"outcome".padEnd(24)} ${"records".padStart(9)} ${"time".padStart(8)} ${"heap growth".padStart(12)} ${"peak RSS growth".padStart(16)}`,
  );
  for (const file of Object.keys(FILES) as MemoryFile[]) {
    for (const parser of Object.keys(PARSERS) as MemoryParser[]) {
      const child = spawnSync(process.execPath, ["--expose-gc", ...process.execArgv, process.argv[1] ?? ""], {
        env: { ...process.env, BENCH_MEMORY_CASE: `${file}:${parser}` },
        encoding: "utf8",
      });
      if (child.status !== 0) throw new Error(`memory case ${file}:${parser} failed: ${child.stderr}`);
      const figures = JSON.parse(child.stdout) as MemoryFigures;
      // maxRSS is the process's peak so far: the parse raised it only when it ends above the start's.
      const peak =
        figures.peakRssAfter > figures.peakRssBefore
          ? mb(figures.peakRssAfter - figures.rssBefore)
          : `≤ ${mb(figures.peakRssBefore - figures.rssBefore)}`;
      console.log(
        `${FILES[file].padEnd(40)} ${PARSERS[parser].padEnd(28)} ${figures.outcome.padEnd(24)} ${String(figures.records).padStart(9)} ${`${figures.ms.toFixed(0)} ms`.padStart(8)} ${mb(figures.heapGrowth).padStart(12)} ${peak.padStart(16)}`,
      );
    }
  }
  console.log("");
}

// ---------------------------------------------------------------------------------------------
// Apply

function skuBody(code: string): SkuCreate {
  return skuCreateSchema.parse({ ...sampleSku(code), title: { pt_BR: `Produto de teste ${code}` }, brand: "Bench" });
}

/** Runs `task` over `items` with a few in flight; the setup is not what is measured. */
async function inParallel<T, U>(items: readonly T[], limit: number, task: (item: T) => Promise<U>): Promise<U[]> {
  const out: U[] = new Array<U>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      for (let index = next++; index < items.length; index = next++) out[index] = await task(items[index] as T);
    }),
  );
  return out;
}

async function listAll(client: MarketplaceClient): Promise<Price[]> {
  const prices: Price[] = [];
  for (let offset: number | null = 0; offset !== null;) {
    const page = await client.listPrices(pricesQuery({ limit: 200, offset }));
    prices.push(...page.items);
    offset = page.next?.offset ?? null;
  }
  return prices;
}

async function applyPart(): Promise<void> {
  if (!Number.isInteger(ROWS) || ROWS < 2 || ROWS % 2 !== 0) throw new Error("BENCH_ROWS must be an even integer ≥ 2");
  const sandbox = await startTestSandbox({ config: { host: "127.0.0.1", seedOrders: 0 } });
  const hardStop = setTimeout(
    () => {
      console.error(`gave up after ${TIMEOUT_S + 60} s`);
      process.exit(2);
    },
    (TIMEOUT_S + 60) * 1000,
  );
  hardStop.unref();
  try {
    // Loopback only: the sandbox listens on 127.0.0.1 (its `url` says "localhost").
    const baseUrl = `http://127.0.0.1:${sandbox.port}`;
    const token = await obtainAccessToken(baseUrl, { scopes: ["portfolio:write", "portfolio:read"] });
    const client = createMarketplaceClient({ baseUrl, accessToken: token });
    const control = (method: "POST" | "DELETE", body?: unknown) =>
      fetch(`${baseUrl}/_sandbox/faults`, {
        method,
        headers: { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    console.log(`sandbox at ${baseUrl}; token obtained through the OAuth flow`);

    // 1. SKUs: the seeded 20, plus enough new ones for ROWS / 2 SKUs (two price types each).
    const seeded = await client.listPrices(pricesQuery({ limit: 200 }));
    const skuCodes = [...new Set(seeded.items.map((price) => price.sku))].sort();
    const extra = Array.from({ length: Math.max(0, ROWS / 2 - skuCodes.length) }, (_, i) => `BENCH-${String(i + 1).padStart(4, "0")}`);
    const setupStarted = performance.now();
    await inParallel(extra, 8, async (code) => {
      const answer = await client.createSku(skuBody(code));
      if (answer.statusCode !== 0) throw new Error(`SKU ${code}: ${answer.statusMessage} ${JSON.stringify(answer.errors)}`);
    });
    skuCodes.push(...extra);
    console.log(`${extra.length} SKUs created in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s (${skuCodes.length} in all)`);

    // 2. The file, parsed like an upload: distinct amounts, half with a decimal comma.
    const lines = ["sku,type,value,currency"];
    skuCodes.slice(0, ROWS / 2).forEach((code, i) => {
      lines.push(`${code},list,${100 + i}.${String(i % 100).padStart(2, "0")},BRL`);
      lines.push(`${code},sell,"${90 + i},${String((i * 7) % 100).padStart(2, "0")}",BRL`);
    });
    const parsed = parseBulkPriceCsv(lines.join("\r\n"), { maxRows: ROWS });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.error));
    if (parsed.invalid.length > 0 || parsed.rows.length !== ROWS)
      throw new Error(`expected ${ROWS} valid rows, got ${parsed.rows.length} (${parsed.invalid.length} invalid)`);
    // History lengths before the run, to check afterwards that each price was set exactly once.
    const before = new Map<string, number>();
    await inParallel(await listAll(client), 8, async (price) => {
      before.set(`${price.sku}|${price.type}`, (await client.getPrice(price.id)).priceHistory.length);
    });

    // 3. The rate limit, then the run.
    const faults = await control("POST", { rateLimitPerMinute: RATE_LIMIT });
    if (!faults.ok) throw new Error(`could not set the fault: HTTP ${faults.status}`);
    console.log(`rateLimitPerMinute ${RATE_LIMIT}; applying ${ROWS} rows one request at a time…\n`);

    const outcomes = new Map<number, RowResult<BulkPriceRow>[]>();
    const waits: number[] = [];
    const started = performance.now();
    const result = await applyPriceRows(parsed.rows, {
      createPrice: (row) =>
        client.createPrice({
          sku: row.sku,
          type: row.type,
          value: row.value,
          currency: row.currency,
          normalizer: row.normalizer,
          extras: {},
        }),
      onResult: (rowResult) => outcomes.set(rowResult.row.line, [...(outcomes.get(rowResult.row.line) ?? []), rowResult]),
      onSlowDown: (event) => {
        if (event.reason === "rate_limited") {
          waits.push(event.waitMs);
          const done = outcomes.size;
          console.log(`  blocked at row ${done + 1}: waiting ${(event.waitMs / 1000).toFixed(1)} s (block ${event.attempt} in a row)`);
        }
      },
      maxWaitMs: TIMEOUT_S * 1000,
    });
    const seconds = (performance.now() - started) / 1000;
    await control("DELETE");

    // 4. Checks: one outcome per row; the sandbox holds each price, set exactly once by us.
    const byOutcome = { applied: 0, rejected: 0, failed: 0 };
    for (const list of outcomes.values()) for (const entry of list) byOutcome[entry.outcome]++;
    const duplicated = [...outcomes.values()].filter((list) => list.length > 1).length;
    const missing = parsed.rows.filter((row) => !outcomes.has(row.line)).length;

    const current = new Map<string, Price>((await listAll(client)).map((price) => [`${price.sku}|${price.type}`, price]));
    let mismatched = 0;
    let setMoreThanOnce = 0;
    await inParallel(parsed.rows, 8, async (row) => {
      const price = current.get(`${row.sku}|${row.type}`);
      if (!price || price.value !== row.value || price.currency !== row.currency || price.normalizer !== row.normalizer) {
        mismatched++;
        return;
      }
      const history = (await client.getPrice(price.id)).priceHistory.length;
      if (history !== (before.get(`${row.sku}|${row.type}`) ?? 0) + 1) setMoreThanOnce++;
    });

    console.log("");
    console.log(`rows                 ${ROWS}`);
    console.log(`time                 ${seconds.toFixed(1)} s`);
    console.log(
      `throughput           ${(ROWS / seconds).toFixed(1)} rows/s (limit ${RATE_LIMIT} requests a minute: ${ROWS} rows cannot finish in under ${Math.floor((ROWS - 1) / RATE_LIMIT) * 60} s)`,
    );
    console.log(
      `slowed down          ${result.slowDowns} times (waits ${waits.map((ms) => (ms / 1000).toFixed(1)).join(", ") || "none"} s; ${(waits.reduce((a, b) => a + b, 0) / 1000).toFixed(1)} s in all)`,
    );
    console.log(`requests repeated    ${result.retries}`);
    console.log(
      `outcomes             ${byOutcome.applied} applied, ${byOutcome.rejected} rejected, ${byOutcome.failed} failed; ${result.pending.length} pending`,
    );
    console.log(
      `one outcome per row  ${missing === 0 && duplicated === 0 ? "yes" : `NO (${missing} missing, ${duplicated} with more than one)`}`,
    );
    console.log(
      `sandbox prices match ${mismatched === 0 ? "yes" : `NO (${mismatched} differ)`}; each set once: ${setMoreThanOnce === 0 ? "yes" : `NO (${setMoreThanOnce})`}`,
    );
    if (missing > 0 || duplicated > 0 || mismatched > 0 || setMoreThanOnce > 0 || byOutcome.applied !== ROWS) process.exitCode = 1;
  } finally {
    clearTimeout(hardStop);
    await sandbox.close();
  }
}

async function main(): Promise<void> {
  if (MEMORY_CASE !== undefined) return measureCase(MEMORY_CASE);
  if (PART !== "apply") memoryPart();
  if (PART !== "memory") await applyPart();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
