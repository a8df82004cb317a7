import "server-only";
import pg from "pg";
import { env } from "@/lib/env";
import { log } from "@/lib/log";

// The dashboard's own `pg` pool, beside Prisma's, for the few paths where Prisma's per-query cost
// matters or where it has no API: the webhook receiver's group commit, claiming work with
// FOR UPDATE SKIP LOCKED, LISTEN/NOTIFY. (docs/decisions/0002-webhook-receiver-hot-path.md)
// The SQL written here must follow prisma/schema.prisma by hand; the integration tests read the
// rows back through Prisma.

const TIMESTAMP_OID = 1114;

/**
 * Connection settings shared by the pool and the LISTEN connection. Prisma's DateTime is
 * `timestamp(3)` without time zone, holding UTC: the session runs in UTC (so now() and casts
 * agree), timestamps are sent as ISO strings (a JS Date would be sent in the process's zone), and
 * read back as UTC whatever the process's TZ.
 */
export function connectionConfig(): pg.ClientConfig {
  return {
    connectionString: env.DATABASE_URL,
    options: "-c timezone=UTC",
    application_name: "dashboard",
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === TIMESTAMP_OID ? (value: string) => new Date(`${value.replace(" ", "T")}Z`) : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
    },
  };
}

function createPool(max: number, name: string) {
  const pool = new pg.Pool({ ...connectionConfig(), application_name: name, max, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 5_000 });
  // An idle client's error (the server restarted, a connection was cut) must not crash the
  // process: the pool drops that client and the next query opens a new one.
  pool.on("error", (error) => log.error({ component: "db", pool: name, err: error }, "idle connection lost"));
  return pool;
}

/**
 * The webhook receiver's group commits in flight at once (lib/data/webhook-store.ts): while they
 * are written, new events gather into the next batch.
 */
export const RECEIVER_WRITES_IN_FLIGHT = 4;

const globalForPool = globalThis as unknown as { pgPool?: pg.Pool; pgReceiverPool?: pg.Pool };

/** Processing, the queue, the mirrors, health checks: everything but the receiver's writes. */
export const pool = globalForPool.pgPool ?? createPool(6, "dashboard");
globalForPool.pgPool = pool;

/**
 * The receiver's writes only, one connection per group commit in flight: a burst of processing
 * (which holds several connections while it fetches and upserts) never makes an acknowledgement
 * wait for a connection.
 */
export const receiverPool = globalForPool.pgReceiverPool ?? createPool(RECEIVER_WRITES_IN_FLIGHT, "dashboard-receiver");
globalForPool.pgReceiverPool = receiverPool;

/** The database's clock in UTC, as Prisma's DateTime columns hold it. */
export const DB_NOW = `(now() AT TIME ZONE 'UTC')`;
