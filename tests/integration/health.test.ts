import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, useTestDatabase } from "../support/database";

// Readiness, what a load balancer polls: the real route on a real, migrated database.
let sql: pg.Client;
let GET: () => Promise<Response>;

beforeAll(async () => {
  const url = await useTestDatabase();
  sql = await connect(url);
  ({ GET } = await import("@/app/api/health/ready/route"));
});

afterAll(async () => {
  await sql?.end();
});

const ask = async () => {
  const response = await GET();
  return {
    status: response.status,
    cache: response.headers.get("cache-control"),
    body: (await response.json()) as Record<string, unknown>,
  };
};

describe("readiness", () => {
  it("is ready when every migration this build ships with is applied", async () => {
    const { status, cache, body } = await ask();
    expect(status).toBe(200);
    expect(cache).toBe("no-store");
    expect(body).toMatchObject({ status: "ready", database: "ok", migrations: { pending: [] } });
    const migrations = body.migrations as { applied: number; expected: number };
    expect(migrations.applied).toBe(migrations.expected);
    expect(migrations.expected).toBeGreaterThan(0);
  });

  it("is not ready against an older schema, and names the migration missing", async () => {
    const { rows } = await sql.query<{ id: string; migration_name: string }>(
      `SELECT id, migration_name FROM _prisma_migrations ORDER BY migration_name DESC LIMIT 1`,
    );
    const newest = rows[0]!;
    await sql.query(`UPDATE _prisma_migrations SET rolled_back_at = now() WHERE id = $1`, [newest.id]);
    try {
      const { status, body } = await ask();
      expect(status).toBe(503);
      expect(body).toMatchObject({ status: "not ready", database: "ok", migrations: { pending: [newest.migration_name] } });
    } finally {
      await sql.query(`UPDATE _prisma_migrations SET rolled_back_at = NULL WHERE id = $1`, [newest.id]);
    }
    expect((await ask()).status).toBe(200);
  });

  // Last: a process that is stopping stays so.
  it("answers 503 once the instance is shutting down, database or not", async () => {
    const { markStopping } = await import("@/lib/lifecycle.server");
    markStopping();
    const { status, body } = await ask();
    expect(status).toBe(503);
    expect(body).toEqual({ status: "stopping" });
  });
});
