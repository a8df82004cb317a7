// npm run dev: the database (the embedded PostgreSQL when DATABASE_URL is unset, started or
// reused), its migrations, then the sandbox, `next dev` and the development mail server
// (scripts/dev-mail.ts) together with prefixed logs. Ctrl-C
// stops the sandbox and the dashboard; the embedded database keeps running for the next start
// until `npm run db:stop`. The dashboard serves its Prometheus metrics on METRICS_PORT (default
// 9464; lib/metrics-server.server.ts) and logs in LOG_FORMAT=pretty.
//
// The sandbox saves its state to .data/sandbox/state.json and restores it at the next start, so
// the dashboard's database and the platform agree across restarts; when the sandbox starts over
// (a reset), what the database holds of the old platform is cleared (decision 0015).
import concurrently from "concurrently";
import { env } from "../lib/env.js";
import { canListen } from "./lib/embedded-port";
import { DEV_SANDBOX_STATE_FILE, epochFollowing, startEpochFollower } from "./lib/sandbox-epoch";
import { migrate } from "./migrate";

const databaseUrl = await migrate();
if (env.EMBEDDED_DATABASE) {
  console.log(`Embedded PostgreSQL on 127.0.0.1:${env.EMBEDDED_DATABASE_PORT} (data in .data/postgres; stop it with npm run db:stop).`);
}

// Whatever answers on the sandbox's port must be the sandbox started here before its epoch may
// clear anything: a port already taken means another one (which also stops this one starting).
const following = epochFollowing(env);
const sandboxPortFree = await canListen(env.SANDBOX_PORT);
if (!following.follow) console.log(`The dashboard's database does not follow sandbox resets: ${following.why}.`);
else if (!sandboxPortFree)
  console.log(`Port ${env.SANDBOX_PORT} is taken by another process: the dashboard's database does not follow sandbox resets.`);

const { result } = concurrently(
  [
    {
      name: "sandbox",
      command: "npx tsx sandbox/main.ts",
      prefixColor: "cyan",
      env: { ...process.env, SANDBOX_STATE_FILE: process.env.SANDBOX_STATE_FILE || DEV_SANDBOX_STATE_FILE },
    },
    { name: "web", command: "npx next dev --port 3000", prefixColor: "magenta" },
    { name: "mail", command: "npx tsx scripts/dev-mail.ts", prefixColor: "yellow" },
  ],
  { killOthersOn: ["failure", "success"] },
);
const follower =
  following.follow && sandboxPortFree
    ? startEpochFollower({ sandboxUrl: env.MARKETPLACE_BASE_URL, databaseUrl, log: (line) => console.log(`[dev] ${line}`) })
    : null;
result.then(
  () => {
    follower?.stop();
    process.exit(0);
  },
  () => {
    follower?.stop();
    process.exit(1);
  },
);
