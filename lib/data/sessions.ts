import "server-only";
import { randomBytes } from "node:crypto";
import { db } from "@/lib/db";
import { receiverChanged } from "@/lib/data/sellers";
import { env } from "@/lib/env";

// Signed-in sessions kept on the server (OWASP ASVS 3.3.1): the cookie names a row, and signing
// out deletes it, so a copy of the cookie stops working at once instead of when it idles out.

/** Records a sign-in; the id goes into the session cookie. */
export async function startSession(sellerId: string): Promise<string> {
  const id = randomBytes(24).toString("base64url");
  await db.sellerSession.create({ data: { id, sellerId } });
  return id;
}

/** "Sign out": this browser's session ends for good; the seller's other sessions stay. */
export async function endSession(sellerId: string, sessionId: string): Promise<void> {
  await db.sellerSession.deleteMany({ where: { id: sessionId, sellerId } });
  // Live streams watch this signal and close when their session is gone.
  await receiverChanged(sellerId);
}

/** "Sign out everywhere": every session of the seller ends, in every browser. */
export async function endEverySession(sellerId: string): Promise<number> {
  const { count } = await db.sellerSession.deleteMany({ where: { sellerId } });
  await receiverChanged(sellerId);
  return count;
}

/** Sessions past their absolute lifetime can no longer be used: their rows go. */
export async function pruneEndedSessions(now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - env.SESSION_MAX_AGE_SECONDS * 1000);
  const { count } = await db.sellerSession.deleteMany({ where: { startedAt: { lt: before } } });
  return count;
}
