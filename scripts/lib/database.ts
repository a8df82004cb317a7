// Getting a database ready for a script: the embedded server started when DATABASE_URL is unset
// (nothing is started when it is set), and the named database created when missing. Used by
// npm run dev / start / db:migrate, the test suites and the benchmarks.
import { env } from "../../lib/env.js";
import { DATA_DIR, embeddedDatabaseUrl } from "../../lib/embedded-database.js";
import { chooseEmbeddedPort } from "./embedded-port";
import { embeddedClusterExists, embeddedServerState, startEmbeddedServer } from "./embedded-postgres";
import { createDatabase, withDatabase } from "../../prisma/pg-admin";

export { createDatabase, databaseName, dropDatabase, withDatabase } from "../../prisma/pg-admin";

/**
 * The URL of database `name` on the server in use (the embedded one, or DATABASE_URL's), or of
 * DATABASE_URL's own database when no name is given. Starts nothing.
 */
export function databaseUrl(name?: string): string {
  if (!name) return env.DATABASE_URL;
  return env.EMBEDDED_DATABASE ? embeddedDatabaseUrl(env.EMBEDDED_DATABASE_PORT, name) : withDatabase(env.DATABASE_URL, name);
}

/**
 * This checkout's embedded server port (scripts/lib/embedded-port.ts), chosen and recorded the
 * first time. lib/env.js was read before that, when this process started, and guessed what would
 * be chosen: when the guess was wrong (the preferred port was taken) it is corrected here, so that
 * everything in this process, databaseUrl() included, uses the recorded port.
 */
async function embeddedPort(): Promise<number> {
  const { port } = await chooseEmbeddedPort({
    dataRoot: DATA_DIR,
    given: env.EMBEDDED_DATABASE_PORT_GIVEN ? env.EMBEDDED_DATABASE_PORT : undefined,
    existingServer: () => {
      const state = embeddedServerState();
      if (state.running) return { port: state.port };
      return embeddedClusterExists() ? { port: null } : null;
    },
  });
  if (port !== env.EMBEDDED_DATABASE_PORT) Object.assign(env, { EMBEDDED_DATABASE_PORT: port, DATABASE_URL: embeddedDatabaseUrl(port) });
  return port;
}

/**
 * The database a script should use: DATABASE_URL, or the embedded server (started if needed).
 * `database` names another database on the same server (the e2e run's, a benchmark's).
 */
export async function prepareDatabase(options: { database?: string } = {}): Promise<{ url: string }> {
  if (env.EMBEDDED_DATABASE) startEmbeddedServer({ port: await embeddedPort() });
  const url = databaseUrl(options.database);
  if (env.EMBEDDED_DATABASE || options.database) {
    await createDatabase(url);
  } else {
    // A deployment's own database usually exists already, and its user may not be allowed to
    // create one (or to connect to the `postgres` database): then the migration says what fails.
    await createDatabase(url).catch(() => false);
  }
  return { url };
}
