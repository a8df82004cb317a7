// Getting a database ready for a script: the embedded server started when DATABASE_URL is unset
// (nothing is started when it is set), and the named database created when missing. Used by
// npm run dev / start / db:migrate, the test suites and the benchmarks.
import { embeddedDatabaseUrl, env } from "../../lib/env.js";
import { startEmbeddedServer } from "./embedded-postgres";
import { createDatabase, withDatabase } from "./pg-admin";

export { createDatabase, databaseName, dropDatabase, withDatabase } from "./pg-admin";

/**
 * The URL of database `name` on the server in use (the embedded one, or DATABASE_URL's), or of
 * DATABASE_URL's own database when no name is given. Starts nothing.
 */
export function databaseUrl(name?: string): string {
  if (!name) return env.DATABASE_URL;
  return env.EMBEDDED_DATABASE ? embeddedDatabaseUrl(env.EMBEDDED_DATABASE_PORT, name) : withDatabase(env.DATABASE_URL, name);
}

/**
 * The database a script should use: DATABASE_URL, or the embedded server (started if needed).
 * `database` names another database on the same server (the e2e run's, a benchmark's).
 */
export async function prepareDatabase(options: { database?: string } = {}): Promise<{ url: string }> {
  const url = databaseUrl(options.database);
  if (env.EMBEDDED_DATABASE) startEmbeddedServer({ port: env.EMBEDDED_DATABASE_PORT });
  if (env.EMBEDDED_DATABASE || options.database) {
    await createDatabase(url);
  } else {
    // A deployment's own database usually exists already, and its user may not be allowed to
    // create one (or to connect to the `postgres` database): then the migration says what fails.
    await createDatabase(url).catch(() => false);
  }
  return { url };
}
