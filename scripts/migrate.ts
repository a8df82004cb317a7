// Applies pending migrations to the SQLite database (creating .data/ and the file on first run)
// and switches it to WAL. Used by `npm run dev`, `npm start` and the e2e web server.
//
// `prisma migrate deploy` rather than `migrate dev`: deploy never generates migrations or resets
// data, and it works on an empty database where `migrate dev` fails with P1014 under the JS
// engine (see docs/decisions/0001-prisma-6-19-with-better-sqlite3.md).
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { env } from "../lib/env.js";

const file = env.DATABASE_URL.replace(/^file:/, "");
mkdirSync(path.dirname(path.resolve(file)), { recursive: true });

// WAL is a property of the database file: set once, it stays for every later connection.
const db = new Database(file);
db.pragma("journal_mode = WAL");
db.close();

const result = spawnSync("npx", ["prisma", "migrate", "deploy"], { stdio: "inherit" });
process.exit(result.status ?? 1);
