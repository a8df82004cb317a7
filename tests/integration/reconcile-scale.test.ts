import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import type pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type * as Reconcile from "@/features/webhooks/sync/reconcile.server";
import type { ReconcilerOptions, RunOutcome } from "@/features/webhooks/sync/reconcile.server";
import { extraSeller } from "@marketplace/sandbox/seed";
import { startTestSandbox } from "@marketplace/sandbox/testing";
import type { TestSandbox } from "@marketplace/sandbox/testing";
import { connect, useTestDatabase } from "../support/database";

// Reconciliation across shops and instances (issue 28), against a real database and sandbox: 200
// shops shared by two instances, each reconciled once per interval; one shop rate-limited or
// hanging delays no other; an instance killed mid-sweep (a real process, SIGKILL) leaves no shop
// unreconciled past the next interval. Intervals are seconds long so that a test sees several.
const SHOPS = 200;
let sandbox: TestSandbox;
let sql: pg.Client;
let reconcile: typeof Reconcile;
const shopIds: string[] = [];
const shopOf = new Map<string, string>();
const running: Reconcile.Reconciler[] = [];

beforeAll(async () => {
  await useTestDatabase();
  sandbox = await startTestSandbox({ config: { seedOrders: 0, seedSellers: SHOPS, seedSellerOrders: SHOPS * 2 } });
  process.env.MARKETPLACE_BASE_URL = sandbox.url;
  reconcile = await import("@/features/webhooks/sync/reconcile.server");
  const { connectShop } = await import("@/lib/shops/shops.server");
  const emails = Array.from({ length: SHOPS }, (_, i) => extraSeller(i + 1).email);
  const issued = await sandbox.api("/_sandbox/tokens", { method: "POST", json: { sellers: emails } });
  const { tokens, scope } = (await issued.json()) as { tokens: { seller: string; access_token: string }[]; scope: string };
  for (const [i, { seller, access_token }] of tokens.entries()) {
    const shop = await connectShop({ email: seller, name: extraSeller(i + 1).name, accessToken: access_token, scopesRequested: scope });
    shopIds.push(shop.id);
    shopOf.set(seller, shop.id);
  }
  sql = await connect(process.env.DATABASE_URL!);
}, 120_000);

afterEach(async () => {
  await Promise.all(running.splice(0).map((instance) => instance.stop()));
  await sandbox.api("/_sandbox/faults", { method: "DELETE" });
});

afterAll(async () => {
  await sql?.end();
  await sandbox?.close();
});

interface Run {
  sellerId: string;
  outcome: RunOutcome;
  startedAt: number;
  endedAt: number;
  instance: string;
}

/** Starts an instance's reconciler; every run it ends is pushed to `runs`. */
function startInstance(runs: Run[], options: Partial<ReconcilerOptions> & { instanceId: string; intervalMs: number }) {
  const instance = new reconcile.Reconciler({
    concurrency: 4,
    shopTimeoutMs: 5_000,
    ...options,
    onRun: (run) => runs.push({ ...run, instance: options.instanceId }),
  });
  running.push(instance);
  instance.start();
  return instance;
}

/** Only these shops are due (now, in this order); the others wait far in the future. */
async function onlyDue(shopIds: string[]) {
  await sql.query(`INSERT INTO "SellerSync" ("sellerId") SELECT "sellerId" FROM "Connection" ON CONFLICT DO NOTHING`);
  await sql.query(
    `UPDATE "SellerSync" SET "nextRunAt" = now() AT TIME ZONE 'UTC' + interval '1 day', "claimedBy" = NULL, "claimedUntil" = NULL`,
  );
  for (const [i, shopId] of shopIds.entries()) {
    await sql.query(
      `UPDATE "SellerSync" SET "nextRunAt" = now() AT TIME ZONE 'UTC' - interval '1 minute' + $2 * interval '1 millisecond' WHERE "sellerId" = $1`,
      [shopId, i],
    );
  }
}

const syncOf = async (shopId: string) =>
  (
    await sql.query<{ nextRunAt: Date | null; lastReconciledAt: Date | null; lastError: string | null; claimedBy: string | null }>(
      `SELECT "nextRunAt", "lastReconciledAt", "lastError", "claimedBy" FROM "SellerSync" WHERE "sellerId" = $1`,
      [shopId],
    )
  ).rows[0]!;

const byShop = (runs: Run[]) => {
  const map = new Map<string, Run[]>();
  for (const run of runs) map.set(run.sellerId, [...(map.get(run.sellerId) ?? []), run]);
  return map;
};

describe("reconciliation at scale", () => {
  it("two instances reconcile 200 shops, each once per interval, spread over it", async () => {
    const INTERVAL = 5_000;
    await sql.query(`DELETE FROM "SellerSync"`);
    const runs: Run[] = [];
    const started = Date.now();
    startInstance(runs, { instanceId: "instance-a", intervalMs: INTERVAL });
    startInstance(runs, { instanceId: "instance-b", intervalMs: INTERVAL });
    await new Promise((resolve) => setTimeout(resolve, 3.2 * INTERVAL));
    await Promise.all(running.splice(0).map((instance) => instance.stop()));

    const perShop = byShop(runs);
    expect(perShop.size).toBe(SHOPS);
    expect(runs.filter((run) => run.outcome !== "ok")).toEqual([]);
    // Both instances took part, and no shop was ever run by both at once.
    expect(new Set(runs.map((run) => run.instance))).toEqual(new Set(["instance-a", "instance-b"]));
    for (const [, shopRuns] of perShop) {
      // First slots at random within the interval: three runs, or four for a slot in its first fifth.
      expect(shopRuns.length).toBeGreaterThanOrEqual(3);
      expect(shopRuns.length).toBeLessThanOrEqual(4);
      const starts = shopRuns.map((run) => run.startedAt).sort((a, b) => a - b);
      for (let i = 1; i < starts.length; i++) {
        const gap = starts[i]! - starts[i - 1]!;
        expect(gap).toBeGreaterThan(INTERVAL - 1_500);
        expect(gap).toBeLessThan(INTERVAL + 1_500);
      }
    }
    // Spread: the first runs are not all at the start, but over the whole first interval.
    const firstRuns = [...perShop.values()].map((shopRuns) => Math.min(...shopRuns.map((run) => run.startedAt)) - started);
    const inSecondHalf = firstRuns.filter((offset) => offset > INTERVAL / 2).length;
    expect(inSecondHalf).toBeGreaterThan(SHOPS / 4);
    expect(inSecondHalf).toBeLessThan((SHOPS * 3) / 4);
  }, 60_000);

  it("a shop answered 429 with Retry-After: 30 waits 30 s; every other shop goes on meanwhile", async () => {
    const limited = shopOf.get(extraSeller(1).email)!;
    const others = shopIds.slice(1, 20);
    await onlyDue([limited, ...others]);
    const before = await syncOf(limited);
    await sandbox.api("/_sandbox/faults", { method: "POST", json: { userFaults: { [extraSeller(1).email]: { retryAfterSeconds: 30 } } } });
    const runs: Run[] = [];
    // One run at a time: had the 429 been waited out in the run, every other shop would wait 30 s too.
    startInstance(runs, { instanceId: "instance-a", intervalMs: 60_000, concurrency: 1 });
    await expect.poll(() => new Set(runs.map((run) => run.sellerId)).size, { timeout: 20_000 }).toBe(20);

    expect(runs[0]).toMatchObject({ sellerId: limited, outcome: "rate_limited" });
    expect(runs.slice(1).map((run) => run.outcome)).toEqual(others.map(() => "ok"));
    expect(runs.filter((run) => run.sellerId === limited)).toHaveLength(1);
    const after = await syncOf(limited);
    // Its next slot is the Retry-After away; it is not counted as reconciled; the panel says why.
    const wait = after.nextRunAt!.getTime() - runs[0]!.endedAt;
    expect(wait).toBeGreaterThan(28_000);
    expect(wait).toBeLessThan(31_000);
    expect(after.lastReconciledAt).toEqual(before.lastReconciledAt);
    expect(JSON.parse(after.lastError!)).toMatchObject({ problem: { kind: "error", status: 429, retryAfterMs: 30_000 } });

    // The Webhooks page: when the shop is next checked, and once two intervals have passed without a completed run, that it is behind.
    const { getConnectionHealth } = await import("@/features/webhooks/connection-health.server");
    expect(await getConnectionHealth(limited)).toMatchObject({ nextReconcileAt: after.nextRunAt, behindMinutes: null });
    await sql.query(`UPDATE "SellerSync" SET "lastReconciledAt" = now() AT TIME ZONE 'UTC' - interval '11 minutes' WHERE "sellerId" = $1`, [
      limited,
    ]);
    expect(await getConnectionHealth(limited)).toMatchObject({ behindMinutes: 11, lastError: { problem: { status: 429 } } });
  }, 40_000);

  it("a shop whose platform hangs is cut off by the timeout, delays no other, and is tried again at its next slot", async () => {
    const INTERVAL = 4_000;
    const hanging = shopOf.get(extraSeller(2).email)!;
    const others = shopIds.slice(2, 12);
    await onlyDue([hanging, ...others]);
    await sandbox.api("/_sandbox/faults", { method: "POST", json: { userFaults: { [extraSeller(2).email]: { latencyMs: 20_000 } } } });
    const runs: Run[] = [];
    startInstance(runs, { instanceId: "instance-a", intervalMs: INTERVAL, concurrency: 1, shopTimeoutMs: 1_000 });
    await expect.poll(() => new Set(runs.map((run) => run.sellerId)).size, { timeout: 20_000 }).toBe(11);

    expect(runs[0]).toMatchObject({ sellerId: hanging, outcome: "timeout" });
    expect(runs.slice(1, 11).map((run) => run.outcome)).toEqual(others.map(() => "ok"));
    expect(JSON.parse((await syncOf(hanging)).lastError!)).toMatchObject({ problem: { kind: "error", status: null } });

    // The platform answers again: the shop is reconciled at its next slot, an interval after the cut-off one.
    await sandbox.api("/_sandbox/faults", { method: "POST", json: { userFaults: null } });
    await expect
      .poll(() => runs.filter((run) => run.sellerId === hanging).map((run) => run.outcome), { timeout: 10_000 })
      .toEqual(["timeout", "ok"]);
    const [cut, retried] = runs.filter((run) => run.sellerId === hanging);
    expect(retried!.startedAt - cut!.startedAt).toBeGreaterThan(INTERVAL - 1_500);
    expect(retried!.startedAt - cut!.startedAt).toBeLessThan(INTERVAL + 1_500);
    expect((await syncOf(hanging)).lastError).toBeNull();
  }, 40_000);

  it("an instance killed mid-sweep leaves no shop unreconciled past the next interval", async () => {
    const INTERVAL = 6_000;
    const shops = shopIds.slice(20, 60);
    const emails = Array.from({ length: 40 }, (_, i) => extraSeller(21 + i).email);
    await onlyDue(shops);
    // Slow answers, so that the instance is in the middle of runs when it dies.
    await sandbox.api("/_sandbox/faults", {
      method: "POST",
      json: { userFaults: Object.fromEntries(emails.map((email) => [email, { latencyMs: 1_500 }])) },
    });
    const worker = startWorkerProcess({
      RECONCILE_INTERVAL_SECONDS: String(INTERVAL / 1000),
      RECONCILE_CONCURRENCY: "4",
      RECONCILE_SHOP_TIMEOUT_SECONDS: "3",
    });
    try {
      await expect
        .poll(async () => (await sql.query(`SELECT 1 FROM "SellerSync" WHERE "claimedBy" IS NOT NULL`)).rowCount, {
          timeout: 30_000,
          interval: 50,
        })
        .toBeGreaterThanOrEqual(4);
    } finally {
      worker.kill("SIGKILL");
    }
    const killedAt = Date.now();
    const held = (await sql.query<{ sellerId: string }>(`SELECT "sellerId" FROM "SellerSync" WHERE "claimedBy" IS NOT NULL`)).rows.map(
      (row) => row.sellerId,
    );
    expect(held.length).toBeGreaterThanOrEqual(4);
    await sandbox.api("/_sandbox/faults", { method: "POST", json: { userFaults: null } });

    const runs: Run[] = [];
    startInstance(runs, { instanceId: "survivor", intervalMs: INTERVAL, shopTimeoutMs: 3_000 });
    const reconciledSince = async () =>
      (
        await sql.query<{ n: number }>(
          `SELECT COUNT(*)::int AS n FROM "SellerSync" WHERE "sellerId" = ANY($1) AND "lastReconciledAt" >= $2`,
          [shops, new Date(killedAt - 2_000).toISOString()],
        )
      ).rows[0]!.n;
    // A held shop may have been reconciled by the dead instance just before it died (its run recorded,
    // its claim not yet released): it is still due, so the survivor runs it again once the claim expires.
    const survivorRanHeld = () => held.every((shopId) => runs.some((run) => run.sellerId === shopId));
    await expect.poll(async () => (await reconciledSince()) === shops.length && survivorRanHeld(), { timeout: 20_000 }).toBe(true);
    // Every shop, those the dead instance held included (once their claims expired), within an interval.
    const perShop = byShop(runs);
    for (const shopId of held) expect(perShop.get(shopId)?.[0]).toMatchObject({ outcome: "ok" });
    const latest = Math.max(...[...perShop.values()].map((shopRuns) => shopRuns[0]!.startedAt));
    expect(latest - killedAt).toBeLessThan(INTERVAL);
  }, 60_000);

  it("gives way to live events waiting in the instance, for a quarter of the interval at most", async () => {
    const INTERVAL = 8_000;
    const due = shopIds.slice(0, 10);
    await onlyDue(due);
    let waiting = true;
    const runs: Run[] = [];
    startInstance(runs, { instanceId: "busy", intervalMs: INTERVAL, liveEventsWaiting: () => waiting });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(runs).toEqual([]);
    waiting = false;
    const resumedAt = Date.now();
    await expect.poll(() => runs.length, { timeout: 10_000 }).toBe(due.length);
    expect(Math.min(...runs.map((run) => run.startedAt)) - resumedAt).toBeLessThan(1_000);
    await Promise.all(running.splice(0).map((instance) => instance.stop()));

    // Events that never stop waiting hold the checks back a quarter of the interval, then every due shop is checked.
    await onlyDue(due);
    const flooded: Run[] = [];
    const floodStarted = Date.now();
    startInstance(flooded, { instanceId: "flooded", intervalMs: INTERVAL, liveEventsWaiting: () => true });
    await expect.poll(() => flooded.length, { timeout: 10_000 }).toBe(due.length);
    const starts = flooded.map((run) => run.startedAt - floodStarted);
    expect(Math.min(...starts)).toBeGreaterThanOrEqual(INTERVAL / 4 - 100);
    expect(Math.max(...starts)).toBeLessThan(INTERVAL / 2);
  }, 60_000);
});

/** `npm run worker` as its own process, on this test's database and sandbox. */
function startWorkerProcess(env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/worker.ts"], {
    env: { ...process.env, ...env, WEBHOOK_PROCESSING: "worker", METRICS_PORT: "off", LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return child;
}
