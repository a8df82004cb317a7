import "server-only";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { pool } from "@/lib/pg-pool.server";

export interface Readiness {
  ready: boolean;
  database: "ok" | "unreachable";
  migrations: { applied: number; expected: number; pending: string[] } | null;
}

async function shippedMigrations(): Promise<string[]> {
  const entries = await readdir(path.join(process.cwd(), "prisma", "migrations"), { withFileTypes: true });
  return entries
    .filter((entry) => entry.isDirectory() && /^\d+_/.test(entry.name))
    .map((entry) => entry.name)
    .sort();
}

/** Ready only once every shipped migration is applied: a newer build must not serve an older schema. */
export async function checkReadiness(): Promise<Readiness> {
  let applied: string[];
  try {
    const result = await pool.query<{ migration_name: string }>(
      `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    applied = result.rows.map((row) => row.migration_name);
  } catch (error) {
    const code = (error as { code?: string }).code;
    // 42P01: no migration table yet, so reachable with nothing applied.
    if (code !== "42P01") {
      return { ready: false, database: "unreachable", migrations: null };
    }
    applied = [];
  }
  const expected = await shippedMigrations();
  const pending = expected.filter((name) => !applied.includes(name));
  return { ready: pending.length === 0, database: "ok", migrations: { applied: applied.length, expected: expected.length, pending } };
}
