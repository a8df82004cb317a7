// npm run bench:search [-- --orders 1000000] [-- --shops 10000] [-- --runs 100]
// One search across a person's shops (issue 42) on a shop with a million mirrored orders among ten
// thousand shops: p50/p95 per kind of search (target p95 ≤ 100 ms, moonshot 30 ms), the EXPLAIN of
// each statement, and what the search indexes cost the order mirror's writes (with and without them).
// lib/env.js reads the environment once per process, so this process makes the database and a
// second one, with DATABASE_URL naming it, measures (as bench:access does).
import { spawn } from "node:child_process";
import { parseArgs } from "node:util";
import type { Client } from "pg";
import { percentile } from "./lib/load";
import { stubServerOnly } from "./lib/server-only-stub";
import { dropDatabase } from "@/prisma/pg-admin";
import type { OrderSummary } from "@marketplace/api/schemas/order";
import type { PersonShop } from "@/lib/people/people.server";

const { values: args } = parseArgs({
  options: {
    orders: { type: "string", default: "1000000" },
    shops: { type: "string", default: "10000" },
    runs: { type: "string", default: "100" },
  },
});
const ORDERS = Number(args.orders);
const SHOPS = Number(args.shops);
const RUNS = Number(args.runs);
const BENCH_DATABASE = "bench_search";
const MEASURING = process.env.BENCH_SEARCH_MEASURE === "1";
const BIG = "shop-1";
/** Customers given real search keys (keyed hashes are computed here, not in SQL). */
const KEYED = 1_000;

const FIRST = ["João", "José", "Maria", "Ana", "Antônio", "Francisco", "Luíza", "Márcia", "Sérgio", "Patrícia", "Lúcia", "Cláudio"];
const FIRST_MORE = ["Pedro", "Paulo", "Lucas", "Júlia", "Letícia", "Vinícius", "Fábio", "Débora", "Mônica", "Rafael", "Bruna", "Caio"];
const SURNAMES = [
  "Silva",
  "Santos",
  "Oliveira",
  "Souza",
  "Lima",
  "Pereira",
  "Conceição",
  "Araújo",
  "Gonçalves",
  "Ribeiro",
  "Gomes",
  "Brandão",
];
const SURNAMES_MORE = [
  "Melo",
  "Barbosa",
  "Cardoso",
  "Teixeira",
  "Rocha",
  "Dias",
  "Nascimento",
  "Andrade",
  "Moreira",
  "Nunes",
  "Simões",
  "Falcão",
];
const NOUNS = ["Camiseta", "Caneca", "Almofada", "Toalha", "Luminária", "Garrafa", "Mochila", "Relógio", "Chinelo", "Boné"];
const QUALITIES = ["Básica", "Térmica", "Decorativa", "Algodão", "Cerâmica", "Estampada", "Inox", "Bordada", "Clássica", "Macia"];
const COLOURS = ["Azul", "Vermelha", "Preta", "Branca", "Verde", "Amarela", "Cinza", "Lilás", "Marrom", "Rosa"];

const firstNames = [...FIRST, ...FIRST_MORE];
const surnames = [...SURNAMES, ...SURNAMES_MORE];
const fold = (text: string) =>
  text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase();
const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)]!;
const sqlArray = (items: readonly string[]) => `ARRAY[${items.map((item) => `'${item}'`).join(",")}]`;
const cpfOf = (n: number) => String(10_000_000_000 + n * 7).slice(-11);
const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);

async function seed(db: Client) {
  let started = performance.now();
  await db.query(
    `INSERT INTO "Seller" ("id", "email", "name", "updatedAt") SELECT 'shop-' || n, 'shop' || n || '@bench.example', 'Loja ' || n, now() FROM generate_series(1, $1::int) n`,
    [SHOPS],
  );
  // The big shop's orders, then ten for each other shop. Names: first name, two surnames; tracking
  // codes like the sandbox's; a reference per order; a year of dates.
  const orders = (shop: string, from: number, count: number) => `
    INSERT INTO "OrderMirror" ("sellerId", "orderId", "status", "createdAt", "updatedAt", "customerName", "total", "currency",
                               "normalizer", "itemCount", "deliveries", "syncedAt", "trackingNumbers", "customerKeys", "state")
    SELECT ${shop}, lpad(to_hex(n), 24, '0'), (ARRAY['new','approved','finished','cancelled'])[1 + n % 4],
           now() - (n % 365) * interval '1 day', now(), f[1 + n % array_length(f, 1)] || ' ' || s[1 + (n / 7) % array_length(s, 1)] || ' ' || s[1 + (n / 173) % array_length(s, 1)],
           1000 + (n * 37) % 90000, 'BRL', 100, 1, '[]', now(),
           (ARRAY['AA','OB','PN','QB'])[1 + n % 4] || lpad(((n::bigint * 7919) % 1000000000)::text, 9, '0') || 'BR',
           ARRAY[md5('e' || n), md5('d' || n)], (ARRAY['SP','RJ','MG','BA','PR','RS','PE','CE'])[1 + n % 8]
    FROM generate_series(${from}, ${from + count - 1}) n, (SELECT ${sqlArray(firstNames)} AS f, ${sqlArray(surnames)} AS s) names`;
  await db.query(orders(`'${BIG}'`, 1, ORDERS));
  await db.query(
    `INSERT INTO "OrderReference" ("sellerId", "orderId", "number") SELECT "sellerId", "orderId", 1000 + row_number() OVER (ORDER BY "orderId") FROM "OrderMirror" WHERE "sellerId" = '${BIG}'`,
  );
  console.log(`[seed] ${ORDERS.toLocaleString("en")} orders in ${BIG} with their references: ${seconds(started)} s`);
  started = performance.now();
  for (let shop = 2; shop <= SHOPS; shop += 1_000) {
    const last = Math.min(SHOPS, shop + 999);
    await db.query(`${orders(`'shop-' || (2 + (n - ${ORDERS + 1}) / 10)`, ORDERS + 1 + (shop - 2) * 10, (last - shop + 1) * 10)}`);
  }
  console.log(`[seed] ${((SHOPS - 1) * 10).toLocaleString("en")} orders in the other ${SHOPS - 1} shops: ${seconds(started)} s`);
  await db.query(
    `INSERT INTO "ProductName" ("sellerId", "sku", "name", "source", "namedAt")
     SELECT '${BIG}', 'SKU-' || lpad(n::text, 5, '0'),
            (${sqlArray(NOUNS)})[1 + n % 10] || ' ' || (${sqlArray(QUALITIES)})[1 + (n / 10) % 10] || ' ' || (${sqlArray(COLOURS)})[1 + (n / 100) % 10] || ' ' || n,
            'order', now()
     FROM generate_series(1, 5000) n`,
  );
  // Real keys for some customers, as the mirror writes them.
  const { customerKeysOf } = await import("@/lib/search/customer-keys.server");
  const keyed = Array.from({ length: KEYED }, (_, index) => {
    const n = 1 + index * Math.floor(ORDERS / KEYED);
    return {
      orderId: n.toString(16).padStart(24, "0"),
      keys: customerKeysOf({ email: `cliente${n}@example.com`, document_number: cpfOf(n) }),
    };
  });
  await db.query(
    `UPDATE "OrderMirror" m SET "customerKeys" = k."keys" FROM json_to_recordset($1::json) AS k("orderId" text, "keys" text[])
     WHERE m."sellerId" = '${BIG}' AND m."orderId" = k."orderId"`,
    [JSON.stringify(keyed)],
  );
  started = performance.now();
  await db.query(`VACUUM ANALYZE "OrderMirror", "OrderReference", "ProductName", "Seller"`);
  console.log(`[seed] VACUUM ANALYZE: ${seconds(started)} s`);
}

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
  await seed(db);
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
  const { upsertShopsMirrorOrders } = await import("@/lib/orders/order-mirror.server");
  let next = ORDERS + SHOPS * 10 + 1;
  const order = (): OrderSummary => {
    const n = next++;
    const at = new Date().toISOString();
    const money = { currency: "BRL", normalizer: 100 };
    return {
      id: n.toString(16).padStart(24, "0"),
      status: "approved",
      created_at: at,
      approved_at: at,
      updated_at: at,
      customer: { name: `${pick(firstNames)} ${pick(surnames)} ${pick(surnames)}`, email: `c${n}@example.com`, document_number: cpfOf(n) },
      amounts: {
        ...money,
        total: 12_345,
        freight: { ...money, total: 1500, shared: 0 },
        comission: { ...money, type: "value", total: 1800 },
      },
      deliveries: [
        {
          id: (n + 1).toString(16).padStart(24, "0"),
          status: "created",
          items: [{ quantity: 1, info: { sku: `SKU-${n % 5000}`, name: "Camiseta Básica Azul" } }],
          shipping: {
            handling_time: { limit_date: at },
            tracking: { number: `AA${String(n).padStart(9, "0")}BR` },
            recipient: { address: { state: "SP" } },
          },
        },
      ],
    } as OrderSummary;
  };
  const batch = () => {
    const shops = new Map<string, OrderSummary[]>();
    for (let index = 0; index < 500; index++) {
      const id = `shop-${2 + Math.floor(Math.random() * (SHOPS - 1))}`;
      shops.set(id, [...(shops.get(id) ?? []), order()]);
    }
    return [...shops].map(([sellerId, orders]) => ({ sellerId, orders }));
  };
  const round = async () => {
    for (let warm = 0; warm < 3; warm++) await upsertShopsMirrorOrders(batch(), { tellNew: true });
    const times: number[] = [];
    for (let run = 0; run < 30; run++) {
      const given = batch();
      const started = performance.now();
      await upsertShopsMirrorOrders(given, { tellNew: true });
      times.push(performance.now() - started);
    }
    return times.sort((a, b) => a - b);
  };
  console.log("\nthe mirror's write, 30 batches of 500 new orders across the small shops (as processing writes them):");
  const withIndexes = await round();
  await db.query(`DROP INDEX "OrderMirror_search_customer", "OrderMirror_search_tracking", "OrderMirror_search_keys"`);
  const without = await round();
  const line = (label: string, times: number[]) =>
    console.log(
      `  ${label.padEnd(28)} per batch p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms; ${((percentile(times, 50) / 500) * 1000).toFixed(0)} µs per order`,
    );
  line("with the search indexes", withIndexes);
  line("without them", without);
}

async function main(): Promise<void> {
  const started = performance.now();
  const { migrateFreshDatabase } = await import("@/scripts/migrate");
  const url = await migrateFreshDatabase(BENCH_DATABASE);
  try {
    const child = spawn(process.execPath, [...process.execArgv, process.argv[1] ?? "", ...process.argv.slice(2)], {
      env: { ...process.env, DATABASE_URL: url, BENCH_SEARCH_MEASURE: "1" },
      stdio: "inherit",
    });
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once("error", reject);
      child.once("exit", resolve);
    });
    if (code !== 0) throw new Error(`the measuring process ended with exit code ${code}`);
  } finally {
    await dropDatabase(url);
  }
  console.log(`\nwhole run ${seconds(started)} s; database ${BENCH_DATABASE} dropped`);
}

await (MEASURING ? measure() : main());
