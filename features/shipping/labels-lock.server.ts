import "server-only";
import pg from "pg";
import { log } from "@/lib/log.server";
import { connectionConfig } from "@/lib/pg-pool.server";

// One labels run at a time per shop, whichever instance serves it (decision 0013): a session
// advisory lock on a connection of the run's own, so it goes with the connection when the run
// ends or its process dies. Not a pooled connection: a run holds it for as long as it lasts, which
// in the shared pool would keep it from processing.

const LOCK_SPACE = "labels-run";

// A session outlives its client only until PostgreSQL notices the client is gone: a process that
// dies closes its socket at once, a machine that vanishes is noticed by these keepalives (TCP only).
const KEEPALIVES = "-c tcp_keepalives_idle=30 -c tcp_keepalives_interval=10 -c tcp_keepalives_count=3";

const lockLog = log.child({ component: "labels-lock" });

export interface LabelsRunLock {
  /**
   * Ends the lock's connection, and with it the lock; resolves when PostgreSQL has let go, or after
   * a second on a connection that no longer answers. Never throws; again is a no-op.
   */
  release(): Promise<void>;
}

/** A second at most: the run's stream waits for this before it ends. */
const RELEASE_WAIT_MS = 1_000;

/** Null while another run of this shop holds it, on this instance or another. */
export async function tryLockLabelsRun(shopId: string): Promise<LabelsRunLock | null> {
  const config = connectionConfig();
  const client = new pg.Client({
    ...config,
    application_name: "dashboard-labels-lock",
    connectionTimeoutMillis: 5_000,
    options: [config.options, KEEPALIVES].filter(Boolean).join(" "),
  });
  // A connection lost mid-run loses the lock with it; the run goes on.
  client.on("error", (error) => lockLog.warn({ err: error, shopId }, "labels lock connection lost"));
  const end = () => client.end().catch(() => {});
  try {
    await client.connect();
    const { rows } = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock(hashtext($1), hashtext($2)) AS locked", [
      LOCK_SPACE,
      shopId,
    ]);
    if (rows[0]?.locked) {
      let released: Promise<void> | null = null;
      const waitAtMost = () => new Promise<void>((resolve) => setTimeout(resolve, RELEASE_WAIT_MS).unref());
      return { release: () => (released ??= Promise.race([end(), waitAtMost()])) };
    }
  } catch (error) {
    await end();
    throw error;
  }
  await end();
  return null;
}
