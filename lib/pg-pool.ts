import "server-only";
import pg from "pg";
import { env } from "@/lib/env";

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

function createPool() {
  const pool = new pg.Pool({ ...connectionConfig(), max: 6, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 5_000 });
  // An idle client's error (the server restarted, a connection was cut) must not crash the
  // process: the pool drops that client and the next query opens a new one.
  pool.on("error", (error) => console.error(`[db] idle connection lost: ${error.message}`));
  return pool;
}

const globalForPool = globalThis as unknown as { pgPool?: pg.Pool };

export const pool = globalForPool.pgPool ?? createPool();
globalForPool.pgPool = pool;

/** The database's clock in UTC, as Prisma's DateTime columns hold it. */
export const DB_NOW = `(now() AT TIME ZONE 'UTC')`;
