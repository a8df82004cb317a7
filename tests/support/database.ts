import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { createDatabase, databaseName, withDatabase } from "../../prisma/pg-admin";

/**
 * A database of this test file's own, copied from the run's migrated template, and set as
 * DATABASE_URL: import the modules that read the environment (lib/db.server.ts, lib/pg-pool.server.ts, ...)
 * after this, with `await import(...)`.
 */
export async function useTestDatabase(): Promise<string> {
  const templateUrl = inject("templateDatabaseUrl");
  const template = databaseName(templateUrl);
  const url = withDatabase(templateUrl, `${template.replace(/_template$/, "")}_${randomBytes(4).toString("hex")}`);
  await createDatabase(url, { template });
  process.env.DATABASE_URL = url;
  return url;
}

/** A plain connection for a test to look at (or break) the database behind the code under test. */
export async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, options: "-c timezone=UTC" });
  // A test that cuts connections (a database outage) cuts this one too: that is expected.
  client.on("error", () => {});
  await client.connect();
  return client;
}
