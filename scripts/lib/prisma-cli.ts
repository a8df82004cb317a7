// Runs the Prisma CLI the way this project needs it on PostgreSQL: with prisma/cli-preload.cjs
// (so a finished command exits at once instead of idling 10 s), no telemetry look-up (offline),
// and DATABASE_URL pointing at the database prepared by scripts/lib/database.ts.
import { spawnSync } from "node:child_process";
import type { SpawnSyncReturns } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
const PRISMA_CLI = path.join(path.dirname(require.resolve("prisma/package.json")), "build", "index.js");
const PRELOAD = path.resolve(import.meta.dirname, "..", "..", "prisma", "cli-preload.cjs");

export function runPrismaCli(args: string[], options: { databaseUrl: string; stdio?: "inherit" | "pipe" }): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, ["--require", PRELOAD, PRISMA_CLI, ...args], {
    encoding: "utf8",
    stdio: options.stdio ?? "inherit",
    env: { ...process.env, DATABASE_URL: options.databaseUrl, CHECKPOINT_DISABLE: "1", PRISMA_HIDE_UPDATE_MESSAGE: "1" },
  });
}
