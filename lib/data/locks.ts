import "server-only";
import { pool } from "@/lib/pg-pool";

/**
 * Runs per-seller work on one instance at a time, cluster-wide (reconciling a seller, say): a
 * PostgreSQL advisory lock on (purpose, seller), held on one pooled connection for the duration of
 * `work`. Another instance asking meanwhile does not wait: it gets `{ ran: false }` and moves on.
 * If the process dies, its connection closes and the lock goes with it; if the connection is
 * cut meanwhile (the database restarted), the lock is gone too, the work runs to its end, and the
 * connection is dropped rather than returned to the pool.
 */
export async function withSellerLock<T>(
  purpose: string,
  sellerId: string,
  work: () => Promise<T>,
): Promise<{ ran: true; value: T } | { ran: false }> {
  const key = `${purpose}:${sellerId}`;
  const client = await pool.connect();
  let broken: Error | undefined;
  // The pool listens to a connection's errors only while it is idle in the pool: one cut while
  // it is ours would otherwise be thrown as an uncaught exception.
  const onError = (error: Error) => (broken = error);
  client.on("error", onError);
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
    client.off("error", onError);
    client.release(broken);
  }
}
