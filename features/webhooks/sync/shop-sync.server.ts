import "server-only";
import type { PlatformProblem } from "@/lib/platform-problem";
import { db } from "@/lib/db.server";
import { DB_NOW, pool } from "@/lib/pg-pool.server";

export interface SyncState {
  cursor: Date | null;
  backfillState: string;
  backfillFrom: Date | null;
  backfillStartedAt: Date | null;
  pricesListedAt: Date | null;
}

// Through `pg`, not Prisma: these run for every shop every interval, where Prisma's CPU per query counts.

/** The seller's sync state, created empty on first use. */
export async function shopSyncState(shopId: string): Promise<SyncState> {
  const { rows } = await pool.query<SyncState>({
    name: "seller_sync_state",
    text: `
      WITH created AS (
        INSERT INTO "SellerSync" ("sellerId") VALUES ($1) ON CONFLICT ("sellerId") DO NOTHING
        RETURNING "cursor", "backfillState", "backfillFrom", "backfillStartedAt", "pricesListedAt"
      )
      SELECT * FROM created
      UNION ALL
      SELECT "cursor", "backfillState", "backfillFrom", "backfillStartedAt", "pricesListedAt" FROM "SellerSync" WHERE "sellerId" = $1`,
    values: [shopId],
  });
  return rows[0]!;
}

export async function markBackfillRunning(shopId: string, from: Date, startedAt: Date) {
  await pool.query({
    name: "seller_sync_backfill_running",
    text: `UPDATE "SellerSync" SET "backfillState" = 'running', "backfillFrom" = $2, "backfillStartedAt" = $3, "lastError" = NULL WHERE "sellerId" = $1`,
    values: [shopId, from.toISOString(), startedAt.toISOString()],
  });
}

export async function recordPageStored(shopId: string, cursor: Date, backfilledOrders: number) {
  await pool.query({
    name: "seller_sync_page_stored",
    text: `UPDATE "SellerSync" SET "cursor" = $2, "backfilledOrders" = "backfilledOrders" + $3 WHERE "sellerId" = $1`,
    values: [shopId, cursor.toISOString(), backfilledOrders],
  });
}

export async function recordRunFinished(
  shopId: string,
  run: { cursor: Date; at: Date; mode: "backfill" | "reconcile"; recovered: number },
) {
  await pool.query({
    name: "seller_sync_run_finished",
    text: `
      UPDATE "SellerSync" SET "cursor" = $2, "lastReconciledAt" = $3, "lastError" = NULL,
        "lastRecovered" = CASE WHEN $4 THEN $5 ELSE "lastRecovered" END,
        "recoveredTotal" = "recoveredTotal" + CASE WHEN $4 THEN $5 ELSE 0 END,
        "backfillState" = CASE WHEN $4 THEN "backfillState" ELSE 'done' END,
        "backfillFinishedAt" = CASE WHEN $4 THEN "backfillFinishedAt" ELSE ${DB_NOW} END
      WHERE "sellerId" = $1`,
    values: [shopId, run.cursor.toISOString(), run.at.toISOString(), run.mode === "reconcile", run.recovered],
  });
}

/** Stored as JSON; a problem is worded in the reader's language when shown. */
export type RunFailure = { problem: PlatformProblem } | { message: string };

/** A plain sentence (older rows) reads as a message. */
export function readRunFailure(stored: string | null): RunFailure | null {
  if (stored === null) return null;
  try {
    const parsed: unknown = JSON.parse(stored);
    if (parsed && typeof parsed === "object" && ("problem" in parsed || "message" in parsed)) return parsed as RunFailure;
  } catch {
    // not JSON: an older plain sentence
  }
  return { message: stored };
}

/** A run failed: shown on the Webhooks page; a running back-fill is marked failed (it resumes next time). */
export async function recordRunFailed(shopId: string, failure: RunFailure) {
  await db.shopSync.updateMany({ where: { shopId }, data: { lastError: JSON.stringify(failure) } });
  await db.shopSync.updateMany({ where: { shopId, backfillState: "running" }, data: { backfillState: "failed" } });
}

/** A shop claimed for a reconciliation run, and the slot it was due at (null: never scheduled). */
export interface ClaimedShop {
  sellerId: string;
  dueAt: Date | null;
}

/** Shops whose connection is broken are not claimed: nothing can be listed until the seller reconnects. */
const RECONCILABLE = `c."needsReconnectAt" IS NULL`;

/** Longest overdue first, for `leaseMs`. SKIP LOCKED: instances claim side by side, none waits for another. */
export async function claimDueShops(instanceId: string, limit: number, leaseMs: number): Promise<ClaimedShop[]> {
  const { rows } = await pool.query<{ sellerId: string; dueAt: Date | null }>({
    name: "reconcile_claim_due",
    text: `
      WITH due AS (
        SELECT s."sellerId" FROM "SellerSync" s JOIN "Connection" c ON c."sellerId" = s."sellerId"
        WHERE (s."nextRunAt" IS NULL OR s."nextRunAt" <= ${DB_NOW})
          AND (s."claimedUntil" IS NULL OR s."claimedUntil" < ${DB_NOW})
          AND ${RECONCILABLE}
        ORDER BY s."nextRunAt" ASC NULLS FIRST
        LIMIT $2
        FOR UPDATE OF s SKIP LOCKED
      )
      UPDATE "SellerSync" s SET "claimedBy" = $1, "claimedUntil" = ${DB_NOW} + $3::float8 * interval '1 millisecond'
      FROM due WHERE s."sellerId" = due."sellerId"
      RETURNING s."sellerId", s."nextRunAt" AS "dueAt"`,
    values: [instanceId, limit, leaseMs],
  });
  return rows;
}

/** Due or not (a shop just connected), unless a live instance holds it. */
export async function claimShop(instanceId: string, shopId: string, leaseMs: number): Promise<ClaimedShop | null> {
  await pool.query(`INSERT INTO "SellerSync" ("sellerId") VALUES ($1) ON CONFLICT ("sellerId") DO NOTHING`, [shopId]);
  const { rows } = await pool.query<{ sellerId: string; dueAt: Date | null }>(
    `UPDATE "SellerSync" SET "claimedBy" = $2, "claimedUntil" = ${DB_NOW} + $3::float8 * interval '1 millisecond'
     WHERE "sellerId" = $1 AND ("claimedUntil" IS NULL OR "claimedUntil" < ${DB_NOW})
     RETURNING "sellerId", "nextRunAt" AS "dueAt"`,
    [shopId, instanceId, leaseMs],
  );
  return rows[0] ?? null;
}

/**
 * `interval`: one interval after the slot it ran for, so shops keep their spread phases (a slot
 * missed by over an interval restarts from now); `after`: from now; `keep`: an out-of-schedule
 * run leaves the slot alone.
 */
export type NextRun = { kind: "interval"; intervalMs: number } | { kind: "after"; delayMs: number } | { kind: "keep"; intervalMs: number };

/** A claim lost meanwhile (expired and taken) is left alone. */
export async function releaseShop(instanceId: string, shopId: string, next: NextRun): Promise<void> {
  const nextRunAt = {
    interval: `CASE WHEN COALESCE("nextRunAt", ${DB_NOW}) + $3::float8 * interval '1 millisecond' > ${DB_NOW}
                    THEN COALESCE("nextRunAt", ${DB_NOW}) + $3::float8 * interval '1 millisecond'
                    ELSE ${DB_NOW} + $3::float8 * interval '1 millisecond' END`,
    after: `${DB_NOW} + $3::float8 * interval '1 millisecond'`,
    keep: `COALESCE("nextRunAt", ${DB_NOW} + random() * $3::float8 * interval '1 millisecond')`,
  }[next.kind];
  await pool.query(
    `UPDATE "SellerSync" SET "claimedBy" = NULL, "claimedUntil" = NULL, "nextRunAt" = ${nextRunAt}
     WHERE "sellerId" = $1 AND "claimedBy" = $2`,
    [shopId, instanceId, next.kind === "after" ? next.delayMs : next.intervalMs],
  );
}

/** A random first slot within the interval, so shops do not all fall due at once. */
export async function scheduleNewShops(intervalMs: number): Promise<number> {
  const { rowCount } = await pool.query(
    `INSERT INTO "SellerSync" ("sellerId", "nextRunAt")
     SELECT c."sellerId", ${DB_NOW} + random() * $1::float8 * interval '1 millisecond'
     FROM "Connection" c WHERE NOT EXISTS (SELECT 1 FROM "SellerSync" s WHERE s."sellerId" = c."sellerId")
     ON CONFLICT ("sellerId") DO NOTHING`,
    [intervalMs],
  );
  return rowCount ?? 0;
}
