import "server-only";
import pg from "pg";
import { env } from "@/lib/env";
import { log } from "@/lib/log.server";

// Pools beside Prisma's for the paths where its per-query cost matters or it has no API (decision
// 0002). SQL written against them follows prisma/schema.prisma by hand.

const TIMESTAMP_OID = 1114;

/**
 * Prisma's DateTime is `timestamp(3)` holding UTC, so sessions run in UTC and timestamps are read
 * back as UTC whatever the process's zone (send them as ISO strings, not Dates).
 */
export function connectionConfig(): pg.ClientConfig {
  return {
    connectionString: env.DATABASE_URL,
    options: "-c timezone=UTC",
    application_name: "dashboard",
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === TIMESTAMP_OID
          ? (value: string) => new Date(`${value.replace(" ", "T")}Z`)
          : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
    },
  };
}

function createPool(max: number, name: string, maxUses = Infinity) {
  const pool = new pg.Pool({
    ...connectionConfig(),
    application_name: name,
    maxUses,
    max,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
  });
  // An idle client's error must not crash the process; the pool replaces that client.
  pool.on("error", (error) => log.error({ component: "db", pool: name, err: error }, "idle connection lost"));
  return pool;
}

/** Group commits in flight at once (features/webhooks/store.server.ts); new events gather meanwhile. */
export const RECEIVER_WRITES_IN_FLIGHT = 4;

/**
 * Batches a receiver connection writes before it is replaced. PostgreSQL keeps a prepared
 * statement's generic plan for the connection's life, and one made while the event table was
 * nearly empty counts a body's copies by reading the shop's every event, so each batch costs more
 * than the last as events pile up (tests/integration/receiver-plans.test.ts). A new connection
 * plans against the table as it is. Planning every batch instead (plan_cache_mode=
 * force_custom_plan) was measured at 0.3 ms a batch, with slower executions: about 0.07 ms of
 * database CPU per event.
 */
export const RECEIVER_CONNECTION_USES = 500;

const globalForPool = globalThis as unknown as { pgPool?: pg.Pool; pgReceiverPool?: pg.Pool };

/** Processing, the queue, the mirrors, health checks: everything but the receiver's writes. */
export const pool = globalForPool.pgPool ?? createPool(6, "dashboard");
globalForPool.pgPool = pool;

/** The receiver's writes only, so an acknowledgement never waits for a connection processing holds. */
export const receiverPool =
  globalForPool.pgReceiverPool ?? createPool(RECEIVER_WRITES_IN_FLIGHT, "dashboard-receiver", RECEIVER_CONNECTION_USES);
globalForPool.pgReceiverPool = receiverPool;

/** The database's clock in UTC, as Prisma's DateTime columns hold it. */
export const DB_NOW = `(now() AT TIME ZONE 'UTC')`;

/**
 * The last step of a statement that tells people something (issue 41): after a CTE named `told`
 * that inserted Notification rows RETURNING "id", their places in the fan-out to e-mail and push
 * (features/notifications/fan-out.server.ts), in the same statement.
 */
export const QUEUE_TOLD_FOR_FAN_OUT = `INSERT INTO "NotificationFanOut" ("notificationId", "createdAt") SELECT "id", ${DB_NOW} FROM told`;

/** Runs `work` in one transaction on one of the pool's connections: committed if it returns, rolled back if it throws. */
export async function inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
