// `npm start`: the production server. Applies pending migrations, then serves the dashboard with
// `next start`, and, only when the platform URLs point at this machine (sandbox mode), the sandbox
// beside it. Against a real platform nothing but the dashboard runs.
import { spawnSync } from "node:child_process";
import concurrently from "concurrently";
import { env } from "../lib/env.js";

const migrated = spawnSync("npx", ["tsx", "scripts/migrate.ts"], { stdio: "inherit" });
if (migrated.status !== 0) process.exit(migrated.status ?? 1);

const port = process.env.PORT ?? "3000";
const commands = [{ name: "web", command: `npx next start --port ${port}`, prefixColor: "magenta" }];
if (env.SANDBOX_MODE) commands.unshift({ name: "sandbox", command: "npx tsx sandbox/main.ts", prefixColor: "cyan" });

const { result } = concurrently(commands, { killOthersOn: ["failure", "success"] });
result.then(
  () => process.exit(0),
  () => process.exit(1),
);
