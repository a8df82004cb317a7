import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { embeddedDatabaseUrl } from "../../lib/embedded-database.js";
import { embeddedServerState, startEmbeddedServer, stopEmbeddedServer } from "../../scripts/lib/embedded-postgres";
import { freeFixedPorts } from "../support/free-port";

// The zero-setup database on a data directory and port of its own (not the one the suite uses):
// created on first start, reused while it runs, alive after the process that started it is
// killed, stopped cleanly. As root (CI) the server runs as the `postgres` user.
const parent = mkdtempSync(path.join(process.cwd(), ".data", "embedded-test-"));
// As root, the `postgres` user must be able to enter it.
chmodSync(parent, 0o755);
const dataDir = path.join(parent, "postgres");
// Random ports in the ephemeral range once collided with one of the suite's own client sockets.
const [port, otherPort, lockedPort] = (await freeFixedPorts(3)) as [number, number, number];

afterAll(() => {
  stopEmbeddedServer(dataDir);
  rmSync(parent, { recursive: true, force: true });
});

async function query(sql: string) {
  const client = new pg.Client({ connectionString: embeddedDatabaseUrl(port, "postgres") });
  await client.connect();
  try {
    return (await client.query(sql)).rows[0] as Record<string, unknown>;
  } finally {
    await client.end();
  }
}

describe("the embedded PostgreSQL", () => {
  it("initialises on first start: UTF-8, UTC, loopback only, password required", async () => {
    expect(startEmbeddedServer({ dataDir, port })).toEqual({ started: true, port });
    expect(await query("SHOW server_encoding")).toEqual({ server_encoding: "UTF8" });
    expect(await query("SHOW timezone")).toEqual({ TimeZone: "UTC" });
    expect(await query("SHOW listen_addresses")).toEqual({ listen_addresses: "127.0.0.1" });
    const noPassword = new pg.Client({ connectionString: `postgresql://postgres:wrong@127.0.0.1:${port}/postgres` });
    await expect(noPassword.connect()).rejects.toThrow(/password authentication failed/);
  }, 60_000);

  it("is reused when it already runs, and says so when asked for another port", () => {
    expect(startEmbeddedServer({ dataDir, port })).toEqual({ started: false, port });
    expect(() => startEmbeddedServer({ dataDir, port: otherPort })).toThrow(new RegExp(`already runs on port ${port}`));
  });

  it("survives the process that started it being killed, and the next start reuses it", async () => {
    expect(stopEmbeddedServer(dataDir)).toBe(true);
    // A process that starts the server, then is SIGKILLed before it can clean anything up.
    const script = [
      `import { startEmbeddedServer } from ${JSON.stringify(path.resolve("scripts/lib/embedded-postgres.ts"))};`,
      `startEmbeddedServer({ dataDir: ${JSON.stringify(dataDir)}, port: ${port} });`,
      `process.kill(process.pid, "SIGKILL");`,
    ].join("\n");
    const scriptFile = path.join(parent, "start-and-die.ts");
    writeFileSync(scriptFile, script);
    const child = spawnSync(process.execPath, ["--import", "tsx", scriptFile], { encoding: "utf8" });
    expect(child.signal).toBe("SIGKILL");
    expect(embeddedServerState(dataDir)).toMatchObject({ running: true, port });
    expect(await query("SELECT 1 AS one")).toEqual({ one: 1 });
    expect(startEmbeddedServer({ dataDir, port })).toEqual({ started: false, port });
  }, 60_000);

  it("stops cleanly, and starts again with its data", async () => {
    await query("CREATE DATABASE kept");
    expect(stopEmbeddedServer(dataDir)).toBe(true);
    expect(embeddedServerState(dataDir)).toEqual({ running: false });
    expect(stopEmbeddedServer(dataDir)).toBe(false);
    expect(startEmbeddedServer({ dataDir, port }).started).toBe(true);
    expect(await query("SELECT count(*)::int AS n FROM pg_database WHERE datname = 'kept'")).toEqual({ n: 1 });
  }, 60_000);

  it.runIf(process.getuid?.() === 0)(
    "as root, in a checkout the postgres user cannot enter, runs from a copy of its binaries under /var/tmp",
    async () => {
      const locked = path.join(parent, "locked");
      mkdirSync(locked, { mode: 0o700 });
      const lockedDataDir = path.join(locked, "project", ".data", "postgres");
      try {
        expect(startEmbeddedServer({ dataDir: lockedDataDir, port: lockedPort }).started).toBe(true);
        const state = embeddedServerState(lockedDataDir);
        expect(state).toMatchObject({ running: true, port: lockedPort });
        expect(state.running && state.dataDir.startsWith("/var/tmp/embedded-postgres-")).toBe(true);
        const client = new pg.Client({ connectionString: embeddedDatabaseUrl(lockedPort, "postgres") });
        await client.connect();
        await client.end();
      } finally {
        const state = embeddedServerState(lockedDataDir);
        stopEmbeddedServer(lockedDataDir);
        if (state.running) rmSync(path.dirname(state.dataDir), { recursive: true, force: true });
      }
    },
    60_000,
  );
});
