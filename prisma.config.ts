import path from "node:path";
import { defineConfig } from "prisma/config";
import { env } from "./lib/env.js";
import { prismaCliAdapter } from "./prisma/cli-adapter";

// Paths here are relative to this file. The JS engine plus a driver adapter lets the CLI run
// migrations with npm packages only (no native engine download); prisma/cli-adapter.ts works
// around the adapter's CLI bugs. The CLI is run through scripts/lib/prisma-cli.ts, which starts
// the embedded server when DATABASE_URL is unset.
export default defineConfig({
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  engine: "js",
  experimental: { adapter: true },
  adapter: async () => prismaCliAdapter(env.DATABASE_URL),
});
