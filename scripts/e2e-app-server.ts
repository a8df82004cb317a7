// The dashboard as the e2e tests see it: a fresh database of its own (E2E_DATABASE on the embedded
// server, or on DATABASE_URL's server), migrations applied, a production build (made only when its
// inputs changed: scripts/build-once.ts) served by `next start`. Started by Playwright's webServer (playwright.config.ts).
import { spawn } from "node:child_process";
import { E2E_DATABASE } from "./lib/e2e-ports";
import { buildOnce } from "./build-once";
import { migrateFreshDatabase } from "./migrate";

const url = await migrateFreshDatabase(E2E_DATABASE);
// Playwright starts this with the e2e environment (E2E_APP_ENV over its own), as `npm test`'s
// build lane builds with it: unless an input changed since, the build is there already.
buildOnce(process.env);

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
