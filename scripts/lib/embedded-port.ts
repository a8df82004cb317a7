// The embedded PostgreSQL's port, one per checkout, so that two checkouts (git worktrees) on one
// machine run their servers side by side without configuration. Chosen the first time a script
// starts the server, recorded in .data/embedded-postgres-port and reused from then on; lib/env.js
// only reads it (the Next.js server must not write). EMBEDDED_DATABASE_PORT still wins.
import { mkdirSync, writeFileSync } from "node:fs";
import net from "node:net";
import { EMBEDDED_DATABASE, embeddedPortFile, preferredEmbeddedPort, recordedEmbeddedPort } from "../../lib/embedded-database.js";

export type PortSource = "given" | "recorded" | "running" | "legacy" | "chosen";

export interface PortChoiceOptions {
  /** The checkout's .data directory. */
  dataRoot: string;
  /** EMBEDDED_DATABASE_PORT, when set: used as it is, and nothing is recorded. */
  given?: number | undefined;
  /**
   * The server already initialised on this checkout's data directory, if any: `port` is where it
   * runs, null when it is stopped. Asked only when no port is recorded yet.
   */
  existingServer: () => { port: number | null } | null;
  /** Whether a server could listen on the port now (default: try it on 127.0.0.1). */
  isFree?: (port: number) => Promise<boolean>;
}

/** Whether something could listen on 127.0.0.1:`port` right now (the embedded server listens there only). */
export function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen({ port, host: "127.0.0.1", exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * Records `port` unless another process recorded one first (two scripts starting together): then
 * theirs is the checkout's port.
 */
function record(dataRoot: string, port: number): number {
  const file = embeddedPortFile(dataRoot);
  mkdirSync(dataRoot, { recursive: true });
  try {
    writeFileSync(file, `${port}\n`, { flag: "wx" });
    return port;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const theirs = recordedEmbeddedPort(dataRoot);
    if (theirs === null) throw new Error(`${file} does not hold a port number: delete it, and a port is chosen again.`);
    return theirs;
  }
}

/**
 * This checkout's port: EMBEDDED_DATABASE_PORT when given; else the recorded one; else, the first
 * time, recorded now: where a server made before ports were recorded runs (or the legacy port,
 * free, when it is stopped), or the first free port of the range from the checkout's preferred
 * one on.
 */
export async function chooseEmbeddedPort(options: PortChoiceOptions): Promise<{ port: number; source: PortSource }> {
  if (options.given !== undefined) return { port: options.given, source: "given" };
  const recorded = recordedEmbeddedPort(options.dataRoot);
  if (recorded !== null) return { port: recorded, source: "recorded" };
  const isFree = options.isFree ?? canListen;
  const existing = options.existingServer();
  if (existing !== null && existing.port !== null) return { port: record(options.dataRoot, existing.port), source: "running" };
  // A stopped server made when every checkout used the legacy port keeps it, unless another
  // checkout's server holds it now (the port is given at each start, so any other one works too).
  if (existing !== null && (await isFree(EMBEDDED_DATABASE.legacyPort)))
    return { port: record(options.dataRoot, EMBEDDED_DATABASE.legacyPort), source: "legacy" };
  const { first, count } = EMBEDDED_DATABASE.portRange;
  const start = preferredEmbeddedPort(options.dataRoot) - first;
  for (let step = 0; step < count; step++) {
    const port = first + ((start + step) % count);
    if (await isFree(port)) return { port: record(options.dataRoot, port), source: "chosen" };
  }
  throw new Error(`No free port for the embedded PostgreSQL between ${first} and ${first + count - 1}: set EMBEDDED_DATABASE_PORT to one.`);
}
