import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import { dropDatabase, withDatabase } from "../../prisma/pg-admin";
import { connect } from "../support/database";

// The migration flow of `npm run dev` / `npm start` on a database that does not exist yet:
// creates it, applies every migration offline through the CLI adapter (prisma/cli-adapter.ts),
// and exits at once (no 10 s idle). And `db:new-migration` on an unchanged schema: the shadow
// database path works, writes nothing, and leaves no shadow database behind.
const serverUrl = inject("templateDatabaseUrl");
const name = `test_migrate_${randomBytes(4).toString("hex")}`;
const url = withDatabase(serverUrl, name);

afterAll(() => dropDatabase(url));

const run = (script: string, ...args: string[]) =>
  execFileSync("npx", ["tsx", script, ...args], { env: { ...process.env, DATABASE_URL: url }, encoding: "utf8" });

/** Its output, and how long it went on after writing the last of it (bug 4 of POSTGRES.md: 10 s idle). */
function runTimingItsEnd(script: string): Promise<{ output: string; idleAfterOutputMs: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn("npx", ["tsx", script], { env: { ...process.env, DATABASE_URL: url } });
    let output = "";
    let lastOutputAt = Date.now();
    const take = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      lastOutputAt = Date.now();
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve({ output, idleAfterOutputMs: Date.now() - lastOutputAt });
      else reject(new Error(`${script} exited with ${code}:\n${output}`));
    });
  });
}

describe("scripts/migrate.ts", () => {
  it("creates the database and applies the migrations; a second run is a no-op", async () => {
    const { output, idleAfterOutputMs } = await runTimingItsEnd("scripts/migrate.ts");
    expect(output).toMatch(/successfully applied/);
    // Bug 4 of POSTGRES.md: without the preload the CLI idles 10 s after its work. Measured from
    // its last words, not its start, so a busy machine's slower migration does not count.
    expect(idleAfterOutputMs).toBeLessThan(5_000);
    const client = await connect(url);
    try {
      const tables = await client.query<{ name: string }>("SELECT tablename::text AS name FROM pg_tables WHERE schemaname = 'public'");
      expect(tables.rows.map((row) => row.name)).toEqual(
        expect.arrayContaining(["Seller", "Connection", "WebhookEvent", "Sku", "LiveMessage", "_prisma_migrations"]),
      );
      const applied = await client.query<{ n: number }>("SELECT COUNT(*)::int AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL");
      expect(applied.rows[0]!.n).toBeGreaterThan(0);
    } finally {
      await client.end();
    }
    expect(run("scripts/migrate.ts")).toMatch(/No pending migrations/);
  }, 60_000);
});

describe("scripts/new-migration.ts", () => {
  it("finds nothing to create when the schema matches the migrations, and drops its shadow database", async () => {
    expect(run("scripts/new-migration.ts", "nothing_changed")).toMatch(/nothing to create/);
    const client = await connect(withDatabase(serverUrl, "postgres"));
    try {
      const shadows = await client.query("SELECT datname FROM pg_database WHERE datname LIKE 'prisma_shadow_%'");
      expect(shadows.rows).toEqual([]);
    } finally {
      await client.end();
    }
  }, 60_000);
});
