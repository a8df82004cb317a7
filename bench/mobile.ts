// npm run bench:mobile [-- --skip-build] [-- --runs 3] [-- --samples 10] [-- --orders 2000]
// Three pages on a throttled phone: LCP, first order visible, JavaScript (bench/README.md). Exits
// non-zero only when a run breaks (a page that does not show, throttling not applied), never for a missed target.
import { parseArgs } from "node:util";
import { chromium } from "@playwright/test";
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "@playwright/test";
import pg from "pg";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "@/scripts/lib/chromium";
import { benchBaseEnv, buildDashboard, productionDashboardEnv, startDetached, stopAllStarted } from "./lib/processes";
import { waitForServer } from "./lib/webhook-kit";
import { percentile } from "./lib/load";
import { shopOf, signIn } from "./lib/sign-in";
import { newestOrderIds } from "./lib/seller-orders";
import { migrateFreshDatabase } from "@/scripts/migrate";

const { values: args } = parseArgs({
  options: {
    "skip-build": { type: "boolean", default: false },
    runs: { type: "string", default: "3" },
    samples: { type: "string", default: "10" },
    orders: { type: "string", default: "2000" },
  },
});

/** A whole number within bounds, checked before the build and the seeding, which take minutes. */
function wholeNumber(name: string, value: string, min: number, max: number): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < min || number > max)
    throw new Error(`--${name} must be a whole number from ${min} to ${max}, not ${value}`);
  return number;
}
// The upper bounds keep the run bounded in time: each load takes a few seconds on this network.
const RUNS = wholeNumber("runs", args.runs, 1, 10);
const SAMPLES = wholeNumber("samples", args.samples, 1, 50);
const ORDERS = wholeNumber("orders", args.orders, 1, 100_000);

const APP_PORT = 3340;
const SANDBOX_PORT = 4340;
const APP = `http://localhost:${APP_PORT}`;
const SANDBOX = `http://localhost:${SANDBOX_PORT}`;
const BENCH_DATABASE = "bench_mobile";

// An Android Chrome user agent of the Chromium that runs it: an iPhone's Safari one would lie about the engine.
const PHONE = { width: 390, height: 844, deviceScaleFactor: 3 };
const phoneUserAgent = (chromeMajor: string) =>
  `Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${chromeMajor}.0.0.0 Mobile Safari/537.36`;

// Lighthouse's mobile default (core/config/constants.js, mobileSlow4G.cpuSlowdownMultiplier).
const CPU_SLOWDOWN = 4;

// Chrome DevTools' "Slow 4G" preset (devtools-frontend NetworkManager.ts, Slow4GConditions), with
// its adjustment factors; bench/README.md derives it and compares it with Lighthouse's.
const SLOW_4G = {
  offline: false,
  latency: 150 * 3.75, // 562.5 ms from request sent to response headers, each request
  downloadThroughput: ((1.6 * 1000 * 1000) / 8) * 0.9, // 180,000 bytes/s
  uploadThroughput: ((750 * 1000) / 8) * 0.9, // 84,375 bytes/s
  connectionType: "cellular4g" as const,
};

// Core Web Vitals: LCP ≤ 2.5 s at the 75th percentile of page loads is "good".
const LCP_GOOD_MS = 2_500;
// Later LCP candidates (a late render, a web font) arrive within this; Lighthouse's pauseAfterLoadMs is 1 s too.
const SETTLE_MS = 1_000;
// A load that does not show its page by then is a broken run (a redirect, an error page).
const LOAD_TIMEOUT_MS = 60_000;
const BACKFILL_TIMEOUT_MS = 300_000;

/** An element matching `selector` and, if given, holding `text`. */
interface ShownTarget {
  selector: string;
  text: string | null;
  timeoutMs: number;
}

/** What the init script records in the page, on window.__benchMobile. */
interface PageRecord {
  /** The last largest-contentful-paint entry's startTime (its render time), ms from navigation start. */
  lcp: number | null;
  /** That entry's element, as "tag#testid" or "tag.class". */
  lcpElement: string | null;
  /** The first animation frame in which the target was visible, ms from navigation start. */
  shown: number | null;
  failure: string | null;
}

/**
 * Runs in each page before its own scripts. Times are the page's own performance.now(), so no
 * Playwright round trip is in them. NOTE: tsx's keepNames forbids named inner functions here (its
 * __name helper does not exist in the page): hence the awaited loop, and only anonymous callbacks.
 */
async function observePage(target: ShownTarget): Promise<void> {
  if (window !== window.top) return;
  const record: PageRecord = { lcp: null, lcpElement: null, shown: null, failure: null };
  Object.defineProperty(window, "__benchMobile", { value: record });
  try {
    new PerformanceObserver((list) => {
      const entry = list.getEntries().at(-1) as LargestContentfulPaint | undefined;
      if (!entry) return;
      record.lcp = entry.startTime;
      const element = entry.element;
      const testId = element?.getAttribute("data-testid");
      const className = element?.getAttribute("class")?.split(/\s+/)[0];
      record.lcpElement = element
        ? `${element.tagName.toLowerCase()}${testId ? `#${testId}` : className ? `.${className}` : ""}`
        : "(removed)";
    }).observe({ type: "largest-contentful-paint", buffered: true });
  } catch (error) {
    record.failure = `No largest-contentful-paint observer: ${String(error)}`;
  }
  for (;;) {
    await new Promise<number>((resolve) => requestAnimationFrame(resolve));
    const now = performance.now();
    for (const element of document.querySelectorAll(target.selector)) {
      if (target.text !== null && !(element.textContent ?? "").includes(target.text)) continue;
      const box = element.getBoundingClientRect();
      if (box.width > 0 && box.height > 0 && element.checkVisibility({ visibilityProperty: true })) {
        record.shown = now;
        return;
      }
    }
    if (now > target.timeoutMs) {
      record.failure = `Nothing matching ${target.selector} ${target.text ?? ""} was visible within ${target.timeoutMs} ms of navigating`;
      return;
    }
  }
}

interface LoadFigures {
  lcpMs: number;
  lcpElement: string;
  shownMs: number;
  /** Navigation start → the document's response headers (responseStart): the network's latency plus the server's time. */
  ttfbMs: number;
  /** The HTML document's bytes over the network (compressed), its streamed RSC payload included. */
  documentKb: number;
  jsTransferKb: number;
  jsDecodedKb: number;
  jsFiles: number;
}

/** Runs in the page once it has settled: the record, the document's TTFB and the JavaScript it loaded. */
function readPage() {
  const record = (window as unknown as { __benchMobile?: PageRecord }).__benchMobile ?? null;
  const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
  let transfer = 0;
  let decoded = 0;
  let files = 0;
  for (const entry of performance.getEntriesByType("resource") as PerformanceResourceTiming[]) {
    // Next.js loads its chunks with <script> elements and preloads some with <link rel="preload"
    // as="script">, whose entry's initiatorType is "link": a script is either.
    const path = new URL(entry.name).pathname;
    if (entry.initiatorType !== "script" && !path.endsWith(".js") && !path.endsWith(".mjs")) continue;
    transfer += entry.transferSize;
    decoded += entry.decodedBodySize;
    files++;
  }
  return { record, ttfbMs: navigation?.responseStart ?? null, documentBytes: navigation?.transferSize ?? null, transfer, decoded, files };
}

interface MeasuredPage {
  label: string;
  path(load: number): string;
  target(load: number): Omit<ShownTarget, "timeoutMs">;
}

function parseCookies(cookie: string) {
  return cookie.split("; ").map((pair) => {
    const index = pair.indexOf("=");
    return { name: pair.slice(0, index), value: pair.slice(index + 1), domain: "localhost", path: "/" };
  });
}

/** The CDP command that applied the network conditions, for the report. */
let networkCommand = "Network.emulateNetworkConditions";

/** Network.emulateNetworkConditions is deprecated: a Chromium without it gets the same conditions as a rule. */
async function throttle(context: BrowserContext, page: Page): Promise<void> {
  const session = await context.newCDPSession(page);
  await session.send("Network.enable");
  try {
    await session.send("Network.emulateNetworkConditions", SLOW_4G);
  } catch {
    const { offline: _offline, ...conditions } = SLOW_4G;
    await session.send("Network.emulateNetworkConditionsByRule", { matchedNetworkConditions: [{ urlPattern: "", ...conditions }] });
    networkCommand = "Network.emulateNetworkConditionsByRule (this Chromium refused Network.emulateNetworkConditions)";
  }
  await session.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
}

/** A fresh context each: an empty cache, a first visit on this phone. */
async function loadOnce(
  browser: Browser,
  profile: BrowserContextOptions,
  cookie: string,
  path: string,
  target: Omit<ShownTarget, "timeoutMs">,
): Promise<LoadFigures> {
  const context = await browser.newContext(profile);
  try {
    await context.addCookies(parseCookies(cookie));
    await context.addInitScript(observePage, { ...target, timeoutMs: LOAD_TIMEOUT_MS });
    const page = await context.newPage();
    await throttle(context, page);
    const response = await page.goto(`${APP}${path}`, { waitUntil: "load", timeout: LOAD_TIMEOUT_MS });
    if (!response?.ok() || new URL(page.url()).pathname !== path) {
      throw new Error(`${path}: HTTP ${response?.status() ?? "no response"} at ${page.url()}`);
    }
    await page.waitForFunction(
      () => {
        const record = (window as unknown as { __benchMobile?: PageRecord }).__benchMobile;
        return record !== undefined && (record.shown !== null || record.failure !== null);
      },
      undefined,
      { polling: 100, timeout: LOAD_TIMEOUT_MS },
    );
    await page.waitForTimeout(SETTLE_MS);
    const { record, ttfbMs, documentBytes, transfer, decoded, files } = await page.evaluate(readPage);
    if (!record) throw new Error(`${path}: the init script did not run`);
    if (record.failure) throw new Error(`${path}: ${record.failure}`);
    if (record.shown === null || record.lcp === null)
      throw new Error(`${path}: no ${record.lcp === null ? "largest-contentful-paint entry" : "visible target"}`);
    if (ttfbMs === null || documentBytes === null) throw new Error(`${path}: no navigation timing`);
    // Nothing can paint sooner than the network's latency: a page that did was not throttled.
    const firstPaint = Math.min(record.shown, record.lcp);
    if (firstPaint < SLOW_4G.latency * 0.9)
      throw new Error(
        `${path}: painted ${firstPaint.toFixed(0)} ms after navigating, under the network's latency: the network was not throttled`,
      );
    return {
      lcpMs: record.lcp,
      lcpElement: record.lcpElement ?? "?",
      shownMs: record.shown,
      ttfbMs,
      documentKb: documentBytes / 1000,
      jsTransferKb: transfer / 1000,
      jsDecodedKb: decoded / 1000,
      jsFiles: files,
    };
  } finally {
    await context.close();
  }
}

/** The overview counts from the mirror, and its back-fill should not compete with the loads. */
async function backfillDone(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const deadline = Date.now() + BACKFILL_TIMEOUT_MS;
    while (Date.now() < deadline) {
      const result = await client.query<{ state: string }>(
        `SELECT s."backfillState" AS state FROM "SellerSync" s JOIN "Seller" x ON x.id = s."sellerId" WHERE x.email = 'seller@example.com'`,
      );
      if (result.rows[0]?.state === "done") return;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error(`The mirror's back-fill did not finish within ${BACKFILL_TIMEOUT_MS / 1000} s`);
  } finally {
    await client.end();
  }
}

type Metric = "lcpMs" | "shownMs" | "ttfbMs" | "documentKb" | "jsTransferKb" | "jsDecodedKb";
const METRICS: { key: Metric; name: (page: MeasuredPage) => string; digits: number }[] = [
  { key: "lcpMs", name: () => "LCP, ms", digits: 0 },
  {
    key: "shownMs",
    name: (page) => `${page.label === "/" ? "late count" : page.label === "/orders" ? "first order card" : "order heading"} visible, ms`,
    digits: 0,
  },
  { key: "ttfbMs", name: () => "document responseStart, ms", digits: 0 },
  { key: "documentKb", name: () => "document transferred, kB", digits: 1 },
  { key: "jsTransferKb", name: () => "JavaScript transferred, kB", digits: 1 },
  { key: "jsDecodedKb", name: () => "JavaScript decoded, kB", digits: 1 },
];

function p50p75(values: readonly number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p75: percentile(sorted, 75) };
}

function mostCommon(values: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  const [value, count] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? ["?", 0];
  return `${value} (${count} of ${values.length})`;
}

const cell = (value: string, width: number) => value.padStart(width);

async function main() {
  const appEnv = productionDashboardEnv(APP, SANDBOX, {
    // The pages are what is measured: no reconciliation walking the orders meanwhile.
    RECONCILE_INTERVAL_SECONDS: "86400",
  });
  appEnv.DATABASE_URL = await migrateFreshDatabase(BENCH_DATABASE);
  if (!args["skip-build"]) buildDashboard(appEnv);

  console.log(`Seeding the sandbox with ${ORDERS} orders for seller@example.com…`);
  startDetached("npx", ["tsx", "sandbox/main.ts"], {
    ...benchBaseEnv,
    SANDBOX_PORT: String(SANDBOX_PORT),
    SANDBOX_SEED_ORDERS: String(ORDERS),
    SANDBOX_REDIRECT_URIS: `${APP}/api/auth/callback/marketplace`,
  });
  startDetached(process.execPath, ["node_modules/next/dist/bin/next", "start", "--port", String(APP_PORT)], appEnv);
  await waitForServer(`${SANDBOX}/_sandbox/health`, 180_000);
  await waitForServer(`${APP}/`, 180_000);

  // Signed in once, outside any measured load; every load reuses the session cookie.
  const cookie = await signIn(APP, SANDBOX, "seller@example.com");
  await backfillDone(appEnv.DATABASE_URL);
  // A different order at each load (ids repeat only past the seller's order count), so that no
  // single order's views are warmer than a seller's would be.
  const orderIds = await newestOrderIds(APP, cookie, RUNS * SAMPLES + 1);
  const orderId = (load: number) => orderIds[load % orderIds.length]!;
  // Pages are measured at their shop's own address (/s/{shop}/…), not through the redirect of the shop-less ones.
  const shop = `/s/${await shopOf(APP, cookie)}`;

  const pages: MeasuredPage[] = [
    { label: "/", path: () => shop, target: () => ({ selector: '[data-testid="count-late"]', text: null }) },
    // A row of the orders table that links to an order (a card on a phone, components/ui/data-table.tsx):
    // the loading and empty states are not rows, and only a real order's holds a link to it.
    {
      label: "/orders",
      path: () => `${shop}/orders`,
      target: () => ({ selector: `tbody tr:has(a[href^="${shop}/orders/"])`, text: null }),
    },
    // The order page names the order by its short reference (decision 0018) and, in the same
    // server-rendered part, by the platform's id (features/orders/components/order-details.tsx): that
    // line holding this order's id tells its page from the not-found and error pages.
    {
      label: "/orders/<id>",
      path: (load) => `${shop}/orders/${orderId(load)}`,
      target: (load) => ({ selector: '[data-testid="platform-order-id"]', text: orderId(load) }),
    },
  ];

  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const chromeMajor = browser.version().split(".")[0]!;
    const profile: BrowserContextOptions = {
      viewport: { width: PHONE.width, height: PHONE.height },
      screen: { width: PHONE.width, height: PHONE.height },
      deviceScaleFactor: PHONE.deviceScaleFactor,
      isMobile: true,
      hasTouch: true,
      locale: "pt-BR",
      timezoneId: "America/Sao_Paulo",
      userAgent: phoneUserAgent(chromeMajor),
    };
    console.log(
      [
        `\nChromium ${browser.version()} as a phone: ${PHONE.width} × ${PHONE.height} CSS px at ${PHONE.deviceScaleFactor}×, mobile, touch, pt-BR,`,
        `  user agent "${profile.userAgent}";`,
        `  CPU ${CPU_SLOWDOWN}× slower (CDP Emulation.setCPUThrottlingRate); network DevTools "Slow 4G" (CDP Network.emulateNetworkConditions:`,
        `  latency ${SLOW_4G.latency} ms per request, ${SLOW_4G.downloadThroughput.toLocaleString("en")} B/s down, ${SLOW_4G.uploadThroughput.toLocaleString("en")} B/s up).`,
        `Each load: a fresh context (empty cache), signed in with the session cookie, until load + first order visible + ${SETTLE_MS} ms;`,
        `times in ms from navigation start. ${RUNS} run(s) of ${SAMPLES} loads of each page, interleaved,`,
        `after one warm-up load of each page before the first run (the server's code paths; not counted).`,
      ].join("\n"),
    );

    const warmUpStarted = performance.now();
    for (const page of pages) await loadOnce(browser, profile, cookie, page.path(RUNS * SAMPLES), page.target(RUNS * SAMPLES));
    console.log(`Warm-up done in ${((performance.now() - warmUpStarted) / 1000).toFixed(0)} s.`);

    const figures: LoadFigures[][][] = [];
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      const runFigures: LoadFigures[][] = pages.map(() => []);
      for (let sample = 0; sample < SAMPLES; sample++) {
        const load = run * SAMPLES + sample;
        // Which page goes first rotates, so that none always follows the same one.
        for (let step = 0; step < pages.length; step++) {
          const index = (sample + step) % pages.length;
          const page = pages[index]!;
          runFigures[index]!.push(await loadOnce(browser, profile, cookie, page.path(load), page.target(load)));
        }
      }
      figures.push(runFigures);

      console.log(`\nRun ${run + 1} of ${RUNS} (${((performance.now() - started) / 1000).toFixed(0)} s): ${SAMPLES} loads of each page`);
      console.log(`${"page".padEnd(14)} ${"metric".padEnd(32)} ${cell("p50", 8)} ${cell("p75", 8)}`);
      pages.forEach((page, index) => {
        for (const metric of METRICS) {
          const { p50, p75 } = p50p75(runFigures[index]!.map((f) => f[metric.key]));
          console.log(
            `${page.label.padEnd(14)} ${metric.name(page).padEnd(32)} ${cell(p50.toFixed(metric.digits), 8)} ${cell(p75.toFixed(metric.digits), 8)}`,
          );
        }
      });
    }

    console.log(`\nAll ${RUNS} run(s): ${RUNS * SAMPLES} loads of each page; spread = lowest–highest of the runs' p75`);
    console.log(`${"page".padEnd(14)} ${"metric".padEnd(32)} ${cell("p50", 8)} ${cell("p75", 8)} ${cell("run p75 spread", 18)}`);
    pages.forEach((page, index) => {
      const all = figures.flatMap((run) => run[index]!);
      for (const metric of METRICS) {
        const { p50, p75 } = p50p75(all.map((f) => f[metric.key]));
        const runP75 = figures.map((run) => p50p75(run[index]!.map((f) => f[metric.key])).p75);
        const spread = `${Math.min(...runP75).toFixed(metric.digits)}–${Math.max(...runP75).toFixed(metric.digits)}`;
        console.log(
          `${page.label.padEnd(14)} ${metric.name(page).padEnd(32)} ${cell(p50.toFixed(metric.digits), 8)} ${cell(p75.toFixed(metric.digits), 8)} ${cell(spread, 18)}`,
        );
      }
      console.log(`${"".padEnd(14)} LCP element: ${mostCommon(all.map((f) => f.lcpElement))}; ${all[0]!.jsFiles} JavaScript files`);
    });

    console.log(`\nNetwork conditions applied with CDP ${networkCommand}.`);
    console.log(`Core Web Vitals: LCP p75 ≤ ${LCP_GOOD_MS} ms is "good" (over all loads; and in how many runs on its own)`);
    pages.forEach((page, index) => {
      const all = figures.flatMap((run) => run[index]!);
      const { p75 } = p50p75(all.map((f) => f.lcpMs));
      const goodRuns = figures.filter((run) => p50p75(run[index]!.map((f) => f.lcpMs)).p75 <= LCP_GOOD_MS).length;
      console.log(
        `${page.label.padEnd(14)} LCP p75 ${p75.toFixed(0).padStart(6)} ms: ${p75 <= LCP_GOOD_MS ? "GOOD" : "NOT GOOD"} (good in ${goodRuns} of ${RUNS} runs)`,
      );
    });
  } finally {
    await browser.close();
  }
}

try {
  await main();
} finally {
  stopAllStarted();
}
