import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";

// The migration flow of `npm run dev` on an empty database: creates the file, applies every
// migration with the JS engine (no native engine download), and leaves the file in WAL mode.
describe("scripts/migrate.ts", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "dashboard-migrate-"));
  const file = path.join(dir, "nested", "test.db");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const migrate = () =>
    execFileSync("npx", ["tsx", "scripts/migrate.ts"], {
      env: { ...process.env, DATABASE_URL: `file:${file}` },
      encoding: "utf8",
    });

  it("creates the database, applies the migrations and enables WAL; a second run is a no-op", () => {
    expect(migrate()).toMatch(/successfully applied|No pending migrations/);
    const db = new Database(file, { readonly: true });
    try {
      expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
      const tables = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .all()
        .map((row) => (row as { name: string }).name);
      expect(tables).toEqual(expect.arrayContaining(["Seller", "Connection", "_prisma_migrations"]));
      const applied = db.prepare("SELECT COUNT(*) AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL").get() as { n: number };
      expect(applied.n).toBeGreaterThan(0);
    } finally {
      db.close();
    }
    expect(migrate()).toMatch(/No pending migrations/);
  }, 60_000);
});
