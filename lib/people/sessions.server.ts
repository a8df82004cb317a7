import "server-only";
import { randomBytes } from "node:crypto";
import { db } from "@/lib/db.server";
import { env } from "@/lib/env";
import { log } from "@/lib/log.server";
import { pool } from "@/lib/pg-pool.server";
import { SESSIONS_CHANGED_CHANNEL } from "@/lib/db-channels";

// Signed-in sessions kept on the server (OWASP ASVS 3.3.1): the cookie names a row, and signing
// out deletes it, so a copy of the cookie stops working at once instead of when it idles out.

/** `locale`: the language the person signed in with, which e-mail and push are then written in. */
export async function startSession(personId: string, locale?: string): Promise<string> {
  const id = randomBytes(24).toString("base64url");
  await db.personSession.create({ data: { id, personId } });
  if (locale) await db.person.update({ where: { id: personId }, data: { locale } });
  return id;
}

/** "Sign out": this browser's session ends for good; the person's other sessions stay. */
export async function endSession(personId: string, sessionId: string): Promise<void> {
  await db.personSession.deleteMany({ where: { id: sessionId, personId } });
  await accessChanged(personId);
}

export async function endEverySession(personId: string): Promise<number> {
  const { count } = await db.personSession.deleteMany({ where: { personId } });
  await accessChanged(personId);
  return count;
}

/** Every instance's open live streams of this person check their session and membership again. */
export async function accessChanged(personId: string): Promise<void> {
  await pool.query(`SELECT pg_notify('${SESSIONS_CHANGED_CHANNEL}', $1)`, [personId]).catch((error: unknown) => {
    log.error({ component: "sessions", err: error }, "could not tell other instances that a person's access changed");
  });
}

export async function pruneEndedSessions(now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - env.SESSION_MAX_AGE_SECONDS * 1000);
  const { count } = await db.personSession.deleteMany({ where: { startedAt: { lt: before } } });
  return count;
}
