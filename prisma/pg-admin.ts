// Creating and dropping databases on a PostgreSQL server, by URL. Reads no environment, so test
// files can use it before they set DATABASE_URL.
import pg from "pg";

const DATABASE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** The same server and credentials, another database. */
export function withDatabase(url: string, database: string): string {
  if (!DATABASE_NAME.test(database)) throw new Error(`Not a database name this project uses: ${database}`);
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export function databaseName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.slice(1));
}

/** Runs `work` on a connection to the server's maintenance database. */
export async function onServer<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: withDatabase(url, "postgres") });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Creates the URL's database if it does not exist, optionally as a copy of `template`. */
export async function createDatabase(url: string, options: { template?: string } = {}): Promise<boolean> {
  const name = databaseName(url);
  return onServer(url, async (client) => {
    const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (exists.rowCount) return false;
    try {
      await client.query(`CREATE DATABASE ${quote(name)}${options.template ? ` TEMPLATE ${quote(options.template)}` : ""}`);
    } catch (error) {
      // 42P04: another process created it in between.
      if ((error as { code?: string }).code !== "42P04") throw error;
      return false;
    }
    return true;
  });
}

/** Drops the URL's database, ending its sessions first. */
export async function dropDatabase(url: string): Promise<void> {
  await onServer(url, (client) => client.query(`DROP DATABASE IF EXISTS ${quote(databaseName(url))} WITH (FORCE)`));
}
