// npm run bench:orders [-- --skip-build] [-- --duration 10] [-- --connections 4]
//
// The orders page's speed, as issue 6 asks: a sandbox seeded with 100,000 orders, a production
// build of the dashboard, a seller signed in through the real OAuth flow; then p50/p95 of the
// dashboard's own /api/orders for the first page, a filtered page and a deep page (offset
// 90,000), and the compressed size of the JavaScript that /orders downloads in Chromium.
// Loopback only; bounded in time.
import { spawn, spawnSync } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { parseArgs } from "node:util";
import { waitForServer } from "./lib/bench-webhook-kit";
import { runLoad } from "./lib/load";
import { migrateFreshDatabase } from "./migrate";
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../tests/e2e/chromium";

const { values: args } = parseArgs({
  options: {
    "skip-build": { type: "boolean", default: false },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "4" },
    orders: { type: "string", default: "100000" },
  },
});

const APP_PORT = 3310;
const SANDBOX_PORT = 4310;
const APP = `http://localhost:${APP_PORT}`;
const SANDBOX = `http://localhost:${SANDBOX_PORT}`;
// A database of its own on the embedded server (or DATABASE_URL's server), recreated each run.
const BENCH_DATABASE = "bench_orders";
const children: ChildProcess[] = [];

const baseEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } as NodeJS.ProcessEnv;
const appEnv: NodeJS.ProcessEnv = {
  ...baseEnv,
  NODE_ENV: "production",
  MARKETPLACE_AUTH_URL: SANDBOX,
  MARKETPLACE_BASE_URL: SANDBOX,
  PUBLIC_BASE_URL: APP,
  AUTH_URL: APP,
};

function run(command: string, commandArgs: string[], env: NodeJS.ProcessEnv) {
  const result = spawnSync(command, commandArgs, { stdio: "inherit", env });
  if (result.status !== 0) throw new Error(`${command} ${commandArgs.join(" ")} failed`);
}

function start(command: string, commandArgs: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(command, commandArgs, { env, stdio: ["ignore", "ignore", "inherit"], detached: true });
  children.push(child);
}

function stopAll() {
  for (const child of children) {
    if (child.pid) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {}
    }
  }
}
process.on("exit", stopAll);

/** A minimal cookie jar: enough for Auth.js's state and session cookies on one host. */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(response: Response) {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const index = pair!.indexOf("=");
      this.cookies.set(pair!.slice(0, index), pair!.slice(index + 1));
    }
  }
  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

/** Signs in as a seller through the dashboard's Auth.js routes and the sandbox's consent form. */
async function signIn(login: string): Promise<string> {
  const jar = new CookieJar();
  const csrf = await fetch(`${APP}/api/auth/csrf`);
  jar.take(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };

  const start = await fetch(`${APP}/api/auth/signin/marketplace`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.header() },
    body: new URLSearchParams({ csrfToken, callbackUrl: "/" }),
  });
  jar.take(start);
  const authorize = new URL(start.headers.get("location") ?? "");
  const scopes = (authorize.searchParams.get("scope") ?? "").split(" ");

  const form = new URLSearchParams({ login, password: "demo1234", decision: "approve" });
  for (const scope of scopes) form.append("scope", scope);
  const consent = await fetch(`${SANDBOX}${authorize.pathname}${authorize.search}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form,
  });
  const callback = consent.headers.get("location");
  if (!callback) throw new Error(`The consent form answered ${consent.status}`);

  const done = await fetch(callback, { redirect: "manual", headers: { cookie: jar.header() } });
  jar.take(done);
  if (!jar.header().includes("session-token")) throw new Error("Signing in did not set a session cookie");
  return jar.header();
}

async function measure(label: string, pathAndQuery: string, cookie: string) {
  // One request first, to check the case works and to warm the sandbox's cached views.
  const check = await fetch(`${APP}${pathAndQuery}`, { headers: { cookie } });
  const body = (await check.json()) as { rows?: unknown[]; error?: string };
  if (!check.ok || !body.rows) throw new Error(`${label}: HTTP ${check.status} ${body.error ?? ""}`);

  const { result, p50, p95 } = await runLoad({
    url: `${APP}${pathAndQuery}`,
    connections: Number(args.connections),
    duration: Number(args.duration),
    headers: { cookie },
  });
  return { label, rows: body.rows.length, rps: result.requests.average, p50, p95, non2xx: result.non2xx };
}

async function javascriptBytes(cookie: string): Promise<{ kb: number; files: number }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext();
    await context.addCookies(
      cookie.split("; ").map((pair) => {
        const index = pair.indexOf("=");
        return { name: pair.slice(0, index), value: pair.slice(index + 1), domain: "localhost", path: "/" };
      }),
    );
    const page = await context.newPage();
    const scripts: Promise<number>[] = [];
    page.on("requestfinished", (request) => {
      if (request.resourceType() === "script") scripts.push(request.sizes().then((sizes) => sizes.responseBodySize));
    });
    await page.goto(`${APP}/orders`);
    await page.locator("tbody tr").first().waitFor();
    await page.waitForLoadState("load");
    const sizes = await Promise.all(scripts);
    return { kb: sizes.reduce((sum, size) => sum + size, 0) / 1000, files: sizes.length };
  } finally {
    await browser.close();
  }
}

async function main() {
  appEnv.DATABASE_URL = await migrateFreshDatabase(BENCH_DATABASE);
  if (!args["skip-build"]) run("npx", ["next", "build"], appEnv);

  console.log(`Seeding the sandbox with ${args.orders} orders for seller@example.com…`);
  start("npx", ["tsx", "sandbox/main.ts"], {
    ...baseEnv,
    SANDBOX_PORT: String(SANDBOX_PORT),
    SANDBOX_SEED_ORDERS: args.orders,
    SANDBOX_REDIRECT_URIS: `${APP}/api/auth/callback/marketplace`,
  });
  start(process.execPath, ["node_modules/next/dist/bin/next", "start", "--port", String(APP_PORT)], appEnv);
  await waitForServer(`${SANDBOX}/_sandbox/health`, 180_000);
  await waitForServer(`${APP}/`, 180_000);

  const cookie = await signIn("seller@example.com");
  const deepPage = 90_000 / 25 + 1;
  const cases = [
    ["first page", "/api/orders"],
    ["filtered page", "/api/orders?status=new%2Capproved&sort=updated_at%3Adesc&customer=silva"],
    [`deep page (offset 90,000)`, `/api/orders?page=${deepPage}`],
  ] as const;

  const results = [];
  for (const [label, url] of cases) results.push(await measure(label, url, cookie));

  console.log(`\n/api/orders, ${args.connections} connections, ${args.duration}s each (target p95 ≤ 150 ms)`);
  console.log("case                          rows    req/s   p50 ms   p95 ms   non-2xx");
  for (const r of results) {
    console.log(
      `${r.label.padEnd(28)} ${String(r.rows).padStart(5)} ${r.rps.toFixed(0).padStart(8)} ${r.p50.toFixed(0).padStart(8)} ${r.p95.toFixed(0).padStart(8)} ${String(r.non2xx).padStart(9)}`,
    );
  }

  const js = await javascriptBytes(cookie);
  console.log(`\n/orders in Chromium: ${js.files} JavaScript files, ${js.kb.toFixed(1)} kB compressed (target ≤ 250 kB)`);
  const ok = results.every((r) => r.p95 <= 150 && r.non2xx === 0) && js.kb <= 250;
  console.log(ok ? "TARGETS MET" : "TARGETS MISSED");
}

try {
  await main();
} finally {
  stopAll();
}
