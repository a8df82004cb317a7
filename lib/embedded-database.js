// The embedded PostgreSQL's names, port and password, and where development-only state lives:
// what lib/env.js defaults DATABASE_URL to, and what the scripts that start the server use. Plain
// ESM JavaScript, like lib/env.js, which imports it.
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

/** Where development-only state lives (gitignored): generated secrets, the embedded database. */
export const DATA_DIR = path.resolve(process.cwd(), ".data");

/**
 * The embedded PostgreSQL used when DATABASE_URL is unset (scripts/lib/embedded-postgres.ts
 * starts it; this module only names it). It listens on loopback only, with a password generated
 * once into .data/, and its data lives in .data/postgres. Each checkout has a port of its own,
 * chosen once by scripts/lib/embedded-port.ts and recorded in `portFile`.
 */
export const EMBEDDED_DATABASE = {
  dataDir: path.join(DATA_DIR, "postgres"),
  passwordFile: path.join(DATA_DIR, "postgres-password"),
  portFile: path.join(DATA_DIR, "embedded-postgres-port"),
  user: "postgres",
  database: "dashboard",
  /** Every checkout's port before each had its own: a data directory made then keeps it. */
  legacyPort: 54329,
  /** Checkouts' ports are chosen from these, starting at one picked by a hash of the checkout's path. */
  portRange: { first: 54330, count: 1000 },
};

export const portNumber = z.coerce.number().int().min(1024).max(65535);

/**
 * The port a checkout's embedded server is first tried on: spread over `portRange` by a hash of
 * its .data directory's path, so two checkouts on one machine rarely start from the same one.
 * @param {string} [dataRoot] the checkout's .data directory
 */
export function preferredEmbeddedPort(dataRoot = DATA_DIR) {
  const hash = createHash("sha256").update(path.resolve(dataRoot)).digest().readUInt32BE(0);
  return EMBEDDED_DATABASE.portRange.first + (hash % EMBEDDED_DATABASE.portRange.count);
}

/** @param {string} dataRoot */
export function embeddedPortFile(dataRoot) {
  return path.join(dataRoot, path.basename(EMBEDDED_DATABASE.portFile));
}

/**
 * The port recorded for the checkout whose .data directory is `dataRoot`; null when none is.
 * @param {string} [dataRoot]
 * @returns {number | null}
 */
export function recordedEmbeddedPort(dataRoot = DATA_DIR) {
  let text;
  try {
    text = readFileSync(embeddedPortFile(dataRoot), "utf8");
  } catch {
    return null;
  }
  const port = portNumber.safeParse(text.trim());
  return port.success ? port.data : null;
}

/**
 * The embedded server's port when EMBEDDED_DATABASE_PORT is unset: the recorded one. Before one is
 * recorded (the scripts that start the server record it first), the port they would record: the
 * legacy one for a data directory made before ports were recorded, else the preferred one. Only
 * reads, and cheaply: the Next.js server evaluates this module too.
 * @param {string} [dataRoot]
 */
export function defaultEmbeddedPort(dataRoot = DATA_DIR) {
  const recorded = recordedEmbeddedPort(dataRoot);
  if (recorded !== null) return recorded;
  if (existsSync(path.join(dataRoot, "postgres", "PG_VERSION"))) return EMBEDDED_DATABASE.legacyPort;
  return preferredEmbeddedPort(dataRoot);
}

/**
 * The embedded server's password, generated once (the server is initialised with it, so it must
 * never change while .data/postgres exists).
 * @returns {string}
 */
export function embeddedDatabasePassword() {
  const file = EMBEDDED_DATABASE.passwordFile;
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(DATA_DIR, { recursive: true });
  try {
    writeFileSync(file, randomBytes(24).toString("base64url"), { mode: 0o600, flag: "wx" });
  } catch {
    // Another process created it first: use theirs.
  }
  return readFileSync(file, "utf8").trim();
}

/**
 * The URL of a database on the embedded server.
 * @param {number} port
 * @param {string} [database]
 */
export function embeddedDatabaseUrl(port, database = EMBEDDED_DATABASE.database) {
  const password = encodeURIComponent(embeddedDatabasePassword());
  return `postgresql://${EMBEDDED_DATABASE.user}:${password}@127.0.0.1:${port}/${database}`;
}
