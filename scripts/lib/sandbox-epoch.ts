// `npm run dev` keeps the dashboard's database in step with the sandbox it starts. The sandbox
// names each life of its platform with an epoch (GET /_sandbox/health; a new one whenever it seeds
// from scratch). This module records the epoch the dashboard's database was filled under, and when
// the sandbox answers another one, clears what the database holds of the platform that is gone.
// Decision 0015 (docs/decisions/0015-workbench-state.md).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { z } from "zod";
import { RECEIVER_CHANGED_CHANNEL, SESSIONS_CHANGED_CHANNEL } from "../../lib/db-channels";
import { isLoopbackUrl, type Env } from "../../lib/env.js";
import { DATA_DIR } from "../../lib/embedded-database.js";

/** Where `npm run dev`'s sandbox keeps its state, and where the dashboard's epoch is recorded beside it. */
export const DEV_SANDBOX_DIR = path.join(DATA_DIR, "sandbox");
export const DEV_SANDBOX_STATE_FILE = path.join(DEV_SANDBOX_DIR, "state.json");
export const DASHBOARD_EPOCH_FILE = path.join(DEV_SANDBOX_DIR, "dashboard-epoch");

export function readDashboardEpoch(file = DASHBOARD_EPOCH_FILE): string | null {
  try {
    return readFileSync(file, "utf8").trim() || null;
  } catch {
    return null;
  }
}

export function writeDashboardEpoch(epoch: string, file = DASHBOARD_EPOCH_FILE): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${epoch}\n`);
  renameSync(temporary, file);
}

const healthSchema = z.object({ epoch: z.string().min(1) });

/** The sandbox's epoch; throws when it does not answer, or answers without one. */
export async function fetchSandboxEpoch(sandboxUrl: string): Promise<string> {
  const response = await fetch(new URL("/_sandbox/health", sandboxUrl), { signal: AbortSignal.timeout(5_000) });
  if (!response.ok) throw new Error(`GET /_sandbox/health answered HTTP ${response.status}`);
  const parsed = healthSchema.safeParse(await response.json().catch(() => null));
  if (!parsed.success) throw new Error("GET /_sandbox/health answered without an epoch");
  return parsed.data.epoch;
}

export interface ClearedPlatform {
  shops: number;
  people: number;
}

/**
 * Deletes what the dashboard's database holds of a platform that is gone, in one transaction:
 * every shop (its connection, mirrors, SKUs, prices, costs, events, live messages, audit and
 * invitations go by cascade), and every person with their sessions and passkeys (they came in
 * through that platform's sign-in or an invitation to one of its shops: none may stay signed in
 * to a shop that no longer exists), and pending passkey challenges. The migrations stay.
 */
export async function clearDashboardDatabase(databaseUrl: string): Promise<ClearedPlatform> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("BEGIN");
    const shops = await client.query<{ id: string }>(`DELETE FROM "Seller" RETURNING "id"`);
    const people = await client.query<{ id: string }>(`DELETE FROM "Person" RETURNING "id"`);
    await client.query(`DELETE FROM "PasskeyChallenge"`);
    await client.query("COMMIT");
    const announce = (channel: string, ids: string[]) =>
      client.query(`SELECT pg_notify($1, id) FROM unnest($2::text[]) AS id`, [channel, ids]).catch(() => {});
    await announce(
      RECEIVER_CHANGED_CHANNEL,
      shops.rows.map((row) => row.id),
    );
    await announce(
      SESSIONS_CHANGED_CHANNEL,
      people.rows.map((row) => row.id),
    );
    return { shops: shops.rowCount ?? 0, people: people.rowCount ?? 0 };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

export type EpochOutcome = { kind: "same" } | ({ kind: "cleared"; previous: string | null; epoch: string } & ClearedPlatform);

/**
 * Brings the dashboard's database to the sandbox's `epoch`: nothing when it was filled under it;
 * else cleared, and the epoch recorded (after the clearing, so an interrupted one is done again).
 */
export async function followEpoch(epoch: string, options: { databaseUrl: string; epochFile?: string }): Promise<EpochOutcome> {
  const file = options.epochFile ?? DASHBOARD_EPOCH_FILE;
  const previous = readDashboardEpoch(file);
  if (previous === epoch) return { kind: "same" };
  const cleared = await clearDashboardDatabase(options.databaseUrl);
  writeDashboardEpoch(epoch, file);
  return { kind: "cleared", previous, epoch, ...cleared };
}

/** The line `npm run dev` prints for an outcome; null when there is nothing to say. */
export function describeOutcome(outcome: EpochOutcome): string | null {
  if (outcome.kind === "same") return null;
  const what = `cleared ${outcome.shops} shop${outcome.shops === 1 ? "" : "s"} (and ${outcome.people} ${outcome.people === 1 ? "person" : "people"}) from the dashboard's database`;
  if (outcome.previous !== null) return `sandbox was reset: ${what}`;
  // First start with no epoch recorded: quiet unless the database held shops of an unknown platform.
  return outcome.shops + outcome.people > 0
    ? `sandbox started from its seed, and the dashboard's database held another platform's data: ${what}`
    : null;
}

/**
 * Whether `npm run dev` may clear the dashboard's database when its sandbox starts over: only when
 * the dashboard talks to that sandbox, and the database is the embedded one (a DATABASE_URL may be
 * a real deployment's) unless DEV_CLEAR_ON_SANDBOX_RESET=1 says otherwise.
 */
export function epochFollowing(env: Env): { follow: true } | { follow: false; why: string } {
  const base = new URL(env.MARKETPLACE_BASE_URL);
  if (!env.SANDBOX_MODE || !isLoopbackUrl(env.MARKETPLACE_BASE_URL) || Number(base.port || 80) !== env.SANDBOX_PORT) {
    return { follow: false, why: `the dashboard talks to ${env.MARKETPLACE_BASE_URL}, not to the sandbox on port ${env.SANDBOX_PORT}` };
  }
  if (!env.EMBEDDED_DATABASE && env.DEV_CLEAR_ON_SANDBOX_RESET !== "1") {
    return { follow: false, why: "DATABASE_URL is set (DEV_CLEAR_ON_SANDBOX_RESET=1 lets npm run dev clear that database too)" };
  }
  return { follow: true };
}

export interface EpochFollower {
  stop: () => void;
}

/**
 * Polls the sandbox's epoch every `intervalMs` and follows it (followEpoch), printing a line when
 * it clears something. A sandbox that does not answer yet (starting, restarting) is waited for
 * quietly; any other failure is printed once, until things work again.
 */
export function startEpochFollower(options: {
  sandboxUrl: string;
  databaseUrl: string;
  epochFile?: string;
  intervalMs?: number;
  log?: (line: string) => void;
}): EpochFollower {
  const log = options.log ?? ((line: string) => console.log(line));
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let lastProblem: string | null = null;
  const tick = async () => {
    try {
      const outcome = await followEpoch(await fetchSandboxEpoch(options.sandboxUrl), options);
      const line = describeOutcome(outcome);
      if (line !== null) log(line);
      lastProblem = null;
    } catch (error) {
      // fetch's TypeError or a timeout: nothing listens yet. Anything else is worth saying.
      const notListening = error instanceof TypeError || (error instanceof Error && error.name === "TimeoutError");
      const problem = error instanceof Error ? error.message : String(error);
      if (!notListening && problem !== lastProblem) {
        log(`could not follow the sandbox's resets: ${problem}`);
        lastProblem = problem;
      }
    }
    if (!stopped) {
      timer = setTimeout(() => void tick(), options.intervalMs ?? 2_000);
      timer.unref();
    }
  };
  void tick();
  return {
    stop: () => {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
    },
  };
}
