// npm run db:migrate: applies pending migrations, offline. With DATABASE_URL unset it first starts
// the embedded PostgreSQL (reusing it when it already runs) and creates its database. Used by
// `npm run dev`, `npm start`, the e2e web server and the test suites' template database.
//
// `prisma migrate deploy`, not `migrate dev`: deploy never generates migrations or resets data,
// takes an advisory lock (instances starting together apply each migration once), and works on an
// empty database (docs/decisions/0001-postgresql-only-embedded-by-default.md).
import { databaseUrl, dropDatabase, prepareDatabase } from "./lib/database";
import { runPrismaCli } from "./lib/prisma-cli";

export async function migrate(options: { database?: string; quiet?: boolean } = {}): Promise<string> {
  const { url } = await prepareDatabase({ database: options.database });
  const result = runPrismaCli(["migrate", "deploy"], { databaseUrl: url, stdio: options.quiet ? "pipe" : "inherit" });
  if (result.status !== 0) {
    throw new Error(`prisma migrate deploy failed (exit ${result.status}):\n${result.stdout ?? ""}${result.stderr ?? ""}`);
  }
  return url;
}

/** A database of its own for a run (the e2e suite's, a benchmark's): dropped, created, migrated. */
export async function migrateFreshDatabase(name: string): Promise<string> {
  // The server up first (the embedded one started if it is not running), so that a database an
  // earlier run left is really dropped: swallowing the failed drop of a server not yet started
  // migrated what that database held, a schema of another checkout included.
  await prepareDatabase({ database: name });
  await dropDatabase(databaseUrl(name));
  return migrate({ database: name, quiet: true });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await migrate({ database: process.argv[2] }).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
