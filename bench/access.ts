// npm run bench:access [-- --shops 1000] [-- --iterations 3000] [-- --runs 5]
// What people and the audit log cost: the membership check before and after people, and a bulk
// run's audit (bench/README.md). Prints figures; asserts no speed.
//
// lib/env.js reads the environment once per process, and migrating loads it first: so this process
// makes the database and a second one, with DATABASE_URL naming it, measures. `--conditions=react-server`
// would give next-intl its server build, which lib/format.ts cannot load, so the measuring process
// maps the "server-only" marker alone to its empty module, as vitest.config.ts does.
import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { createRequire, register } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import type { Client } from "pg";
import { percentile } from "./lib/load";
import { dropDatabase } from "@/prisma/pg-admin";
import { createPrng } from "@marketplace/sandbox/random";

const { values: args } = parseArgs({
  options: {
    shops: { type: "string", default: "1000" },
    iterations: { type: "string", default: "3000" },
    runs: { type: "string", default: "5" },
  },
});
const SHOPS = Number(args.shops);
const ITERATIONS = Number(args.iterations);
const RUNS = Number(args.runs);
const BENCH_DATABASE = "bench_access";
const MEASURING = process.env.BENCH_ACCESS_MEASURE === "1";

const WARM_UP_REQUESTS = 200;
const BULK_ROWS = 1_000;
const FAILED_ROWS = 3;
/** Every tenth shop has the owners of the next three as members. */
const MEMBERS_EVERY = 10;
const MEMBER_ROLES = ["manager", "operations", "viewer"] as const;

// Audit runs need shops of their own (two kinds × runs, plus the warm-up of each).
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`--runs must be a whole number ≥ 1, not ${args.runs}`);
if (!Number.isInteger(SHOPS) || SHOPS < 2 * RUNS + 2)
  throw new Error(`--shops must be a whole number ≥ ${2 * RUNS + 2} (two per run, two to warm up), not ${args.shops}`);
if (!Number.isInteger(ITERATIONS) || ITERATIONS < 1) throw new Error(`--iterations must be a whole number ≥ 1, not ${args.iterations}`);

// ---------------------------------------------------------------------------------------------
// Figures

interface Summary {
  p50: number;
  p95: number;
  p99: number;
  mean: number;
}

function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    mean: sorted.reduce((sum, value) => sum + value, 0) / sorted.length,
  };
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const max = (values: readonly number[]) => Math.max(...values);
const ms = (value: number, digits = 2) => value.toFixed(digits);
const count = (value: number) => value.toLocaleString("en");

/** Runs `task` over `items` a few at a time: the setup is not what is measured. */
async function inParallel<T, U>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<U>): Promise<U[]> {
  const out = new Array<U>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      for (let index = next++; index < items.length; index = next++) out[index] = await task(items[index] as T, index);
    }),
  );
  return out;
}

// ---------------------------------------------------------------------------------------------
// The measuring process

function stubServerOnly(): void {
  const empty = pathToFileURL(path.join(path.dirname(createRequire(import.meta.url).resolve("server-only")), "empty.js")).href;
  const hooks = `export async function resolve(specifier, context, next) {
    return specifier === "server-only" ? { url: ${JSON.stringify(empty)}, shortCircuit: true } : next(specifier, context);
  }`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
}

async function measure(): Promise<void> {
  stubServerOnly();
  // DATABASE_URL names the throwaway database (set by the parent): only now the modules that read it.
  const pg = (await import("pg")).default;
  const { db } = await import("@/lib/db.server");
  const { pool, receiverPool } = await import("@/lib/pg-pool.server");
  const { connectShop, findCurrentShop } = await import("@/lib/shops/shops.server");
  const { makeOwner, personForMarketplaceAccount } = await import("@/lib/people/people.server");
  const { startSession } = await import("@/lib/people/sessions.server");
  const { shopAccessOf } = await import("@/lib/auth/session.server");
  const { recordBulkRun } = await import("@/features/prices/bulk/audit-bulk.server");
  const { lastKnownPrices } = await import("@/features/prices/prices.server");
  const { recordAudit } = await import("@/lib/audit/audit.server");
  const { BULK_LIMITS } = await import("@/features/prices/bulk/bulk-csv");

  // Every statement Prisma's adapter or the pg pool sends goes through Client#query.
  let statements = 0;
  const query = pg.Client.prototype.query as (...queryArgs: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: Client, ...queryArgs: unknown[]) {
    statements++;
    return query.apply(this, queryArgs);
  } as typeof pg.Client.prototype.query;

  /** Times one call and counts its statements (calls run one at a time, so the count is theirs). */
  async function timed<T>(call: () => Promise<T>): Promise<{ result: T; ms: number; statements: number }> {
    const statementsBefore = statements;
    const started = performance.now();
    const result = await call();
    return { result, ms: performance.now() - started, statements: statements - statementsBefore };
  }

  /** What a request read before people existed, as the removed findCurrentSeller(sellerId, sessionId) did. */
  async function checkBeforePeople(shopId: string, sessionId: string) {
    const shop = await findCurrentShop(shopId);
    const session = await db.personSession.findUnique({ where: { id: sessionId } });
    return shop && session ? shop : null;
  }

  try {
    // --- Setup ---------------------------------------------------------------------------------
    const setupStarted = performance.now();
    const shops = await inParallel(
      Array.from({ length: SHOPS }, (_, index) => index),
      4,
      async (index) => {
        const number = String(index + 1).padStart(4, "0");
        const email = `bench-shop-${number}@bench.example`;
        const shop = await connectShop({
          email,
          name: `Bench shop ${number}`,
          accessToken: randomBytes(24).toString("base64url"),
          scopesRequested: "basic_user_info portfolio:read portfolio:write",
        });
        const owner = await personForMarketplaceAccount(email, `Owner ${number}`);
        await makeOwner(owner.id, shop.id);
        return { id: shop.id, owner, sessionId: await startSession(owner.id) };
      },
    );
    // Members for setup only: the membership rows an accepted invitation would leave.
    const members = shops.flatMap((shop, index) =>
      index % MEMBERS_EVERY === 0
        ? MEMBER_ROLES.flatMap((role, offset) => {
            const other = shops[index + offset + 1];
            return other ? [{ shopId: shop.id, personId: other.owner.id, role }] : [];
          })
        : [],
    );
    await db.membership.createMany({ data: members });
    const setupSeconds = (performance.now() - setupStarted) / 1000;
    console.log(
      `${count(SHOPS)} shops, each with its owner and a session, and ${count(members.length)} more memberships: set up in ${setupSeconds.toFixed(1)} s\n`,
    );

    // --- 1. The membership check -----------------------------------------------------------------
    const random = createPrng(27);
    const before: { ms: number[]; statements: number[] } = { ms: [], statements: [] };
    const after: { ms: number[]; statements: number[] } = { ms: [], statements: [] };
    for (let request = 0; request < WARM_UP_REQUESTS + ITERATIONS; request++) {
      const shop = shops[Math.floor(random() * shops.length)]!;
      const measureBefore = () => timed(() => checkBeforePeople(shop.id, shop.sessionId));
      const measureAfter = () =>
        timed(() => shopAccessOf({ personId: shop.owner.id, sessionId: shop.sessionId, startedAt: Date.now() }, shop.id));
      // Alternating which goes first, so neither always finds the other's pages in the cache.
      let old: Awaited<ReturnType<typeof measureBefore>>;
      let now: Awaited<ReturnType<typeof measureAfter>>;
      if (request % 2 === 0) {
        old = await measureBefore();
        now = await measureAfter();
      } else {
        now = await measureAfter();
        old = await measureBefore();
      }
      if (!old.result) throw new Error(`before: shop ${shop.id} was not found with its session`);
      if (typeof now.result === "string" || now.result.role !== "owner")
        throw new Error(`after: shop ${shop.id} answered ${typeof now.result === "string" ? now.result : now.result.role}`);
      if (request < WARM_UP_REQUESTS) continue;
      before.ms.push(old.ms);
      before.statements.push(old.statements);
      after.ms.push(now.ms);
      after.statements.push(now.statements);
    }
    const beforeSummary = summarize(before.ms);
    const afterSummary = summarize(after.ms);
    const beforeStatements = summarize(before.statements).mean;
    const afterStatements = summarize(after.statements).mean;

    console.log(
      `1. Membership check per request: ${count(ITERATIONS)} requests on random shops of ${count(SHOPS)}, each timed both ways in alternating order, after ${WARM_UP_REQUESTS} warm-up requests`,
    );
    console.log(
      `${"".padEnd(42)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"mean ms".padStart(8)} ${"SQL statements".padStart(15)}`,
    );
    const checkRow = (label: string, figures: Summary, sql: string) =>
      console.log(
        `${label.padEnd(42)} ${ms(figures.p50).padStart(8)} ${ms(figures.p95).padStart(8)} ${ms(figures.p99).padStart(8)} ${ms(figures.mean).padStart(8)} ${sql.padStart(15)}`,
      );
    checkRow("before: shop + session row", beforeSummary, beforeStatements.toFixed(1));
    checkRow("after: shopAccessOf (person, shops, shop)", afterSummary, afterStatements.toFixed(1));
    checkRow(
      "difference (after − before)",
      {
        p50: afterSummary.p50 - beforeSummary.p50,
        p95: afterSummary.p95 - beforeSummary.p95,
        p99: afterSummary.p99 - beforeSummary.p99,
        mean: afterSummary.mean - beforeSummary.mean,
      },
      `+${(afterStatements - beforeStatements).toFixed(1)}`,
    );
    console.log("");

    // --- 2. The audit of a bulk run --------------------------------------------------------------
    type BatchRow = Parameters<typeof recordBulkRun>[4][number];
    const skus = Array.from({ length: BULK_ROWS / 2 }, (_, index) => `BENCH-${String(index + 1).padStart(4, "0")}`);
    // Lines as the upload numbers them (the header is line 1): a list and a sell price per SKU.
    const rows: BatchRow[] = skus.flatMap((sku, index) => [
      { line: 2 * index + 2, sku, type: "list", value: 10_000 + index, currency: "BRL", normalizer: 100 },
      { line: 2 * index + 3, sku, type: "sell", value: 9_000 + index, currency: "BRL", normalizer: 100 },
    ]);
    const failedLines = new Set(
      Array.from({ length: FAILED_ROWS }, (_, index) => rows[Math.floor(((index + 0.5) * rows.length) / FAILED_ROWS)]!.line),
    );
    const batches = Array.from({ length: Math.ceil(rows.length / BULK_LIMITS.maxBatchRows) }, (_, index) =>
      rows.slice(index * BULK_LIMITS.maxBatchRows, (index + 1) * BULK_LIMITS.maxBatchRows),
    );
    const sent = rows.length - failedLines.size;

    /** Every other SKU (both its prices, so half of the rows) has a current price in the mirror. */
    async function mirrorPrices(shopId: string) {
      await db.priceMirror.createMany({
        data: skus.flatMap((sku, index) =>
          index % 2 === 1
            ? []
            : (["list", "sell"] as const).map((type) => ({
                shopId,
                priceId: `${sku}-${type}`,
                sku,
                type,
                value: 12_345,
                currency: "BRL",
                normalizer: 100,
                syncedAt: new Date(),
              })),
        ),
      });
    }

    interface AuditRun {
      totalMs: number;
      lastKnownMs: number;
      recordMs: number;
      statements: number;
      entries: number;
    }

    async function perPriceRun(shop: (typeof shops)[number]): Promise<AuditRun> {
      await mirrorPrices(shop.id);
      const run = { id: randomUUID(), source: "csv" as const };
      const figures = { totalMs: 0, lastKnownMs: 0, recordMs: 0, statements: 0 };
      let known = 0;
      for (const batch of batches) {
        const results = batch.map((row) => ({
          line: row.line,
          outcome: failedLines.has(row.line) ? ("failed" as const) : ("applied" as const),
        }));
        const read = await timed(() => lastKnownPrices(shop.id, batch));
        const written = await timed(() => recordBulkRun(shop.id, shop.owner, run, read.result, batch, results));
        known += batch.filter((row) => read.result.has(`${row.sku}\u0000${row.type}`)).length;
        figures.lastKnownMs += read.ms;
        figures.recordMs += written.ms;
        figures.statements += read.statements + written.statements;
      }
      figures.totalMs = figures.lastKnownMs + figures.recordMs;
      if (known !== rows.length / 2) throw new Error(`lastKnownPrices found ${known} prices, expected ${rows.length / 2}`);
      const summary = await db.auditEntry.findFirst({ where: { shopId: shop.id, action: "price.bulk" }, select: { after: true } });
      const counts = summary?.after as { sent?: number; failed?: number } | undefined;
      if (counts?.sent !== sent || counts.failed !== failedLines.size)
        throw new Error(`the run's summary reads ${JSON.stringify(counts)}, expected ${sent} sent, ${failedLines.size} failed`);
      return { ...figures, entries: await db.auditEntry.count({ where: { shopId: shop.id } }) };
    }

    async function summaryOnlyRun(shop: (typeof shops)[number]): Promise<AuditRun> {
      const written = await timed(() =>
        recordAudit({
          shopId: shop.id,
          person: shop.owner,
          action: "price.bulk",
          after: { run: randomUUID(), source: "csv", sent, failed: failedLines.size, skipped: 0 },
        }),
      );
      return {
        totalMs: written.ms,
        lastKnownMs: 0,
        recordMs: written.ms,
        statements: written.statements,
        entries: await db.auditEntry.count({ where: { shopId: shop.id } }),
      };
    }

    // Shops of their own, after the warm-up's two: the runs' logs start empty.
    await perPriceRun(shops[0]!);
    await summaryOnlyRun(shops[1]!);
    const perPrice: AuditRun[] = [];
    const summaryOnly: AuditRun[] = [];
    for (let run = 0; run < RUNS; run++) {
      perPrice.push(await perPriceRun(shops[2 + 2 * run]!));
      summaryOnly.push(await summaryOnlyRun(shops[3 + 2 * run]!));
    }

    const column = (runs: AuditRun[], pick: (run: AuditRun) => number, format: (value: number) => string) => [
      format(median(runs.map(pick))),
      format(max(runs.map(pick))),
    ];
    const perThousand = (run: AuditRun) => (run.totalMs / run.entries) * 1000;
    console.log(
      `2. Audit of a ${count(BULK_ROWS)}-row bulk price run: ${batches.length} batches of ${BULK_LIMITS.maxBatchRows}, ${count(sent)} rows applied and ${failedLines.size} failed, ${count(BULK_ROWS / 2)} rows with a mirrored price; ${RUNS} runs of each (median, max), after one warm-up run of each`,
    );
    console.log(`${"".padEnd(42)} ${"per price".padStart(20)} ${"summary only".padStart(20)}`);
    console.log(`${"".padEnd(42)} ${"median".padStart(9)} ${"max".padStart(10)} ${"median".padStart(9)} ${"max".padStart(10)}`);
    const auditRow = (label: string, pick: (run: AuditRun) => number, format: (value: number) => string, summaryFormat = format) => {
      const [perPriceMedian, perPriceMax] = column(perPrice, pick, format);
      const [summaryMedian, summaryMax] = column(summaryOnly, pick, summaryFormat);
      console.log(
        `${label.padEnd(42)} ${perPriceMedian!.padStart(9)} ${perPriceMax!.padStart(10)} ${summaryMedian!.padStart(9)} ${summaryMax!.padStart(10)}`,
      );
    };
    auditRow(
      "total ms (database time of the run)",
      (run) => run.totalMs,
      (value) => ms(value, 1),
    );
    auditRow(
      "  lastKnownPrices ms",
      (run) => run.lastKnownMs,
      (value) => ms(value, 1),
      () => "—",
    );
    auditRow(
      "  recordBulkRun (or recordAudit) ms",
      (run) => run.recordMs,
      (value) => ms(value, 1),
    );
    auditRow("audit entries written", (run) => run.entries, count);
    auditRow(
      "ms per 1,000 entries",
      perThousand,
      (value) => ms(value, 1),
      () => "—",
    );
    auditRow("SQL statements", (run) => run.statements, count);
    const perPriceMs = median(perPrice.map((run) => run.totalMs)) - median(summaryOnly.map((run) => run.totalMs));
    const priceEntries = median(perPrice.map((run) => run.entries)) - median(summaryOnly.map((run) => run.entries));
    console.log(
      `${"per-price part (difference of medians)".padEnd(42)} ${ms(perPriceMs, 1).padStart(9)} ms for ${count(priceEntries)} entries: ${ms((perPriceMs / priceEntries) * 1000, 1)} ms per 1,000, ${ms(perPriceMs / batches.length, 2)} ms per batch`,
    );
    console.log("");

    // --- Reading ---------------------------------------------------------------------------------
    const extraP50 = afterSummary.p50 - beforeSummary.p50;
    const extraP95 = afterSummary.p95 - beforeSummary.p95;
    console.log(
      `Reading: opening a shop now reads the person with their shops and the session, then the shop: ${afterStatements.toFixed(0)} SQL statements where a request read ${beforeStatements.toFixed(0)} before people existed. ` +
        `That costs ${ms(extraP50)} ms more per request at the median (${ms(afterSummary.p50)} against ${ms(beforeSummary.p50)} ms, ${((afterSummary.p50 / beforeSummary.p50 - 1) * 100).toFixed(0)}% more) and ${ms(extraP95)} ms more at p95, ` +
        `on a local database with ${count(SHOPS)} shops; a database across a network adds its round-trip time for each extra statement. ` +
        `Auditing each price of a ${count(BULK_ROWS)}-row bulk run (${batches.length} batches, ${ms(median(perPrice.map((run) => run.statements)) / batches.length, 0)} SQL statements each) takes ${ms(median(perPrice.map((run) => run.totalMs)), 0)} ms of database time at the median (max ${ms(max(perPrice.map((run) => run.totalMs)), 0)} ms), ` +
        `${ms(perPriceMs, 0)} ms more than writing the summary alone: about ${ms(perPriceMs / batches.length, 1)} ms per batch of ${BULK_LIMITS.maxBatchRows}, next to the ${BULK_LIMITS.maxBatchRows} platform requests each batch waits for.`,
    );
  } finally {
    await db.$disconnect();
    await Promise.all([pool.end(), receiverPool.end()]);
  }
}

// ---------------------------------------------------------------------------------------------
// The parent: the throwaway database around the measuring process

async function main(): Promise<void> {
  const started = performance.now();
  const { migrateFreshDatabase } = await import("@/scripts/migrate");
  const url = await migrateFreshDatabase(BENCH_DATABASE);
  console.log(`database ${BENCH_DATABASE} migrated in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  // Ctrl-C reaches the measuring process too: this one waits for it to end, then drops the database.
  const ignore = () => {};
  process.on("SIGINT", ignore);
  process.on("SIGTERM", ignore);
  try {
    const child = spawn(process.execPath, [...process.execArgv, process.argv[1] ?? "", ...process.argv.slice(2)], {
      env: { ...process.env, DATABASE_URL: url, BENCH_ACCESS_MEASURE: "1" },
      stdio: "inherit",
    });
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
      child.once("error", reject);
      child.once("exit", (exitCode, exitSignal) => resolve([exitCode, exitSignal]));
    });
    if (code !== 0) throw new Error(`the measuring process ended with ${signal ?? `exit code ${code}`}`);
  } finally {
    await dropDatabase(url);
    process.off("SIGINT", ignore);
    process.off("SIGTERM", ignore);
  }
  console.log(`\nwhole run ${((performance.now() - started) / 1000).toFixed(1)} s; database ${BENCH_DATABASE} dropped`);
}

try {
  await (MEASURING ? measure() : main());
} catch (error) {
  console.error(error);
  process.exitCode = 1;
}
