// Creates a migration from the changes made to prisma/schema.prisma:
//   npm run db:new-migration -- <name>
//
// `prisma migrate dev --create-only` cannot be used: with a driver adapter its shadow database
// fails (P3006), and `migrate diff --from-schema-datasource` is refused. So: apply the existing
// migrations to a scratch SQLite file, introspect it into a scratch schema (`db pull`, which works
// through the adapter) and diff that against the edited schema. The diff is SQL-level, so it is
// exactly what `migrate deploy` will need to run.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("Usage: npm run db:new-migration -- <name_in_snake_case>");
  process.exit(1);
}

const root = process.cwd();
const migrationsDir = path.join(root, "prisma", "migrations");
// Inside the project (under the gitignored .data/) so the scratch config resolves node_modules.
mkdirSync(path.join(root, ".data"), { recursive: true });
const scratch = mkdtempSync(path.join(root, ".data", "new-migration-"));

try {
  const dbFile = path.join(scratch, "scratch.db");
  const db = new Database(dbFile);
  for (const dir of readdirSync(migrationsDir).filter((entry) => /^\d+_/.test(entry)).sort()) {
    db.exec(readFileSync(path.join(migrationsDir, dir, "migration.sql"), "utf8"));
  }
  db.close();

  const schemaFile = path.join(scratch, "schema.prisma");
  // The generator block with engineType "client" keeps the CLI from downloading a query engine.
  writeFileSync(
    schemaFile,
    `generator client {\n  provider   = "prisma-client"\n  output     = "./generated"\n  engineType = "client"\n}\n\n` +
      `datasource db {\n  provider = "sqlite"\n  url      = "file:${dbFile}"\n}\n`,
  );
  const configFile = path.join(scratch, "prisma.config.ts");
  writeFileSync(
    configFile,
    [
      'import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";',
      'import { defineConfig } from "prisma/config";',
      "export default defineConfig({",
      `  schema: ${JSON.stringify(schemaFile)},`,
      '  engine: "js",',
      "  experimental: { adapter: true },",
      `  adapter: async () => new PrismaBetterSQLite3({ url: ${JSON.stringify(`file:${dbFile}`)} }),`,
      "});",
    ].join("\n"),
  );
  const prisma = path.join(root, "node_modules", ".bin", "prisma");
  execFileSync(prisma, ["db", "pull", "--config", configFile], { cwd: root, stdio: "pipe" });

  const sql = execFileSync(
    prisma,
    ["migrate", "diff", "--from-schema-datamodel", schemaFile, "--to-schema-datamodel", path.join(root, "prisma", "schema.prisma"), "--script"],
    { cwd: root, encoding: "utf8" },
  );
  if (!/\b(CREATE|ALTER|DROP|INSERT|PRAGMA)\b/.test(sql)) {
    console.log("The schema matches the migrations: nothing to create.");
    process.exit(0);
  }
  const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  const dir = path.join(migrationsDir, `${stamp}_${name}`);
  mkdirSync(dir);
  writeFileSync(path.join(dir, "migration.sql"), sql);
  console.log(`Created ${path.relative(root, dir)}/migration.sql — review it, then run npm run db:migrate.`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
