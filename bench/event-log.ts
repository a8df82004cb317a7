// npm run bench:event-log [-- --events 5000000] [-- --shops 10000] [-- --big-share 0.01]
//                         [-- --runs 30] [-- --prune-days 1] [-- --receiver-rate 200] [-- --skip-index-build]
//                         [-- --keep]
// The event log at scale, in five phases on a database of its own (bench/README.md). The app's
// modules read DATABASE_URL once, when first imported, so the measuring runs in a child process
// started with DATABASE_URL naming the bench database; the calling process only migrates and drops it.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import type pg from "pg";
import { percentile } from "./lib/load";
import { stubServerOnly } from "./lib/server-only-stub";

export interface EventLogBenchOptions {
  /** Events generated (default 5,000,000). */
  events?: number;
  /** Ordinary shops (default 10,000), besides the big one. */
  shops?: number;
  /** The big shop's share of all events (default 0.01). */
  bigShare?: number;
  /** Timed calls per query, after a warm-up (default 30). */
  runs?: number;
  /** Days' worth of events pruned (default 1): at a smaller --events, more days make as many rows. */
  pruneDays?: number;
  /** Events per second the receiver loop stores while pruning (default 200). */
  receiverRate?: number;
  /** Skips rebuilding the migration's indexes (phase 5). */
  skipIndexBuild?: boolean;
  /** Keeps the database afterwards (default: dropped). */
  keep?: boolean;
  /** The bench database's name (default bench_event_log). */
  database?: string;
}

export interface QueryFigure {
  name: string;
  /** What the case calls, as the app calls it. */
  call: string;
  rows: number | null;
  firstMs: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  targetMs: number | null;
  /** Per SQL statement the call sent: its text and the top of its plan. */
  statements: { sql: string; plan: string[] }[];
}

export interface LatencyFigure {
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface EventLogBenchResult {
  events: number;
  shops: number;
  bigShopEvents: number;
  orders: number;
  generationSeconds: number;
  queries: QueryFigure[];
  pruning: {
    days: number;
    deleted: number;
    statements: number;
    batch: number;
    totalMs: number;
    maxStatementMs: number;
    plan: string[];
    receiverBefore: LatencyFigure;
    receiverDuring: LatencyFigure;
  };
  size: {
    heapBytes: number;
    toastBytes: number;
    indexBytes: number;
    eventTotalBytes: number;
    workTotalBytes: number;
    workRows: number;
    /** Sum of the live rows' own sizes (pg_column_size), against the heap: what fillfactor and page overhead add. */
    liveRowBytes: number;
    indexes: { name: string; bytes: number }[];
    perMillion: { heap: number; toast: number; indexes: number; eventTotal: number; work: number; total: number };
  };
  indexBuild: { statement: string; ms: number }[] | null;
  indexBuildReceiver: LatencyFigure | null;
}

const DEFAULTS = {
  events: 5_000_000,
  shops: 10_000,
  bigShare: 0.01,
  runs: 30,
  pruneDays: 1,
  receiverRate: 200,
  skipIndexBuild: false,
  keep: false,
  database: "bench_event_log",
} satisfies Required<EventLogBenchOptions>;

const HERE = fileURLToPath(import.meta.url);
const ROOT = path.resolve(path.dirname(HERE), "..");
const CHILD_OPTIONS = "BENCH_EVENT_LOG_CHILD";
const CHILD_RESULT = "BENCH_EVENT_LOG_RESULT";
const MIGRATION_SUFFIX = "_event_log_at_scale";

const PAGE_TARGET_MS = 100;
const OVERVIEW_TARGET_MS = 50;
const WARM_UP_RUNS = 3;
/** The events are spread over this many days; pruning keeps one day fewer, so one day goes. */
const SPREAD_DAYS = 100;
/** Rows per generating statement: progress shows, and no statement holds gigabytes of WAL. */
const CHUNK = 250_000;
/** Events per order in the mirror (new, approved, deliveries, finished...). */
const EVENTS_PER_ORDER = 5;
const TIME_ZONE = "America/Sao_Paulo";

/** Seller ids look like cuids (25 characters); shop 0 is the big one. */
const shopId = (shop: number) => `cbench${String(shop).padStart(19, "0")}`;

// ---------------------------------------------------------------------------------------------
// The calling process: the database around the measuring child

/** Runs every phase on a fresh database; answers the figures. Prints as it goes. */
export async function runEventLogBench(options: EventLogBenchOptions = {}): Promise<EventLogBenchResult> {
  const settings = { ...DEFAULTS, ...options };
  checkOptions(settings);
  const { migrateFreshDatabase } = await import("@/scripts/migrate");
  const { databaseUrl, dropDatabase } = await import("@/scripts/lib/database");
  const started = performance.now();
  const url = await migrateFreshDatabase(settings.database);
  console.log(`[event-log] database ${settings.database} migrated in ${seconds(performance.now() - started)} s`);
  const resultFile = path.join(os.tmpdir(), `bench-event-log-${randomUUID()}.json`);
  // Ctrl-C reaches the child too: this process waits for it to end, then drops the database.
  const ignore = () => {};
  process.on("SIGINT", ignore);
  process.on("SIGTERM", ignore);
  try {
    const child = spawn(process.execPath, ["--import", "tsx", HERE], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url, [CHILD_OPTIONS]: JSON.stringify(settings), [CHILD_RESULT]: resultFile },
      stdio: "inherit",
    });
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
      child.once("error", reject);
      child.once("exit", (exitCode, exitSignal) => resolve([exitCode, exitSignal]));
    });
    if (code !== 0) throw new Error(`the measuring process ended with ${signal ?? `exit code ${code}`}`);
    return JSON.parse(readFileSync(resultFile, "utf8")) as EventLogBenchResult;
  } finally {
    rmSync(resultFile, { force: true });
    if (settings.keep) console.log(`[event-log] database kept: ${databaseUrl(settings.database).replace(/:[^:@/]*@/, ":***@")}`);
    else await dropDatabase(url);
    process.off("SIGINT", ignore);
    process.off("SIGTERM", ignore);
  }
}

function checkOptions(settings: Required<EventLogBenchOptions>) {
  const whole = (name: string, value: number, min: number) => {
    if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number ≥ ${min}, not ${value}`);
  };
  whole("--events", settings.events, 1_000);
  whole("--shops", settings.shops, 1);
  whole("--runs", settings.runs, 1);
  whole("--prune-days", settings.pruneDays, 1);
  if (settings.pruneDays >= SPREAD_DAYS) throw new Error(`--prune-days must be below ${SPREAD_DAYS}`);
  if (!(settings.bigShare > 0 && settings.bigShare < 0.5))
    throw new Error(`--big-share must be between 0 and 0.5, not ${settings.bigShare}`);
  if (!(settings.receiverRate > 0 && settings.receiverRate <= 2_000))
    throw new Error(`--receiver-rate must be between 0 and 2000, not ${settings.receiverRate}`);
}

// ---------------------------------------------------------------------------------------------
// Figures

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const fixed = (value: number, digits = 1) => value.toFixed(digits);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const count = (value: number) => value.toLocaleString("en");

function latency(values: readonly number[]): LatencyFigure {
  const sorted = [...values].sort((a, b) => a - b);
  return { count: sorted.length, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), maxMs: sorted.at(-1) ?? Number.NaN };
}

const latencyText = (figure: LatencyFigure) =>
  `${count(figure.count)} inserts, p50 ${fixed(figure.p50Ms)} ms, p99 ${fixed(figure.p99Ms)} ms, max ${fixed(figure.maxMs)} ms`;

// ---------------------------------------------------------------------------------------------
// The measuring child

interface Captured {
  text: string;
  values: unknown[];
}

async function measure(settings: Required<EventLogBenchOptions>): Promise<EventLogBenchResult> {
  stubServerOnly();
  const pgModule = (await import("pg")).default;
  const url = process.env.DATABASE_URL!;
  const connect = async (extra: string[] = []) => {
    const client = new pgModule.Client({
      connectionString: url,
      options: ["-c timezone=UTC", ...extra].join(" "),
      application_name: "bench-event-log",
    });
    await client.connect();
    return client;
  };
  // Generation may use memory and skip waiting for each commit's flush; EXPLAIN runs with the
  // server's defaults, as the app's sessions do.
  const admin = await connect(["-c maintenance_work_mem=512MB", "-c synchronous_commit=off"]);
  const explainer = await connect();

  // Every statement the app's clients send, while a case is being captured.
  let capture: Captured[] | null = null;
  const ownClients = new Set<unknown>([admin, explainer]);
  const query = pgModule.Client.prototype.query as (...args: unknown[]) => unknown;
  pgModule.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    if (capture && !ownClients.has(this)) {
      const [first, second] = args;
      if (typeof first === "string") capture.push({ text: first, values: Array.isArray(second) ? second : [] });
      else if (first && typeof first === "object" && "text" in first) {
        const config = first as { text: string; values?: unknown[] };
        capture.push({ text: config.text, values: config.values ?? (Array.isArray(second) ? second : []) });
      }
    }
    return query.apply(this, args);
  } as typeof pgModule.Client.prototype.query;

  const generation = await generate(admin, settings);

  const { db } = await import("@/lib/db.server");
  const { pool, receiverPool } = await import("@/lib/pg-pool.server");
  try {
    const queries = await measureQueries(settings, generation, explainer, (list) => (capture = list));
    capture = null;
    const size = await measureSize(admin, settings.events);
    const pruning = await measurePruning(settings, admin, explainer, (list) => (capture = list));
    capture = null;
    const indexBuild = settings.skipIndexBuild ? null : await measureIndexBuild(settings, admin);
    return {
      events: settings.events,
      shops: settings.shops,
      bigShopEvents: generation.bigShopEvents,
      orders: generation.orders,
      generationSeconds: generation.seconds,
      queries,
      pruning,
      size,
      indexBuild: indexBuild?.statements ?? null,
      indexBuildReceiver: indexBuild?.receiver ?? null,
    };
  } finally {
    await db.$disconnect();
    await Promise.all([pool.end(), receiverPool.end(), admin.end(), explainer.end()]);
  }
}

interface Generation {
  seconds: number;
  bigShopEvents: number;
  orders: number;
  ordersPerSmallShop: number;
  ordersPerBigShop: number;
}

async function generate(admin: pg.Client, settings: Required<EventLogBenchOptions>): Promise<Generation> {
  const started = performance.now();
  const n = settings.events;
  const shops = settings.shops;
  const expectedBig = Math.round(n * settings.bigShare);
  const ordersPerBigShop = Math.max(1, Math.floor(expectedBig / EVENTS_PER_ORDER));
  const ordersPerSmallShop = Math.max(1, Math.floor((n - expectedBig) / shops / EVENTS_PER_ORDER));
  console.log(
    `[event-log] generating ${count(n)} events for ${count(shops)} shops + 1 big shop (${fixed(settings.bigShare * 100)} %), ` +
      `${SPREAD_DAYS} days, in statements of ${count(CHUNK)}`,
  );

  await admin.query(
    `INSERT INTO "Seller" ("id", "email", "name", "updatedAt")
     SELECT 'cbench' || lpad(k::text, 19, '0'), 'bench-shop-' || k || '@example.com', 'Bench shop ' || k, now() AT TIME ZONE 'UTC'
     FROM generate_series(0, $1::int) AS k`,
    [shops],
  );

  // One instant for the whole run, so the spread is exactly SPREAD_DAYS up to it.
  const { rows } = await admin.query<{ now: string }>(`SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS now`);
  const now = rows[0]!.now;
  for (let from = 0; from < n; from += CHUNK) {
    const to = Math.min(n, from + CHUNK) - 1;
    const chunkStarted = performance.now();
    await admin.query(GENERATE_EVENTS, [from, to, n, shops, settings.bigShare, ordersPerBigShop, ordersPerSmallShop, now, SPREAD_DAYS]);
    console.log(`[event-log]   events ${count(to + 1)} / ${count(n)} (${seconds(performance.now() - chunkStarted)} s)`);
  }
  const ordersStarted = performance.now();
  const orders = await admin.query(GENERATE_ORDERS, [shops, ordersPerBigShop, ordersPerSmallShop, now, SPREAD_DAYS]);
  console.log(`[event-log]   ${count(orders.rowCount ?? 0)} mirrored orders (${seconds(performance.now() - ordersStarted)} s)`);
  const vacuumStarted = performance.now();
  await admin.query(`VACUUM (ANALYZE) "WebhookEvent", "WebhookWork", "OrderMirror", "Seller"`);
  console.log(`[event-log]   VACUUM ANALYZE (${seconds(performance.now() - vacuumStarted)} s)`);
  const big = await admin.query<{ n: number }>(`SELECT COUNT(*)::int AS n FROM "WebhookEvent" WHERE "sellerId" = $1`, [shopId(0)]);
  const ms = performance.now() - started;
  console.log(`[event-log] generated in ${seconds(ms)} s; the big shop has ${count(big.rows[0]!.n)} events\n`);
  return { seconds: ms / 1000, bigShopEvents: big.rows[0]!.n, orders: orders.rowCount ?? 0, ordersPerBigShop, ordersPerSmallShop };
}

/**
 * One chunk of events, i from $1 to $2 of $3. Every random choice is a hash of i (hashint8extended
 * with a seed per choice), so a run is reproducible and chunks need no shared state. Each step
 * ends in OFFSET 0: a step the planner inlines is evaluated again in every expression that uses
 * it, and the body and its hash were then computed many times per row.
 */
const GENERATE_EVENTS = `
  WITH params AS (
    SELECT $3::bigint AS n, $4::int AS shops, $5::float8 AS big_share, $6::int AS big_orders, $7::int AS small_orders,
           $8::timestamp AS now_utc, $9::int AS days
  ),
  ev AS (
    SELECT g.i, s.shop, t.source, t.received_at, d.domain, x.status, x.is_order, ids.order_id, ids.delivery_id,
           ids.resource_id, ids.code, st.state, b.body, encode(sha256(convert_to(b.body, 'UTF8')), 'hex') AS body_hash, u.u_dup
    FROM params p
    CROSS JOIN generate_series($1::bigint, $2::bigint) AS g(i)
    CROSS JOIN LATERAL (
      SELECT (hashint8extended(g.i, 1) & 2147483647) / 2147483648.0 AS u_big,
             (hashint8extended(g.i, 2) & 2147483647) / 2147483648.0 AS u_shop,
             (hashint8extended(g.i, 3) & 2147483647) / 2147483648.0 AS u_source,
             (hashint8extended(g.i, 4) & 2147483647) / 2147483648.0 AS u_domain,
             (hashint8extended(g.i, 5) & 2147483647) / 2147483648.0 AS u_status,
             (hashint8extended(g.i, 6) & 2147483647) / 2147483648.0 AS u_item,
             (hashint8extended(g.i, 7) & 2147483647) / 2147483648.0 AS u_state,
             (hashint8extended(g.i, 8) & 2147483647) / 2147483648.0 AS u_dup,
             (hashint8extended(g.i, 9) & 2147483647) / 2147483648.0 AS u_jitter
      OFFSET 0
    ) AS u
    CROSS JOIN LATERAL (SELECT CASE WHEN u.u_big < p.big_share THEN 0 ELSE 1 + floor(u.u_shop * p.shops)::int END AS shop OFFSET 0) AS s
    CROSS JOIN LATERAL (
      SELECT CASE WHEN u.u_source < 0.03 THEN 'reconciliation' ELSE 'webhook' END AS source,
             (p.now_utc - make_interval(days => p.days) + ((g.i + u.u_jitter) / p.n) * make_interval(days => p.days))::timestamp(3) AS received_at
      OFFSET 0
    ) AS t
    CROSS JOIN LATERAL (
      SELECT CASE WHEN t.source = 'reconciliation' OR u.u_domain < 0.30 THEN 'order.order'
                  WHEN u.u_domain < 0.50 THEN 'order.delivery'
                  WHEN u.u_domain < 0.58 THEN 'order.shipping'
                  WHEN u.u_domain < 0.76 THEN 'portfolio.price'
                  WHEN u.u_domain < 0.88 THEN 'portfolio.inventory'
                  WHEN u.u_domain < 0.93 THEN 'portfolio.ad'
                  WHEN u.u_domain < 0.96 THEN 'portfolio.sku'
                  WHEN u.u_domain < 0.98 THEN 'chat'
                  ELSE 'ticket' END AS domain
      OFFSET 0
    ) AS d
    CROSS JOIN LATERAL (
      SELECT CASE d.domain
               WHEN 'order.order' THEN ARRAY['new', 'approved', 'cancelled', 'finished']
               WHEN 'order.delivery' THEN ARRAY['created', 'received', 'posted', 'delivered']
               WHEN 'order.shipping' THEN ARRAY['shipped', 'delivered']
               WHEN 'portfolio.sku' THEN ARRAY['created']
               WHEN 'portfolio.ad' THEN ARRAY['created', 'updated', 'highlighted']
               WHEN 'portfolio.price' THEN ARRAY['created', 'updated']
               WHEN 'portfolio.inventory' THEN ARRAY['created', 'updated', 'increased', 'decreased']
               WHEN 'chat' THEN ARRAY['new_conversation', 'message_received']
               ELSE ARRAY['opened', 'closed', 'updated'] END AS statuses
      OFFSET 0
    ) AS sa
    CROSS JOIN LATERAL (
      SELECT sa.statuses[1 + floor(u.u_status * cardinality(sa.statuses))::int] AS status,
             d.domain LIKE 'order.%' AS is_order,
             floor(u.u_item * CASE WHEN s.shop = 0 THEN p.big_orders ELSE p.small_orders END)::int AS item
      OFFSET 0
    ) AS x
    CROSS JOIN LATERAL (
      SELECT CASE WHEN x.is_order THEN 'ORD-' || s.shop || '-' || x.item END AS order_id,
             CASE WHEN d.domain = 'order.delivery' AND t.source = 'webhook' THEN 'DLV-' || s.shop || '-' || x.item || '-1' END AS delivery_id,
             CASE WHEN x.is_order THEN NULL
                  WHEN d.domain LIKE 'portfolio.%' THEN 'SKU-' || s.shop || '-' || (x.item % 200)
                  ELSE upper(to_hex(s.shop * 100000 + x.item)) END AS code
      OFFSET 0
    ) AS ids0
    CROSS JOIN LATERAL (
      SELECT ids0.order_id, ids0.delivery_id, ids0.code,
             CASE WHEN x.is_order THEN coalesce(ids0.delivery_id, ids0.order_id)
                  ELSE substr(md5(d.domain || ':' || s.shop || ':' || x.item), 1, 24) END AS resource_id
      OFFSET 0
    ) AS ids
    CROSS JOIN LATERAL (
      SELECT CASE WHEN t.source = 'reconciliation' THEN 'processed'
                  WHEN u.u_state < 0.004 THEN 'skipped'
                  WHEN u.u_state < 0.0045 THEN 'dead'
                  WHEN u.u_state < 0.006 AND t.received_at > p.now_utc - interval '1 day' THEN 'retrying'
                  WHEN g.i >= p.n - 20 THEN 'pending'
                  ELSE 'processed' END AS state
      OFFSET 0
    ) AS st
    CROSS JOIN LATERAL (
      SELECT CASE WHEN t.source = 'reconciliation' THEN
               '{"data":{"domain":"order.order","status":"' || x.status || '","order_id":"' || ids.order_id || '"},"updated_at":"'
               || to_char(t.received_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"}'
             ELSE
               '{"data":{"domain":"' || d.domain || '","status":"' || x.status || '",'
               || CASE WHEN x.is_order THEN '"order_id":"' || ids.order_id || '"' || coalesce(',"delivery_id":"' || ids.delivery_id || '"', '')
                       ELSE '"id":"' || ids.resource_id || '","code":"' || ids.code || '"' END
               || '},"seller":{"id":' || (7000000 + s.shop) || ',"nickname":"bench-shop-' || s.shop || '"},"event_time":"'
               || to_char(t.received_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '","environment":"production","api_version":"1.4",'
               || '"notification":{"channel":"webhook","attempt":1,"topic":"' || d.domain || '.' || x.status || '","id":"' || md5(g.i::text) || '"}}'
             END AS body
      OFFSET 0
    ) AS b
    OFFSET 0
  ),
  inserted AS (
    INSERT INTO "WebhookEvent" ("id", "sellerId", "source", "receivedAt", "lastReceivedAt", "domain", "status", "resourceId", "code",
      "orderId", "deliveryId", "rawBody", "bodyHash", "headers", "signatureResult", "valid", "invalidReason",
      "processingState", "processingError", "processedAt", "attempts", "duplicateCount")
    SELECT gen_random_uuid()::text, 'cbench' || lpad(ev.shop::text, 19, '0'), ev.source, ev.received_at, ev.received_at, ev.domain, ev.status,
           ev.resource_id, ev.code, ev.order_id, ev.delivery_id, ev.body, ev.body_hash,
           CASE WHEN ev.source = 'reconciliation' THEN '{}' ELSE
             '{"content-type":"application/json","content-length":"' || octet_length(ev.body) || '","user-agent":"Marketplace-Notifier/2.3",'
             || '"x-svc-signature":"' || encode(decode(ev.body_hash, 'hex'), 'base64') || '","x-request-id":"' || gen_random_uuid() || '"}' END,
           CASE WHEN ev.source = 'reconciliation' THEN 'none' ELSE 'valid' END,
           ev.state <> 'skipped',
           CASE WHEN ev.state = 'skipped' THEN 'Status "' || ev.status || '" is not one of ' || ev.domain || '''s' END,
           ev.state,
           CASE WHEN ev.state IN ('dead', 'retrying') THEN 'The platform answered 503 Service Unavailable' END,
           CASE WHEN ev.state <> 'pending' THEN ev.received_at + interval '80 milliseconds' END,
           CASE ev.state WHEN 'dead' THEN 8 WHEN 'retrying' THEN 3 WHEN 'pending' THEN 0 ELSE 1 END,
           CASE WHEN ev.u_dup < 0.01 THEN 1 ELSE 0 END
    FROM ev
    ORDER BY ev.i
    RETURNING "id", "sellerId", "bodyHash", "processingState"
  )
  INSERT INTO "WebhookWork" ("eventId", "sellerId", "waitingHash", "claimedBy", "availableAt")
  SELECT "id", "sellerId", CASE WHEN "processingState" = 'pending' THEN "bodyHash" END, NULL, CASE "processingState" WHEN 'dead' THEN TIMESTAMP '9999-12-31 00:00:00'
                                            WHEN 'retrying' THEN (SELECT now_utc FROM params) + interval '10 minutes'
                                            ELSE (SELECT now_utc FROM params) END
  FROM inserted WHERE "processingState" IN ('dead', 'retrying', 'pending')`;

/**
 * The order mirror: every shop's orders, with the ids its events name; the last days still open.
 * Written in time order, so a shop's orders lie scattered among the others' as the mirror fills up.
 */
const GENERATE_ORDERS = `
  INSERT INTO "OrderMirror" ("sellerId", "orderId", "status", "createdAt", "updatedAt", "approvedAt", "customerName", "total",
    "currency", "normalizer", "itemCount", "deliveries", "nextLimitAt", "syncedAt")
  SELECT 'cbench' || lpad(k::text, 19, '0'), 'ORD-' || k || '-' || o, st.status, c.created_at, c.created_at + interval '2 hours',
         CASE WHEN st.status <> 'new' THEN c.created_at + interval '1 hour' END, 'Cliente ' || o, 1000 + (c.h % 90000), 'BRL', 100, 1 + (c.h % 3),
         CASE WHEN st.status = 'approved'
              THEN jsonb_build_array(jsonb_build_object('id', 'DLV-' || k || '-' || o || '-1', 'status', 'created',
                                                        'limitDate', to_char(c.created_at + interval '3 days', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))
              ELSE '[]'::jsonb END,
         CASE WHEN st.status = 'approved' THEN c.created_at + interval '3 days' END,
         $4::timestamp
  FROM generate_series(0, $1::int) AS k
  CROSS JOIN LATERAL generate_series(0, CASE WHEN k = 0 THEN $2::int ELSE $3::int END - 1) AS o
  CROSS JOIN LATERAL (
    SELECT hashint8extended(k::bigint * 10000000 + o, 21) & 2147483647 AS h,
           ($4::timestamp - make_interval(days => $5::int) * ((hashint8extended(k::bigint * 10000000 + o, 22) & 2147483647) / 2147483648.0))::timestamp(3) AS created_at
  ) AS c
  CROSS JOIN LATERAL (
    SELECT CASE WHEN c.created_at > $4::timestamp - interval '2 days' THEN (CASE WHEN c.h % 10 < 3 THEN 'new' ELSE 'approved' END)
                WHEN c.h % 100 < 10 THEN 'cancelled'
                WHEN c.h % 100 < 13 THEN 'approved'
                ELSE 'finished' END AS status
  ) AS st
  ORDER BY c.created_at`;

// --- Queries ---------------------------------------------------------------------------------

interface QueryCase {
  name: string;
  call: string;
  targetMs: number | null;
  run: () => Promise<number | null>;
}

async function measureQueries(
  settings: Required<EventLogBenchOptions>,
  generation: Generation,
  explainer: pg.Client,
  setCapture: (list: Captured[] | null) => void,
): Promise<QueryFigure[]> {
  const { listWebhookEvents, recentWebhookEvents } = await import("@/features/webhooks/events/webhook-events.server");
  const { eventsSchema } = await import("@/features/webhooks/events/event-filters");
  const { getOverview } = await import("@/features/overview/overview.server");
  const { getConnectionHealth } = await import("@/features/webhooks/connection-health.server");

  const big = shopId(0);
  const small = shopId(1);
  const size = 25;
  const lastPage = Math.max(1, Math.ceil(generation.bigShopEvents / size));
  // The big shop's latest order and SKU code, as a seller would look them up from a recent event,
  // and a day a month ago (local wall time, as the filter's datetime-local inputs send it).
  const latest = async (column: "orderId" | "code") =>
    (
      await explainer.query<{ value: string }>(
        `SELECT "${column}" AS value FROM "WebhookEvent" WHERE "sellerId" = $1 AND "${column}" IS NOT NULL ORDER BY "receivedAt" DESC LIMIT 1`,
        [big],
      )
    ).rows[0]?.value ?? "none";
  const [orderId, code] = [await latest("orderId"), await latest("code")];
  const dayAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 16);
  const page = (shopId: string, query: string) => async () => {
    const parsed = eventsSchema.parse(new URLSearchParams(query));
    if (!parsed.success) throw new Error(`?${query}: ${parsed.error.message}`);
    return (await listWebhookEvents(shopId, parsed.data)).rows.length;
  };
  const pageCase = (name: string, shopId: string, query: string): QueryCase => ({
    name,
    call: `listWebhookEvents(${shopId === big ? "big" : "small"}, ?${query})`,
    targetMs: PAGE_TARGET_MS,
    run: page(shopId, query),
  });
  const cases: QueryCase[] = [
    pageCase("event log: first page", big, ""),
    pageCase("event log: first page, 100 rows", big, "size=100"),
    pageCase("event log: page 20", big, "page=20"),
    pageCase("event log: last page", big, `page=${lastPage}`),
    pageCase("filter: domain", big, "domain=order.delivery"),
    pageCase("filter: domain, later page", big, "domain=order.delivery&page=50"),
    pageCase("filter: status", big, "status=approved"),
    pageCase("filter: domain + status", big, "domain=order.delivery&status=delivered"),
    pageCase("filter: processing dead", big, "processing=dead"),
    pageCase("filter: processing retrying", big, "processing=retrying"),
    pageCase("filter: processing processed", big, "processing=processed"),
    pageCase("filter: resource (an order id)", big, `resource=${orderId}`),
    pageCase("filter: resource (a SKU code)", big, `resource=${code}`),
    pageCase("filter: resource, nothing matches", big, "resource=no-such-resource"),
    pageCase("filter: resource + processed", big, `resource=${orderId}&processing=processed`),
    pageCase("filter: one day a month ago", big, `from=${dayAgo(30)}&to=${dayAgo(29)}`),
    pageCase("filter: the last 7 days", big, `from=${dayAgo(7)}`),
    pageCase("filter: domain + one day", big, `domain=order.order&from=${dayAgo(30)}&to=${dayAgo(29)}`),
    pageCase("event log: first page, a small shop", small, ""),
    {
      name: "Webhooks page: counts (getConnectionHealth)",
      call: "getConnectionHealth(big)",
      targetMs: PAGE_TARGET_MS,
      run: async () => {
        await getConnectionHealth(big);
        return null;
      },
    },
    {
      name: "overview: getOverview",
      call: "getOverview(big)",
      targetMs: OVERVIEW_TARGET_MS,
      run: async () => (await getOverview(big, TIME_ZONE)).daily.length,
    },
    {
      name: "overview: recent events",
      call: "recentWebhookEvents(big, 5)",
      targetMs: OVERVIEW_TARGET_MS,
      run: async () => (await recentWebhookEvents(big, 5)).length,
    },
    {
      name: "overview page: all three together",
      call: "getOverview + recentWebhookEvents + getConnectionHealth (big)",
      targetMs: OVERVIEW_TARGET_MS,
      run: async () => {
        await Promise.all([getOverview(big, TIME_ZONE), recentWebhookEvents(big, 5), getConnectionHealth(big)]);
        return null;
      },
    },
  ];

  const figures: QueryFigure[] = [];
  for (const item of cases) {
    // The first call, captured: its statements are then explained one by one.
    const captured: Captured[] = [];
    setCapture(captured);
    const firstStarted = performance.now();
    const rows = await item.run();
    const firstMs = performance.now() - firstStarted;
    setCapture(null);
    const statements = [];
    for (const statement of captured) statements.push({ sql: oneLine(statement.text), plan: await explain(explainer, statement) });
    for (let index = 0; index < WARM_UP_RUNS; index++) await item.run();
    const times: number[] = [];
    for (let index = 0; index < settings.runs; index++) {
      const started = performance.now();
      await item.run();
      times.push(performance.now() - started);
    }
    const sorted = times.sort((a, b) => a - b);
    const figure: QueryFigure = {
      name: item.name,
      call: item.call,
      rows,
      firstMs,
      p50Ms: percentile(sorted, 50),
      p95Ms: percentile(sorted, 95),
      maxMs: sorted.at(-1)!,
      targetMs: item.targetMs,
      statements,
    };
    figures.push(figure);
    printQuery(figure);
  }
  return figures;
}

const oneLine = (sql: string) => sql.replace(/\s+/g, " ").trim();

/** EXPLAIN (ANALYZE, BUFFERS) of a captured statement with its own parameters: the plan's top lines. */
async function explain(client: pg.Client, statement: Captured, options: { rollback?: boolean; lines?: number } = {}): Promise<string[]> {
  if (options.rollback) await client.query("BEGIN");
  try {
    const result = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`, statement.values);
    const lines = result.rows.map((row) => row["QUERY PLAN"]);
    const top = lines.filter((line) => !/^\s*(Planning:|Buffers: shared hit=\d+$)/.test(line)).slice(0, options.lines ?? 10);
    const timing = lines.filter((line) => /^(Planning|Execution) Time/.test(line));
    return [...top.filter((line) => !timing.includes(line)), ...timing];
  } finally {
    if (options.rollback) await client.query("ROLLBACK");
  }
}

function printQuery(figure: QueryFigure) {
  const verdict =
    figure.targetMs === null
      ? ""
      : figure.p95Ms <= figure.targetMs
        ? `  (target ≤ ${figure.targetMs} ms: met)`
        : `  (target ≤ ${figure.targetMs} ms: MISSED)`;
  console.log(`── ${figure.name}: ${figure.call}`);
  console.log(
    `   rows ${figure.rows ?? "-"}, first ${fixed(figure.firstMs)} ms, p50 ${fixed(figure.p50Ms)} ms, p95 ${fixed(figure.p95Ms)} ms, max ${fixed(figure.maxMs)} ms${verdict}`,
  );
  for (const statement of figure.statements) {
    console.log(`   SQL: ${statement.sql.length > 220 ? `${statement.sql.slice(0, 220)}…` : statement.sql}`);
    for (const line of statement.plan) console.log(`     ${line.length > 170 ? `${line.slice(0, 170)}…` : line}`);
  }
  console.log("");
}

// --- Size ----------------------------------------------------------------------------------------

async function measureSize(admin: pg.Client, events: number): Promise<EventLogBenchResult["size"]> {
  const sizes = await admin.query<{
    heap: string;
    toast: string;
    indexes: string;
    total: string;
    work: string;
    work_rows: string;
    live: string;
  }>(
    `SELECT pg_relation_size('"WebhookEvent"') AS heap,
            COALESCE(pg_total_relation_size(NULLIF(reltoastrelid, 0)), 0) AS toast,
            pg_indexes_size('"WebhookEvent"') AS indexes,
            pg_total_relation_size('"WebhookEvent"') AS total,
            pg_total_relation_size('"WebhookWork"') AS work,
            (SELECT COUNT(*) FROM "WebhookWork") AS work_rows,
            (SELECT SUM(pg_column_size(e.*)) FROM "WebhookEvent" e) AS live
     FROM pg_class WHERE oid = '"WebhookEvent"'::regclass`,
  );
  const indexes = await admin.query<{ name: string; bytes: string }>(
    `SELECT indexrelid::regclass::text AS name, pg_relation_size(indexrelid) AS bytes FROM pg_index
     WHERE indrelid = '"WebhookEvent"'::regclass ORDER BY pg_relation_size(indexrelid) DESC`,
  );
  const row = sizes.rows[0]!;
  const perMillion = (bytes: number) => bytes / (events / 1_000_000);
  const size = {
    heapBytes: Number(row.heap),
    toastBytes: Number(row.toast),
    indexBytes: Number(row.indexes),
    eventTotalBytes: Number(row.total),
    workTotalBytes: Number(row.work),
    workRows: Number(row.work_rows),
    liveRowBytes: Number(row.live),
    indexes: indexes.rows.map((index) => ({ name: index.name, bytes: Number(index.bytes) })),
    perMillion: {
      heap: perMillion(Number(row.heap)),
      toast: perMillion(Number(row.toast)),
      indexes: perMillion(Number(row.indexes)),
      eventTotal: perMillion(Number(row.total)),
      work: perMillion(Number(row.work)),
      total: perMillion(Number(row.total) + Number(row.work)),
    },
  };
  console.log(`── size, ${count(events)} events (${count(size.workRows)} WebhookWork rows)`);
  console.log(
    `   WebhookEvent heap ${mb(size.heapBytes)} (the rows themselves ${mb(size.liveRowBytes)}), TOAST ${mb(size.toastBytes)}, indexes ${mb(size.indexBytes)}: total ${mb(size.eventTotalBytes)}`,
  );
  for (const index of size.indexes) console.log(`     ${index.name}: ${mb(index.bytes)}`);
  console.log(`   WebhookWork ${mb(size.workTotalBytes)}`);
  console.log(
    `   per million events: heap ${mb(size.perMillion.heap)}, TOAST ${mb(size.perMillion.toast)}, indexes ${mb(size.perMillion.indexes)}, ` +
      `WebhookWork ${mb(size.perMillion.work)}: ${mb(size.perMillion.total)} in all\n`,
  );
  return size;
}

// --- The receiver, and pruning -------------------------------------------------------------------

/** Stores `rate` new events a second through the receiver's own write path until stopped. */
async function startReceiverLoop(rate: number, shops: number) {
  const { insertWebhookEvent } = await import("@/features/webhooks/store.server");
  const { parseWebhookBody } = await import("@/features/webhooks/parse");
  const { createHash } = await import("node:crypto");
  const samples: { at: number; ms: number }[] = [];
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let sequence = 0;
  const loop = (async () => {
    let next = performance.now();
    while (!stopped) {
      const shop = sequence % 10 === 0 ? 0 : 1 + (sequence % shops);
      const rawBody = JSON.stringify({ data: { domain: "order.order", status: "approved", order_id: `BENCH-RECEIVER-${sequence}` } });
      sequence++;
      const at = performance.now();
      const write: Promise<void> = insertWebhookEvent({
        sellerId: shopId(shop),
        receivedAt: new Date(),
        rawBody,
        bodyHash: createHash("sha256").update(rawBody).digest("hex"),
        headers: { "content-type": "application/json", "user-agent": "bench-event-log" },
        parsed: parseWebhookBody(rawBody),
        claimedBy: "bench-event-log",
      }).then(() => {
        samples.push({ at, ms: performance.now() - at });
      });
      inFlight.add(write);
      void write.finally(() => inFlight.delete(write));
      next += 1000 / rate;
      const wait = next - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  })();
  return {
    /** Latencies of the inserts started between `from` and `to` (performance.now()). */
    between: (from: number, to: number) =>
      latency(samples.filter((sample) => sample.at >= from && sample.at < to).map((sample) => sample.ms)),
    stop: async () => {
      stopped = true;
      await loop;
      await Promise.all(inFlight);
    },
  };
}

async function measurePruning(
  settings: Required<EventLogBenchOptions>,
  admin: pg.Client,
  explainer: pg.Client,
  setCapture: (list: Captured[] | null) => void,
): Promise<EventLogBenchResult["pruning"]> {
  const { pruneOldEvents, PRUNE_BATCH } = await import("@/features/webhooks/process/prune.server");
  const days = SPREAD_DAYS - settings.pruneDays;
  // The statement as the app sends it (with a limit of 0, it deletes nothing), explained with the
  // real limit inside a transaction that is rolled back.
  const captured: Captured[] = [];
  setCapture(captured);
  await pruneOldEvents(days, 0);
  setCapture(null);
  const statement = captured.at(-1)!;
  const plan = await explain(
    explainer,
    { text: statement.text, values: statement.values.map((value, index) => (index === statement.values.length - 1 ? PRUNE_BATCH : value)) },
    { rollback: true, lines: 24 },
  );
  console.log(
    `── pruning ${settings.pruneDays} day(s)' worth: pruneOldEvents(${days}) while the receiver stores ${settings.receiverRate} events/s`,
  );
  console.log(`   SQL: ${oneLine(statement.text)}`);
  for (const line of plan) console.log(`     ${line.length > 170 ? `${line.slice(0, 170)}…` : line}`);

  const receiver = await startReceiverLoop(settings.receiverRate, settings.shops);
  // A second to open the receiver's connections and prepare its statement, then three measured.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const beforeStarted = performance.now();
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const started = performance.now();
  let deleted = 0;
  let statements = 0;
  let maxStatementMs = 0;
  // As features/webhooks/process/process.server.ts runs it: statement after statement while a full batch went.
  for (;;) {
    const statementStarted = performance.now();
    const gone = await pruneOldEvents(days);
    maxStatementMs = Math.max(maxStatementMs, performance.now() - statementStarted);
    statements++;
    deleted += gone;
    if (gone !== PRUNE_BATCH) break;
  }
  const ended = performance.now();
  // A second of the receiver after the last statement, so a slow commit at the end is counted.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  await receiver.stop();
  const before = receiver.between(beforeStarted, started);
  const during = receiver.between(started, ended);
  console.log(
    `   deleted ${count(deleted)} events in ${statements} statements of up to ${count(PRUNE_BATCH)}: ${seconds(ended - started)} s, the slowest statement ${fixed(maxStatementMs, 0)} ms`,
  );
  console.log(`   receiver before pruning: ${latencyText(before)}`);
  console.log(`   receiver during pruning: ${latencyText(during)}\n`);
  // The sizes were measured before; the deleted rows' space is for vacuum to reclaim.
  await admin.query(`VACUUM "WebhookEvent"`);
  return {
    days,
    deleted,
    statements,
    batch: PRUNE_BATCH,
    totalMs: ended - started,
    maxStatementMs,
    plan,
    receiverBefore: before,
    receiverDuring: during,
  };
}

// --- The migration's indexes, built on a full table ----------------------------------------------

async function measureIndexBuild(settings: Required<EventLogBenchOptions>, admin: pg.Client) {
  const folder = readdirSync(path.join(ROOT, "prisma/migrations")).find((name) => name.endsWith(MIGRATION_SUFFIX));
  if (!folder) {
    console.log(`── no migration *${MIGRATION_SUFFIX}: no index build to time\n`);
    return null;
  }
  const sql = readFileSync(path.join(ROOT, "prisma/migrations", folder, "migration.sql"), "utf8");
  const creates = [...sql.matchAll(/CREATE (?:UNIQUE )?INDEX "([^"]+)" ON [^;]+;/g)].map((match) => ({
    name: match[1]!,
    statement: match[0],
  }));
  console.log(
    `── ${folder}: ${creates.length} indexes built again on the full table, the receiver storing ${settings.receiverRate} events/s`,
  );
  const receiver = await startReceiverLoop(settings.receiverRate, settings.shops);
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const started = performance.now();
  const statements: { statement: string; ms: number }[] = [];
  for (const create of creates) {
    await admin.query(`DROP INDEX "${create.name}"`);
    const buildStarted = performance.now();
    await admin.query(create.statement);
    const ms = performance.now() - buildStarted;
    statements.push({ statement: create.statement, ms });
    console.log(`   ${seconds(ms)} s  ${create.statement}`);
  }
  const ended = performance.now();
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  await receiver.stop();
  const during = receiver.between(started, ended);
  console.log(`   in all ${seconds(ended - started)} s; receiver meanwhile: ${latencyText(during)}\n`);
  return { statements, receiver: during };
}

// ---------------------------------------------------------------------------------------------
// Run directly

function printSummary(result: EventLogBenchResult) {
  console.log(
    `\n=== The event log at ${count(result.events)} events (${count(result.shops)} shops + a big one with ${count(result.bigShopEvents)}) ===`,
  );
  console.log(`generation ${fixed(result.generationSeconds)} s (${count(result.orders)} mirrored orders)`);
  const width = Math.max(...result.queries.map((figure) => figure.name.length));
  for (const figure of result.queries) {
    const verdict = figure.targetMs === null ? "" : figure.p95Ms <= figure.targetMs ? "ok" : `MISSED (≤ ${figure.targetMs})`;
    console.log(
      `${figure.name.padEnd(width)}  p50 ${fixed(figure.p50Ms).padStart(7)} ms  p95 ${fixed(figure.p95Ms).padStart(7)} ms  ${verdict}`,
    );
  }
  const pruning = result.pruning;
  console.log(
    `pruning ${result.pruning.days === SPREAD_DAYS - 1 ? "a day" : `${SPREAD_DAYS - result.pruning.days} days`}: ${count(pruning.deleted)} events, ${pruning.statements} statements, ${seconds(pruning.totalMs)} s (slowest ${fixed(pruning.maxStatementMs, 0)} ms); ` +
      `receiver max ${fixed(pruning.receiverDuring.maxMs)} ms during, ${fixed(pruning.receiverBefore.maxMs)} ms before`,
  );
  const perMillion = result.size.perMillion;
  console.log(
    `size per million events: ${mb(perMillion.total)} (heap ${mb(perMillion.heap)}, TOAST ${mb(perMillion.toast)}, indexes ${mb(perMillion.indexes)}, WebhookWork ${mb(perMillion.work)})`,
  );
  if (result.indexBuild) {
    const total = result.indexBuild.reduce((sum, build) => sum + build.ms, 0);
    console.log(
      `the migration's indexes: ${seconds(total)} s to build; receiver max ${fixed(result.indexBuildReceiver!.maxMs)} ms meanwhile`,
    );
  }
}

const childOptions = process.env[CHILD_OPTIONS];
if (childOptions) {
  try {
    const result = await measure(JSON.parse(childOptions) as Required<EventLogBenchOptions>);
    const { writeFileSync } = await import("node:fs");
    writeFileSync(process.env[CHILD_RESULT]!, JSON.stringify(result));
  } catch (error) {
    console.error(error);
    process.exitCode = 1;
  }
} else if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const { values: args } = parseArgs({
    options: {
      events: { type: "string", default: String(DEFAULTS.events) },
      shops: { type: "string", default: String(DEFAULTS.shops) },
      "big-share": { type: "string", default: String(DEFAULTS.bigShare) },
      runs: { type: "string", default: String(DEFAULTS.runs) },
      "prune-days": { type: "string", default: String(DEFAULTS.pruneDays) },
      "receiver-rate": { type: "string", default: String(DEFAULTS.receiverRate) },
      "skip-index-build": { type: "boolean", default: false },
      keep: { type: "boolean", default: false },
    },
  });
  try {
    const started = performance.now();
    const result = await runEventLogBench({
      events: Number(args.events),
      shops: Number(args.shops),
      bigShare: Number(args["big-share"]),
      runs: Number(args.runs),
      pruneDays: Number(args["prune-days"]),
      receiverRate: Number(args["receiver-rate"]),
      skipIndexBuild: args["skip-index-build"],
      keep: args.keep,
    });
    printSummary(result);
    console.log(`\nwhole run ${seconds(performance.now() - started)} s`);
  } catch (error) {
    console.error(error);
    process.exitCode = 1;
  }
}
