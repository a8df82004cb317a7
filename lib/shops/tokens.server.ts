import "server-only";
import { DB_NOW, pool, QUEUE_TOLD_FOR_FAN_OUT } from "@/lib/pg-pool.server";
import { rolesWith } from "@/lib/people/roles";
import { DecryptionError, encryptSecret, openSecret, shopTokenContext } from "@/lib/crypto";
import type { Keyring } from "@/lib/crypto";
import { db } from "@/lib/db.server";
import { decodeKey, env } from "@/lib/env";

// A shop's access token, encrypted at rest: opened here, and only for the server's platform calls.

// env.js validated the keys' encoding at start-up.
export const tokenKeys: Keyring = {
  current: decodeKey(env.TOKEN_ENCRYPTION_KEY)!,
  previous: (env.TOKEN_ENCRYPTION_KEYS_PREVIOUS ?? []).map((key) => decodeKey(key)!),
};

/** Null when no key opens it any more (the seller must reconnect). */
export function readToken(stored: string, shopId: string): { token: string; stale: boolean } | null {
  try {
    const { plaintext, stale } = openSecret(stored, shopTokenContext(shopId), tokenKeys);
    return { token: plaintext, stale };
  } catch (error) {
    if (error instanceof DecryptionError) return null;
    throw error;
  }
}

/**
 * Server-side platform calls only; never returned to a client. Null without a connection or when
 * no key opens the token (the connection is then marked as needing a reconnect).
 */
export async function getAccessToken(shopId: string): Promise<string | null> {
  return (await getAccessTokens([shopId])).get(shopId) ?? null;
}

export async function getAccessTokens(shopIds: readonly string[]): Promise<Map<string, string>> {
  if (shopIds.length === 0) return new Map();
  const connections = await db.connection.findMany({
    where: { shopId: { in: [...new Set(shopIds)] } },
    select: { shopId: true, accessTokenEnc: true },
  });
  const tokens = new Map<string, string>();
  for (const { shopId, accessTokenEnc } of connections) {
    const token = await usableToken(shopId, accessTokenEnc);
    if (token !== null) tokens.set(shopId, token);
  }
  return tokens;
}

/** Re-encrypts a token a previous key opened under the current key. */
export async function usableToken(shopId: string, stored: string): Promise<string | null> {
  const read = readToken(stored, shopId);
  if (!read) {
    await markNeedsReconnect(shopId);
    return null;
  }
  if (read.stale) {
    const accessTokenEnc = encryptSecret(read.token, shopTokenContext(shopId), tokenKeys);
    await db.connection.updateMany({ where: { shopId, accessTokenEnc: stored }, data: { accessTokenEnc } });
  }
  return read.token;
}

/** Who is told the shop must connect again: those who may (issue 41). */
const ROLES_TOLD_TO_RECONNECT = rolesWith("connection.manage");

/**
 * Platform calls refused for the token, or a token no key opens: the seller must connect again.
 * When this marks it (not when it already was), the shop's owners are told in the same statement,
 * with the notification's place in the fan-out to e-mail and push (features/notifications).
 */
export async function markNeedsReconnect(shopId: string) {
  await pool.query({
    name: "mark_needs_reconnect",
    text: `
      WITH marked AS (
        UPDATE "Connection" SET "needsReconnectAt" = ${DB_NOW}
        WHERE "sellerId" = $1 AND "needsReconnectAt" IS NULL
        RETURNING "sellerId", "needsReconnectAt"
      ), told AS (
        INSERT INTO "Notification" ("id", "personId", "sellerId", "kind", "subject", "createdAt")
        SELECT gen_random_uuid()::text, m."personId", marked."sellerId", 'shop.reconnect',
               to_char(marked."needsReconnectAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS'), ${DB_NOW}
        FROM marked JOIN "Membership" m ON m."sellerId" = marked."sellerId" AND m."role" = ANY($2::text[])
        ON CONFLICT DO NOTHING
        RETURNING "id"
      )
      ${QUEUE_TOLD_FOR_FAN_OUT}`,
    values: [shopId, ROLES_TOLD_TO_RECONNECT],
  });
}
