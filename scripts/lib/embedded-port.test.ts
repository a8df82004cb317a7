import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseEnv } from "../../lib/env.js";
import { defaultEmbeddedPort, EMBEDDED_DATABASE, preferredEmbeddedPort } from "../../lib/embedded-database.js";
import { chooseEmbeddedPort } from "./embedded-port";

// Each temporary directory stands for a checkout's .data folder (not created: a fresh clone has none).
const parent = mkdtempSync(path.join(tmpdir(), "checkouts-"));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

let made = 0;
const newCheckout = () => path.join(parent, `checkout-${++made}`, ".data");
const noServer = () => null;
const everyPortFree = () => Promise.resolve(true);
const recordedIn = (dataRoot: string) => readFileSync(path.join(dataRoot, "embedded-postgres-port"), "utf8").trim();

/** Two checkouts whose paths hash to the same preferred port, or to different ones. */
function twoCheckouts(samePreferredPort: boolean): [string, string] {
  const seen = new Map<number, string>();
  for (let tries = 0; tries < 20_000; tries++) {
    const dataRoot = newCheckout();
    const preferred = preferredEmbeddedPort(dataRoot);
    const other = samePreferredPort ? seen.get(preferred) : [...seen.entries()].find(([port]) => port !== preferred)?.[1];
    if (other !== undefined) return [other, dataRoot];
    seen.set(preferred, dataRoot);
  }
  throw new Error("no such pair of checkouts");
}

/** Holds a port as a checkout's running server would. */
async function occupy(port: number): Promise<net.Server> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port, host: "127.0.0.1", exclusive: true }, resolve);
  });
  return server;
}

describe("the embedded PostgreSQL's port", () => {
  it("differs between two checkouts' .data folders, each recorded there, inside the range", async () => {
    const [first, second] = twoCheckouts(false);
    const a = await chooseEmbeddedPort({ dataRoot: first, existingServer: noServer, isFree: everyPortFree });
    const b = await chooseEmbeddedPort({ dataRoot: second, existingServer: noServer, isFree: everyPortFree });
    expect(a.source).toBe("chosen");
    expect(a.port).not.toBe(b.port);
    expect(recordedIn(first)).toBe(String(a.port));
    expect(recordedIn(second)).toBe(String(b.port));
    for (const { port } of [a, b]) {
      expect(port).toBeGreaterThanOrEqual(EMBEDDED_DATABASE.portRange.first);
      expect(port).toBeLessThan(EMBEDDED_DATABASE.portRange.first + EMBEDDED_DATABASE.portRange.count);
    }
  });

  it("moves on from a port another checkout's server holds, even when both checkouts start from the same one", async () => {
    const [first, second] = twoCheckouts(true);
    const a = await chooseEmbeddedPort({ dataRoot: first, existingServer: noServer });
    const held = await occupy(a.port);
    try {
      const b = await chooseEmbeddedPort({ dataRoot: second, existingServer: noServer });
      expect(b.port).not.toBe(a.port);
      expect(recordedIn(second)).toBe(String(b.port));
    } finally {
      held.close();
    }
  });

  it("is reused once recorded, whatever is free, and lib/env.js reads the same one", async () => {
    const dataRoot = newCheckout();
    const { port } = await chooseEmbeddedPort({ dataRoot, existingServer: noServer, isFree: everyPortFree });
    const again = await chooseEmbeddedPort({
      dataRoot,
      existingServer: () => {
        throw new Error("not asked once a port is recorded");
      },
      isFree: () => Promise.resolve(false),
    });
    expect(again).toEqual({ port, source: "recorded" });
    expect(defaultEmbeddedPort(dataRoot)).toBe(port);
  });

  it("is EMBEDDED_DATABASE_PORT when it is set, recording nothing", async () => {
    const dataRoot = newCheckout();
    const { port } = await chooseEmbeddedPort({ dataRoot, existingServer: noServer, isFree: everyPortFree });
    expect(await chooseEmbeddedPort({ dataRoot, given: 61_234, existingServer: noServer })).toEqual({ port: 61_234, source: "given" });
    expect(recordedIn(dataRoot)).toBe(String(port));
    const env = parseEnv({ EMBEDDED_DATABASE_PORT: "61234" });
    expect(env.EMBEDDED_DATABASE_PORT).toBe(61_234);
    expect(env.EMBEDDED_DATABASE_PORT_GIVEN).toBe(true);
    expect(env.DATABASE_URL).toContain("@127.0.0.1:61234/");
    expect(parseEnv({}).EMBEDDED_DATABASE_PORT_GIVEN).toBe(false);
  });

  it("stays 54329 for a data directory made before ports were recorded, or is where its server runs", async () => {
    const stopped = newCheckout();
    mkdirSync(path.join(stopped, "postgres"), { recursive: true });
    writeFileSync(path.join(stopped, "postgres", "PG_VERSION"), "18\n");
    // Before any script has run, lib/env.js already says 54329.
    expect(defaultEmbeddedPort(stopped)).toBe(54329);
    expect(await chooseEmbeddedPort({ dataRoot: stopped, existingServer: () => ({ port: null }), isFree: everyPortFree })).toEqual({
      port: 54329,
      source: "legacy",
    });
    expect(recordedIn(stopped)).toBe("54329");

    const running = newCheckout();
    expect(await chooseEmbeddedPort({ dataRoot: running, existingServer: () => ({ port: 54400 }), isFree: everyPortFree })).toEqual({
      port: 54400,
      source: "running",
    });

    // A stopped old server whose port another checkout holds now gets a port of the range.
    const crowded = newCheckout();
    const chosen = await chooseEmbeddedPort({
      dataRoot: crowded,
      existingServer: () => ({ port: null }),
      isFree: (port) => Promise.resolve(port !== 54329),
    });
    expect(chosen).toEqual({ port: preferredEmbeddedPort(crowded), source: "chosen" });
  });

  it("says what to do with a port file that holds no port", async () => {
    const dataRoot = newCheckout();
    mkdirSync(dataRoot, { recursive: true });
    writeFileSync(path.join(dataRoot, "embedded-postgres-port"), "soon\n");
    await expect(chooseEmbeddedPort({ dataRoot, existingServer: noServer, isFree: everyPortFree })).rejects.toThrow(
      /does not hold a port number: delete it/,
    );
  });
});
