// Vitest's global setup: the database server for the integration tests (the embedded one, started
// or reused, when DATABASE_URL is unset) and one migrated template database per run. Each test
// file that needs a database copies the template (tests/support/database.ts): tens of
// milliseconds, and files never see each other's rows.
import type { TestProject } from "vitest/node";
import { databaseUrl } from "../../scripts/lib/database";
import { dropDatabase, onServer, withDatabase } from "../../prisma/pg-admin";
import { migrate } from "../../scripts/migrate";

const RUN_PREFIX = `test_${process.pid}`;

declare module "vitest" {
  export interface ProvidedContext {
    templateDatabaseUrl: string;
  }
}

async function dropRunDatabases(anyUrl: string) {
  const { rows } = await onServer(anyUrl, (client) =>
    client.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE $1", [`${RUN_PREFIX}%`]),
  );
  for (const { datname } of rows) await dropDatabase(withDatabase(anyUrl, datname));
}

export default async function setup(project: TestProject) {
  const templateUrl = await migrate({ database: `${RUN_PREFIX}_template`, quiet: true });
  project.provide("templateDatabaseUrl", templateUrl);
  return async () => {
    await dropRunDatabases(databaseUrl());
  };
}
