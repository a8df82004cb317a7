// npm run dev: the database (the embedded PostgreSQL when DATABASE_URL is unset, started or
// reused), its migrations, then the sandbox and `next dev` together with prefixed logs. Ctrl-C
// stops the sandbox and the dashboard; the embedded database keeps running for the next start
// (0.03 s instead of a cold start) until `npm run db:stop`. The dashboard serves its Prometheus
// metrics on METRICS_PORT (default 9464; lib/metrics-server.ts) and logs in LOG_FORMAT=pretty.
import concurrently from "concurrently";
import { env } from "../lib/env.js";
import { migrate } from "./migrate";

await migrate();
if (env.EMBEDDED_DATABASE) {
  console.log(`Embedded PostgreSQL on 127.0.0.1:${env.EMBEDDED_DATABASE_PORT} (data in .data/postgres; stop it with npm run db:stop).`);
}

const { result } = concurrently(
  [
    { name: "sandbox", command: "npx tsx sandbox/main.ts", prefixColor: "cyan" },
    { name: "web", command: "npx next dev --port 3000", prefixColor: "magenta" },
  ],
  { killOthersOn: ["failure", "success"] },
);
result.then(
  () => process.exit(0),
  () => process.exit(1),
);
