// The dashboard as the e2e tests see it: a fresh database, migrations applied, a production build
// served by `next start`. Started by Playwright's webServer (playwright.config.ts).
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";

const dbFile = path.resolve((process.env.DATABASE_URL ?? "file:.data/e2e.db").replace(/^file:/, ""));
for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(dbFile + suffix, { force: true });

function step(command: string, args: string[]) {
  const result = spawnSync(command, args, { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

step("npx", ["tsx", "scripts/migrate.ts"]);
if (process.env.E2E_SKIP_BUILD !== "1") step("npx", ["next", "build"]);

const server = spawn("npx", ["next", "start", "--port", process.env.E2E_APP_PORT ?? "3100"], {
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => server.kill(signal));
}
server.on("exit", (code) => process.exit(code ?? 0));
