// `npm start`: pending migrations, then `next start` (plus a worker with WEBHOOK_PROCESSING=worker,
// and the sandbox only when the platform URLs point at this machine). Several instances may start
// on one database: each applies what is pending under Prisma's migration lock.
import concurrently from "concurrently";
import { env } from "../lib/env.js";
import { withServerNodeOptions } from "./lib/server-node-options";
import { migrate } from "./migrate";

await migrate();

const port = process.env.PORT ?? "3000";
const commands: { name: string; command: string; prefixColor: string; env?: NodeJS.ProcessEnv }[] = [
  { name: "web", command: `npx next start --port ${port}`, prefixColor: "magenta", env: withServerNodeOptions(process.env) },
];
if (env.WEBHOOK_PROCESSING === "worker") {
  commands.push({
    name: "worker",
    command: "npx tsx --conditions=react-server scripts/worker.ts",
    prefixColor: "yellow",
    env: workerEnv(),
  });
}
if (env.SANDBOX_MODE) commands.unshift({ name: "sandbox", command: "npx tsx sandbox/main.ts", prefixColor: "cyan" });

const { result } = concurrently(commands, { killOthersOn: ["failure", "success"] });
result.then(
  () => process.exit(0),
  () => process.exit(1),
);

/**
 * The worker beside the dashboard: metrics on the port after the dashboard's (two processes cannot
 * share one; 0 and off pass through), and JSON logs like `next start`'s, although the worker runs
 * without NODE_ENV=production.
 */
function workerEnv(): NodeJS.ProcessEnv {
  const metricsPort = env.METRICS_PORT === null ? "off" : String(env.METRICS_PORT === 0 ? 0 : env.METRICS_PORT + 1);
  return { ...process.env, METRICS_PORT: metricsPort, LOG_FORMAT: process.env.LOG_FORMAT || "json" };
}
