// `npm run bench:bulk-prices`: a bulk price update of 1,000 rows against the sandbox with the
// fault `rateLimitPerMinute` set, through the same code the bulk page uses: the CSV parser, the
// applier and the real marketplace client (spec: 5. Create price, Limits: "can be blocked
// temporarily"). Starts the sandbox in this process on a free loopback port, obtains a token
// through the real OAuth flow (consent form POST, code exchange), creates the SKUs needed for
// 1,000 distinct SKU+type pairs (the seeded seller has 20 SKUs, 40 pairs), then applies.
// Prints the time taken, rows/s, how often it slowed down, and checks that every row has exactly
// one outcome and that the sandbox holds exactly the prices sent (each set once).
//
// Options (env): BENCH_ROWS (default 1000, even), BENCH_RATE_LIMIT (calls per minute, default
// 600), BENCH_TIMEOUT_S (default 300: the run gives up and reports what is pending).
import { createMarketplaceClient } from "../lib/marketplace/client";
import type { MarketplaceClient } from "../lib/marketplace/client";
import { pricesQuery } from "../lib/marketplace/list-query";
import type { Price } from "../lib/marketplace/schemas/price";
import { sampleSku } from "../lib/marketplace/schemas/fixtures";
import { skuCreateSchema } from "../lib/marketplace/schemas/sku";
import type { SkuCreate } from "../lib/marketplace/schemas/sku";
import { applyPriceRows } from "../lib/prices/bulk-apply";
import type { RowResult } from "../lib/prices/bulk-apply";
import { parseBulkPriceCsv } from "../lib/prices/bulk-csv";
import type { BulkPriceRow } from "../lib/prices/bulk-csv";
import { obtainAccessToken, startTestSandbox } from "../sandbox/testing";

const ROWS = Number(process.env.BENCH_ROWS ?? 1000);
const RATE_LIMIT = Number(process.env.BENCH_RATE_LIMIT ?? 600);
const TIMEOUT_S = Number(process.env.BENCH_TIMEOUT_S ?? 300);

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
  for (let offset: number | null = 0; offset !== null; ) {
    const page = await client.listPrices(pricesQuery({ limit: 200, offset }));
    prices.push(...page.items);
    offset = page.next?.offset ?? null;
  }
  return prices;
}

async function main(): Promise<void> {
  if (!Number.isInteger(ROWS) || ROWS < 2 || ROWS % 2 !== 0) throw new Error("BENCH_ROWS must be an even integer ≥ 2");
  const sandbox = await startTestSandbox({ config: { host: "127.0.0.1", seedOrders: 0 } });
  const hardStop = setTimeout(() => {
    console.error(`gave up after ${TIMEOUT_S + 60} s`);
    process.exit(2);
  }, (TIMEOUT_S + 60) * 1000);
  hardStop.unref();
  try {
    // Loopback only: the sandbox listens on 127.0.0.1 (its `url` says "localhost").
    const baseUrl = `http://127.0.0.1:${sandbox.port}`;
    const token = await obtainAccessToken(baseUrl, { scopes: ["portfolio:write", "portfolio:read"] });
    const client = createMarketplaceClient({ baseUrl, accessToken: token });
    const control = (method: "POST" | "DELETE", body?: unknown) =>
      fetch(`${baseUrl}/_sandbox/faults`, { method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
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
    if (parsed.invalid.length > 0 || parsed.rows.length !== ROWS) throw new Error(`expected ${ROWS} valid rows, got ${parsed.rows.length} (${parsed.invalid.length} invalid)`);
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
      createPrice: (row) => client.createPrice({ sku: row.sku, type: row.type, value: row.value, currency: row.currency, normalizer: row.normalizer, extras: {} }),
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
    console.log(`throughput           ${(ROWS / seconds).toFixed(1)} rows/s (limit ${RATE_LIMIT} requests a minute: ${ROWS} rows cannot finish in under ${Math.floor((ROWS - 1) / RATE_LIMIT) * 60} s)`);
    console.log(`slowed down          ${result.slowDowns} times (waits ${waits.map((ms) => (ms / 1000).toFixed(1)).join(", ") || "none"} s; ${(waits.reduce((a, b) => a + b, 0) / 1000).toFixed(1)} s in all)`);
    console.log(`requests repeated    ${result.retries}`);
    console.log(`outcomes             ${byOutcome.applied} applied, ${byOutcome.rejected} rejected, ${byOutcome.failed} failed; ${result.pending.length} pending`);
    console.log(`one outcome per row  ${missing === 0 && duplicated === 0 ? "yes" : `NO (${missing} missing, ${duplicated} with more than one)`}`);
    console.log(`sandbox prices match ${mismatched === 0 ? "yes" : `NO (${mismatched} differ)`}; each set once: ${setMoreThanOnce === 0 ? "yes" : `NO (${setMoreThanOnce})`}`);
    if (missing > 0 || duplicated > 0 || mismatched > 0 || setMoreThanOnce > 0 || byOutcome.applied !== ROWS) process.exitCode = 1;
  } finally {
    clearTimeout(hardStop);
    await sandbox.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
