// Starts the embedded PostgreSQL (made on first use, on this checkout's port) unless DATABASE_URL
// names a server. `npm test` runs it before its lanes, which would otherwise race to create and
// start the same server.
import { env } from "../lib/env.js";
import { prepareDatabase } from "./lib/database";

await prepareDatabase();
console.log(env.EMBEDDED_DATABASE ? "The embedded PostgreSQL is running." : "DATABASE_URL is set: its server is used.");
