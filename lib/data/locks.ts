import "server-only";
import { pool } from "@/lib/pg-pool";

/**
 * Runs per-seller work on one instance at a time, cluster-wide (reconciling a seller, say): a
 * PostgreSQL advisory lock on (purpose, seller), held on one pooled connection for the duration of
 * `work`. Another instance asking meanwhile does not wait: it gets `{ ran: false }` and moves on.
 * If the process dies, its connection closes and the lock goes with it.
 */
export async function withSellerLock<T>(
  purpose: string,
  sellerId: string,
  work: () => Promise<T>,
): Promise<{ ran: true; value: T } | { ran: false }> {
  const key = `${purpose}:${sellerId}`;
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    const { rows } = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked", [key]);
    if (!rows[0]?.locked) return { ran: false };
    try {
      return { ran: true, value: await work() };
    } finally {
      // If unlocking fails the connection is dropped, which releases the lock as well.
      await client.query("SELECT pg_advisory_unlock(hashtextextended($1, 0))", [key]).catch((error: Error) => (broken = error));
    }
  } finally {
    client.release(broken);
  }
}
