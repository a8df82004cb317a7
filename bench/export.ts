// npm run bench:export [-- --skip-build] [-- --counts 10000,100000,200000]
// One export of all a seller's orders, read as a stream, for each count: rows/s and the server's
// memory growth, which should stay flat as the count grows (bench/README.md).
import { parseArgs } from "node:util";
import pg from "pg";
import {
  benchBaseEnv,
  buildDashboard,
  productionDashboardEnv,
  residentMb,
  startDetached,
  stopAllStarted,
  stopGroup,
} from "./lib/processes";
import { waitForServer } from "./lib/webhook-kit";
import { shopOf, signIn } from "./lib/sign-in";
import { migrateFreshDatabase } from "@/scripts/migrate";

const { values: args } = parseArgs({
  options: {
    "skip-build": { type: "boolean", default: false },
    counts: { type: "string", default: "10000,100000,200000" },
  },
});
const COUNTS = args.counts.split(",").map(Number);
if (COUNTS.some((count) => !Number.isInteger(count) || count < 1)) throw new Error(`--counts must be whole numbers, not ${args.counts}`);

const APP_PORT = 3320;
const SANDBOX_PORT = 4320;
const APP = `http://localhost:${APP_PORT}`;
const SANDBOX = `http://localhost:${SANDBOX_PORT}`;
const BENCH_DATABASE = "bench_export";
const TIME_TARGET_S = 60;
const MEMORY_TARGET_MB = 150;

const appEnv = productionDashboardEnv(APP, SANDBOX, {
  // The export is what is measured: no reconciliation walking the same orders meanwhile.
  RECONCILE_INTERVAL_SECONDS: "86400",
});

async function backfillDone(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const deadline = Date.now() + 600_000;
    while (Date.now() < deadline) {
      const result = await client.query<{ state: string }>(
        `SELECT s."backfillState" AS state FROM "SellerSync" s JOIN "Seller" x ON x.id = s."sellerId" WHERE x.email = 'seller@example.com'`,
      );
      if (result.rows[0]?.state === "done") return;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error("The mirror's back-fill did not finish within 10 minutes");
  } finally {
    await client.end();
  }
}

async function measureExport(cookie: string, shop: string, appPid: number) {
  const baseline = residentMb(appPid);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, residentMb(appPid))), 50);
  const started = performance.now();
  const response = await fetch(`${APP}/api/s/${shop}/orders/export`, { headers: { cookie, "accept-language": "pt-BR" } });
  if (!response.ok || !response.body) throw new Error(`The export answered HTTP ${response.status}`);
  const reader = response.body.getReader();
  let firstByte = 0;
  let lines = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (firstByte === 0) firstByte = performance.now() - started;
    for (const byte of value) if (byte === 10) lines++;
  }
  const total = performance.now() - started;
  clearInterval(sampler);
  return {
    rows: lines - 1,
    firstByteS: firstByte / 1000,
    totalS: total / 1000,
    rowsPerS: (lines - 1) / (total / 1000),
    growthMb: peak - baseline,
    baselineMb: baseline,
  };
}

async function main() {
  appEnv.DATABASE_URL = await migrateFreshDatabase(BENCH_DATABASE);
  if (!args["skip-build"]) buildDashboard(appEnv);
  const results = [];
  for (const count of COUNTS) {
    console.log(`Seeding the sandbox with ${count} orders for seller@example.com…`);
    const sandbox = startDetached("npx", ["tsx", "sandbox/main.ts"], {
      ...benchBaseEnv,
      SANDBOX_PORT: String(SANDBOX_PORT),
      SANDBOX_SEED_ORDERS: String(count),
      SANDBOX_REDIRECT_URIS: `${APP}/api/auth/callback/marketplace`,
    });
    const app = startDetached(process.execPath, ["node_modules/next/dist/bin/next", "start", "--port", String(APP_PORT)], appEnv);
    await waitForServer(`${SANDBOX}/_sandbox/health`, 300_000);
    await waitForServer(`${APP}/`, 180_000);
    const cookie = await signIn(APP, SANDBOX, "seller@example.com");
    const shop = await shopOf(APP, cookie);
    // Connecting starts the mirror's back-fill (features/webhooks/sync/reconcile.server.ts): let it finish, so that
    // what is measured is the export alone.
    await backfillDone(appEnv.DATABASE_URL!);
    // Warm the route (compilation caches, the sandbox's sorted views) with a small export first.
    await (await fetch(`${APP}/api/s/${shop}/orders/export?status=cancelled&id=650000000000000000000000`, { headers: { cookie } })).text();
    results.push({ count, ...(await measureExport(cookie, shop, app.pid!)) });
    stopGroup(app);
    stopGroup(sandbox);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }

  console.log(
    `\nOrders export, production build, pt-BR CSV (targets: < ${TIME_TARGET_S} s for 100,000; memory growth < ${MEMORY_TARGET_MB} MB and flat)`,
  );
  console.log("orders      rows    rows/s   first byte s   last byte s   server memory growth MB (baseline)");
  for (const r of results) {
    console.log(
      `${String(r.count).padStart(7)} ${String(r.rows).padStart(9)} ${r.rowsPerS.toFixed(0).padStart(9)} ${r.firstByteS.toFixed(2).padStart(14)} ${r.totalS.toFixed(1).padStart(13)}   ${r.growthMb.toFixed(0).padStart(6)} (${r.baselineMb.toFixed(0)})`,
    );
  }
  const largest = results.at(-1)!;
  const ok =
    results.every((r) => r.growthMb < MEMORY_TARGET_MB) &&
    (largest.count < 100_000 || largest.totalS < TIME_TARGET_S) &&
    results.every((r) => r.rows === r.count);
  console.log(ok ? "TARGETS MET" : "TARGETS MISSED");
}

try {
  await main();
} finally {
  stopAllStarted();
}
