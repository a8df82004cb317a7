import "server-only";
import { pool } from "@/lib/pg-pool.server";
import { log } from "@/lib/log.server";

// A table nobody has analyzed has no statistics, and a statement prepared on it keeps, for its
// connection's life, a plan made as if it were nearly empty: a new install's first minutes, or a
// database just restored or upgraded. The statements of receiving and processing then read a
// shop's every event, order reference or notification for each row they write, more with each
// row added, until autovacuum's first pass on the table (a minute or more away) replans them.
// bench:webhooks fell to 0.29 and 0.44 of its floor that way. So the sweep analyzes each of
// these tables once, when it has grown past a few batches without statistics; the ANALYZE makes
// every connection replan its statements on the table. Autovacuum keeps them up to date after.

/** The tables written for every notification received and processed. */
export const HOT_TABLES = [
  "WebhookEvent",
  "WebhookWork",
  "OrderMirror",
  "OrderReference",
  "ProductName",
  "SalesRollup",
  "LiveMessage",
  "Notification",
  "NotificationFanOut",
] as const;

/** Rows written since the table was last analyzed (never, here) before it is. */
export const ANALYZE_AFTER_ROWS = 1_000;

const state = { done: false, refused: false };

/**
 * Analyzes each hot table that has never been analyzed and has had ANALYZE_AFTER_ROWS rows
 * written; answers their names. Once every one has statistics it stops looking. A database role
 * that may not analyze them (not their owner) is told once in the log and left to autovacuum.
 */
export async function analyzeTablesWithoutStatistics(): Promise<string[]> {
  if (state.done || state.refused) return [];
  const { rows } = await pool.query<{ table: string; due: boolean }>({
    name: "planner_statistics_missing",
    text: `SELECT relname AS "table", n_mod_since_analyze >= $2 AS "due"
           FROM pg_stat_user_tables
           WHERE schemaname = current_schema() AND relname = ANY($1::text[])
             AND last_analyze IS NULL AND last_autoanalyze IS NULL`,
    values: [HOT_TABLES, ANALYZE_AFTER_ROWS],
  });
  if (rows.length === 0) {
    state.done = true;
    return [];
  }
  const analyzed: string[] = [];
  for (const { table, due } of rows) {
    if (!due) continue;
    try {
      await pool.query(`ANALYZE "${table.replaceAll('"', '""')}"`);
      analyzed.push(table);
    } catch (error) {
      state.refused = true;
      log.warn({ component: "db", err: error }, `could not analyze "${table}": its first statistics are left to autovacuum`);
      break;
    }
  }
  return analyzed;
}
