// npm run db:new-migration -- <name_in_snake_case>
//
// Writes the next migration from the changes made to prisma/schema.prisma: `prisma migrate diff`
// from the migration history (replayed into a throwaway shadow database, which
// prisma/cli-adapter.ts creates and drops) to the edited schema. `migrate dev --create-only`
// is not used: it works only when nothing is pending and exits 1 after writing the file.
// Review the SQL it writes, then run `npm run db:migrate`.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { prepareDatabase } from "./lib/database";
import { runPrismaCli } from "./lib/prisma-cli";

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("Usage: npm run db:new-migration -- <name_in_snake_case>");
  process.exit(1);
}

const migrationsDir = path.join("prisma", "migrations");
// The shadow database is created on the same server as the project's database.
const { url } = await prepareDatabase();
const diff = runPrismaCli(
  ["migrate", "diff", "--from-migrations", migrationsDir, "--to-schema-datamodel", path.join("prisma", "schema.prisma"), "--script"],
  { databaseUrl: url, stdio: "pipe" },
);
if (diff.status !== 0) {
  console.error(`prisma migrate diff failed:\n${diff.stdout}${diff.stderr}`);
  process.exit(1);
}
if (!/\b(CREATE|ALTER|DROP|INSERT|UPDATE|DELETE|COMMENT)\b/.test(diff.stdout)) {
  console.log("The schema matches the migrations: nothing to create.");
  process.exit(0);
}
const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
const dir = path.join(migrationsDir, `${stamp}_${name}`);
mkdirSync(dir);
writeFileSync(path.join(dir, "migration.sql"), diff.stdout);
// The client must match the edited schema too (lib/generated is not committed).
runPrismaCli(["generate"], { databaseUrl: url, stdio: "pipe" });
console.log(`Created ${dir}/migration.sql and regenerated the Prisma client — review the SQL, then run npm run db:migrate.`);
