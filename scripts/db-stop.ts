// npm run db:stop: stops the embedded PostgreSQL (fast shutdown: sessions end, committed data is
// kept). Nothing to do when DATABASE_URL points at a server of your own.
import { env } from "../lib/env.js";
import { stopEmbeddedServer } from "./lib/embedded-postgres";

if (!env.EMBEDDED_DATABASE) {
  console.log("DATABASE_URL is set: no embedded PostgreSQL to stop.");
} else {
  console.log(stopEmbeddedServer() ? "Embedded PostgreSQL stopped." : "Embedded PostgreSQL was not running.");
}
