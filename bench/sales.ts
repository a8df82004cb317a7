// npm run bench:sales [-- --orders 1000000] [-- --shops 10000] [-- --runs 50]
// The sales page's report and best products with margins (issue 42) on a shop with a million mirrored orders (a year of them) among
// ten thousand shops: p50/p95 for 30 days (target p95 ≤ 300 ms) and 12 months (target ≤ 1 s), and the
// EXPLAIN of each statement; the roll-up's size and what keeping it costs the mirror's writes (decision
// 0022). The database: bench/lib/big-shop.ts, as bench:search's.
import { percentile } from "./lib/load";
import { stubServerOnly } from "./lib/server-only-stub";
import { BIG, bigShopArgs, seedBigShop } from "./lib/big-shop";
import { measureInFreshDatabase } from "./lib/measured-database";
import { mirrorWrites, printWriteCost, WRITES_DESCRIBED } from "./lib/mirror-writes";
import type { Period } from "@/features/sales/periods";

const SIZE = bigShopArgs(50);
const { orders: ORDERS, runs: RUNS } = SIZE;
const ZONE = "America/Sao_Paulo";

async function measure(): Promise<void> {
  stubServerOnly();
  const pg = (await import("pg")).default;
  const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  await seedBigShop(db, SIZE);
  // A cost for every other SKU: best products then have margins, read with the shop's commission rate.
  await db.query(
    `INSERT INTO "ProductCost" ("sellerId", "sku", "cost", "personName", "source")
     SELECT $1, 'SKU-' || lpad(n::text, 5, '0'), 500 + n % 2000, 'Bench', 'catalogue' FROM generate_series(0, 4999, 2) n`,
    [BIG],
  );
  const { salesReport } = await import("@/features/sales/sales.server");
  const { productSales } = await import("@/features/sales/best-products.server");
  // What the page reads, at once as it does: the report and the products.
  const page = (period: Period) => Promise.all([salesReport(shop, period), productSales(BIG, period)]);
  const { customPeriod, presetPeriod } = await import("@/features/sales/periods");
  const { pool } = await import("@/lib/pg-pool.server");
  const shop = { id: BIG, timeZone: ZONE };
  const day = (instant: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: ZONE }).format(instant);
  const now = new Date();
  const periods = {
    "30 days": () => presetPeriod("30d", new Date(), ZONE),
    "12 months": () => customPeriod(day(new Date(now.getTime() - 364 * 86_400_000)), day(now), ZONE)!,
  };

  const captured: { name: string; text: string; values: unknown[] }[] = [];
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  (pool as unknown as { query: (...args: unknown[]) => Promise<unknown> }).query = (config: unknown, ...rest: unknown[]) => {
    const statement = config as { name?: string; text: string; values?: unknown[] };
    if (statement.name?.startsWith("sales_")) captured.push({ name: statement.name, text: statement.text, values: statement.values ?? [] });
    return query(config, ...rest);
  };

  console.log(
    `\nthe sales page's reads for ${BIG} (${ORDERS.toLocaleString("en")} orders over a year), ${RUNS} runs for 30 days, up to 20 for 12 months`,
  );
  for (const [label, period] of Object.entries(periods)) {
    for (let warm = 0; warm < 3; warm++) await page(period());
    const times: number[] = [];
    let orders = 0;
    let withMargin = 0;
    // A year reads a million orders per run: fewer runs.
    const runs = label === "12 months" ? Math.min(RUNS, 20) : RUNS;
    for (let run = 0; run < runs; run++) {
      const started = performance.now();
      const [report, products] = await page(period());
      times.push(performance.now() - started);
      orders = report.current.orders + report.current.cancelled;
      withMargin = products.filter((product) => product.margin !== null).length;
    }
    times.sort((a, b) => a - b);
    console.log(
      `  ${label.padEnd(10)} p50 ${percentile(times, 50).toFixed(1).padStart(7)} ms  p95 ${percentile(times, 95).toFixed(1).padStart(7)} ms  max ${times.at(-1)!.toFixed(1).padStart(7)} ms  (${orders.toLocaleString("en")} orders in the period, ${withMargin.toLocaleString("en")} products with a margin)`,
    );
  }
  console.log("  targets: 30 days p95 ≤ 300 ms, 12 months p95 ≤ 1 s");

  // The pages that still sum the orders themselves (totals per currency, which the roll-up does not
  // keep), on the same shop: measured, not targeted.
  const { getOverview } = await import("@/features/overview/overview.server");
  const { shopsAtAGlance } = await import("@/features/shops/glance.server");
  const others = [
    { id: BIG, name: "Loja 1", email: "shop1@bench.example", role: "owner" as const, connected: true },
    ...Array.from({ length: 11 }, (_, index) => ({
      id: `shop-${index + 2}`,
      name: `Loja ${index + 2}`,
      email: `shop${index + 2}@bench.example`,
      role: "owner" as const,
      connected: true,
    })),
  ];
  for (const [label, read] of [
    ["the overview", () => getOverview(BIG, ZONE)],
    ["the shops page, 12 shops", () => shopsAtAGlance(others)],
  ] as const) {
    for (let warm = 0; warm < 2; warm++) await read();
    const times: number[] = [];
    for (let run = 0; run < 20; run++) {
      const started = performance.now();
      await read();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.log(
      `  ${label.padEnd(26)} p50 ${percentile(times, 50).toFixed(1).padStart(7)} ms  p95 ${percentile(times, 95).toFixed(1).padStart(7)} ms`,
    );
  }

  for (const [label, period] of Object.entries(periods)) {
    captured.length = 0;
    await page(period());
    console.log(`\nEXPLAIN (ANALYZE, BUFFERS), ${label}:`);
    for (const statement of captured) {
      const plan = await db.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`, statement.values);
      console.log(`-- ${statement.name}`);
      console.log(
        plan.rows
          .map((row) => row["QUERY PLAN"])
          .filter((line) => /Scan |Aggregate|Sort Method|Nested Loop|Execution Time/.test(line))
          .join("\n"),
      );
    }
  }
  const size = await db.query<{ rows: string; mb: string }>(
    `SELECT count(*)::text AS "rows", (pg_total_relation_size('"SalesRollup"') / 1048576)::text AS "mb" FROM "SalesRollup"`,
  );
  console.log(`\nthe roll-up: ${Number(size.rows[0]!.rows).toLocaleString("en")} rows, ${size.rows[0]!.mb} MB with its index`);

  // What keeping the roll-up costs the mirror's writes: its triggers on, then off.
  const measureWrites = mirrorWrites(SIZE);
  console.log(`\nthe mirror's write, ${WRITES_DESCRIBED}:`);
  const withRollup = await measureWrites();
  await db.query(`ALTER TABLE "OrderMirror" DISABLE TRIGGER "OrderMirror_sales_insert", DISABLE TRIGGER "OrderMirror_sales_update"`);
  printWriteCost("keeping the roll-up", withRollup);
  printWriteCost("without it (triggers off)", await measureWrites());
  await db.end();
  await pool.end();
}

await (process.env.BENCH_SALES_MEASURE === "1" ? measure() : measureInFreshDatabase("bench_sales", "BENCH_SALES_MEASURE"));
