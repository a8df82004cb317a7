import "server-only";
import { markNeedsReconnect } from "@/lib/shops/shop-attention.server";
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
