import "server-only";
import { db } from "@/lib/db.server";
import { env } from "@/lib/env";

// Kept apart from lib/audit/audit.server.ts, whose export imports the display formatting: the processing
// worker prunes, and must not load React code outside Next.js.

/** Entries deleted per statement while pruning, so that none holds locks for long. */
export const AUDIT_PRUNE_BATCH = 5_000;

export async function pruneAuditEntries(now = new Date(), batch = AUDIT_PRUNE_BATCH): Promise<number> {
  // Timestamps are UTC wall time without a zone (lib/db.server.ts): the ISO string cast to `timestamp` is that.
  const cutoff = new Date(now.getTime() - env.AUDIT_RETENTION_DAYS * 86_400_000).toISOString();
  let total = 0;
  for (;;) {
    const deleted = await db.$executeRaw`
      DELETE FROM "AuditEntry" WHERE "id" IN (SELECT "id" FROM "AuditEntry" WHERE "at" < ${cutoff}::timestamp LIMIT ${batch})`;
    total += deleted;
    if (deleted < batch) return total;
  }
}
