// npm run bench:search [-- --orders 1000000] [-- --shops 10000] [-- --runs 100]
// One search across a person's shops (issue 42) on a shop with a million mirrored orders among ten
// thousand shops: p50/p95 per kind of search (target p95 ≤ 100 ms, moonshot 30 ms), the EXPLAIN of
// each statement, and what the search indexes cost the order mirror's writes (with and without them).
// The database: bench/lib/big-shop.ts, made and dropped by bench/lib/measured-database.ts.
import type { Client } from "pg";
import { percentile } from "./lib/load";
import { stubServerOnly } from "./lib/server-only-stub";
import { BIG, KEYED, NOUNS, QUALITIES, bigShopArgs, cpfOf, firstNames, fold, pick, seedBigShop, surnames } from "./lib/big-shop";
import { measureInFreshDatabase } from "./lib/measured-database";
import { mirrorWrites, printWriteCost, WRITES_DESCRIBED } from "./lib/mirror-writes";
import type { PersonShop } from "@/lib/people/people.server";

const SIZE = bigShopArgs(100);
const { orders: ORDERS, runs: RUNS } = SIZE;
const BENCH_DATABASE = "bench_search";
const MEASURING = process.env.BENCH_SEARCH_MEASURE === "1";

type Kind = "name" | "tracking" | "reference" | "email" | "document" | "product" | "name, 12 shops";

function queryOf(kind: Kind): string {
  const n = 1 + Math.floor(Math.random() * ORDERS);
  switch (kind) {
    case "name":
    case "name, 12 shops":
      return fold(`${pick(firstNames)} ${pick(surnames)}`);
    case "tracking":
      return String((BigInt(n) * 7919n) % 1_000_000_000n)
        .padStart(9, "0")
        .slice(-6);
    case "reference":
      return `#${1000 + n}`;
    case "email":
    case "document": {
      const keyed = 1 + Math.floor(Math.random() * KEYED) * Math.floor(ORDERS / KEYED);
      return kind === "email" ? `cliente${keyed}@example.com` : cpfOf(keyed);
    }
    case "product": {
      const name = fold(`${pick(NOUNS)} ${pick(QUALITIES)}`);
      // One letter of the first word dropped: a typo.
      return name.slice(0, 3) + name.slice(4);
    }
  }
}

async function measure(): Promise<void> {
  stubServerOnly();
  const pg = (await import("pg")).default;
  const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  await seedBigShop(db, SIZE);
  const { searchShops } = await import("@/features/search/search.server");
  const { pool } = await import("@/lib/pg-pool.server");
  const shop = (id: string): PersonShop => ({ id, name: id, email: `${id}@bench.example`, role: "owner", connected: true });
  const one = [shop(BIG)];
  const twelve = [shop(BIG), ...Array.from({ length: 11 }, (_, index) => shop(`shop-${2 + index * 700}`))];

  // Every statement of a search once, with EXPLAIN: what pg sends is captured from the pool.
  const captured: { name: string; text: string; values: unknown[] }[] = [];
  const query = pool.query.bind(pool) as (config: unknown) => Promise<unknown>;
  (pool as unknown as { query: (config: unknown) => Promise<unknown> }).query = (config: unknown) => {
    const statement = config as { text: string; values?: unknown[] };
    const label = /^\/\* (search_\w+) \*\//.exec(statement.text)?.[1];
    if (label) captured.push({ name: label, text: statement.text, values: statement.values ?? [] });
    return query(config);
  };

  const kinds: Kind[] = ["name", "tracking", "reference", "email", "document", "product", "name, 12 shops"];
  // Warm: plans and caches, as a running dashboard has them.
  for (const kind of kinds) for (let run = 0; run < 5; run++) await searchShops(kind === "name, 12 shops" ? twelve : one, queryOf(kind));
  const all: number[] = [];
  console.log(`\nsearch, ${RUNS} runs per kind (the person's shops: ${BIG}, ${ORDERS.toLocaleString("en")} orders; or it and 11 others)`);
  for (const kind of kinds) {
    const times: number[] = [];
    let found = 0;
    for (let run = 0; run < RUNS; run++) {
      const text = queryOf(kind);
      const started = performance.now();
      const results = await searchShops(kind === "name, 12 shops" ? twelve : one, text);
      times.push(performance.now() - started);
      found += results.orders.length + results.products.length > 0 ? 1 : 0;
    }
    all.push(...times);
    const sorted = times.sort((a, b) => a - b);
    console.log(
      `  ${kind.padEnd(15)} p50 ${percentile(sorted, 50).toFixed(1).padStart(6)} ms  p95 ${percentile(sorted, 95).toFixed(1).padStart(6)} ms  max ${sorted.at(-1)!.toFixed(1).padStart(6)} ms  found something in ${found}/${RUNS}`,
    );
  }
  const sorted = all.sort((a, b) => a - b);
  console.log(
    `  every search     p50 ${percentile(sorted, 50).toFixed(1)} ms  p95 ${percentile(sorted, 95).toFixed(1)} ms   (target p95 ≤ 100 ms, moonshot 30 ms)`,
  );

  captured.length = 0;
  for (const kind of ["name", "tracking", "email", "product"] as const) await searchShops(one, queryOf(kind));
  console.log("\nEXPLAIN (ANALYZE, BUFFERS) of each statement, one search of each kind (a name, a tracking code, an e-mail, a product):");
  for (const statement of captured) {
    const plan = await db.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`, statement.values);
    const lines = plan.rows.map((row) => row["QUERY PLAN"]);
    console.log(`\n-- ${statement.name} (${JSON.stringify(statement.values.slice(1, 2))})`);
    console.log(lines.filter((line) => /Scan|Execution Time|Planning Time|Limit|Bitmap|Nested Loop|Hash Join|Sort/.test(line)).join("\n"));
  }

  await writeCost(db);
  await db.end();
  await pool.end();
}

/** The mirror's write (processing's and reconciliation's) with and without the search indexes. */
async function writeCost(db: Client) {
  const measure = mirrorWrites(SIZE);
  console.log(`\nthe mirror's write, ${WRITES_DESCRIBED}:`);
  const withIndexes = await measure();
  await db.query(`DROP INDEX "OrderMirror_search_customer", "OrderMirror_search_tracking", "OrderMirror_search_keys"`);
  printWriteCost("with the search indexes", withIndexes);
  printWriteCost("without them", await measure());
}

await (MEASURING ? measure() : measureInFreshDatabase(BENCH_DATABASE, "BENCH_SEARCH_MEASURE"));
