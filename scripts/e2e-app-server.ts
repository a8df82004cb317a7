// The dashboard as the e2e tests see it: a fresh database of its own (E2E_DATABASE on the embedded
// server, or on DATABASE_URL's server), migrations applied, a production build served by
// `next start`. Started by Playwright's webServer (playwright.config.ts).
import { spawn, spawnSync } from "node:child_process";
import { E2E_DATABASE } from "../tests/e2e/ports";
import { migrateFreshDatabase } from "./migrate";

function step(command: string, args: string[]) {
  const result = spawnSync(command, args, { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const url = await migrateFreshDatabase(E2E_DATABASE);
// `npm run build` regenerates the Prisma client first, so a schema change is never built stale.
if (process.env.E2E_SKIP_BUILD !== "1") step("npm", ["run", "build"]);

// Metrics off (playwright.config.ts sets it for every process of the run): a `npm run dev` or
// `npm start` on the same machine holds the default metrics port.
const server = spawn("npx", ["next", "start", "--port", process.env.E2E_APP_PORT ?? "3100"], {
  stdio: "inherit",
  env: { ...process.env, DATABASE_URL: url, METRICS_PORT: process.env.METRICS_PORT ?? "off" },
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => server.kill(signal));
}
server.on("exit", (code) => process.exit(code ?? 0));
