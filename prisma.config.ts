import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { defineConfig } from "prisma/config";
import { env } from "./lib/env.js";

// Paths here are relative to this file. The JS engine plus a driver adapter lets the CLI run
// migrations with npm packages only (no native engine download).
export default defineConfig({
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  engine: "js",
  experimental: { adapter: true },
  adapter: async () => new PrismaBetterSQLite3({ url: env.DATABASE_URL }),
});
