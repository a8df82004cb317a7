import "server-only";
import { randomBytes } from "node:crypto";
import { DecryptionError, encryptSecret, openSecret, sellerTokenContext } from "@/lib/crypto";
import type { Keyring } from "@/lib/crypto";
import { db } from "@/lib/db.server";
import type { Prisma } from "@/lib/generated/prisma/client";
import { decodeKey, env } from "@/lib/env";
import { shopLog } from "@/lib/log.server";
import { normalizeEmail } from "@marketplace/api/schemas/oauth";
import { RECEIVER_CHANGED_CHANNEL } from "@/lib/db-notifications.server";
import { pool } from "@/lib/pg-pool.server";
import { forgetRecentlyConnected } from "@/lib/webhooks/signers.server";
import { notificationsAtConnectSchema } from "@/lib/webhooks/notifications-status";
import type { NotificationsAtConnect } from "@/lib/webhooks/notifications-status";

// env.js validated the keys' encoding at start-up.
const tokenKeys: Keyring = {
  current: decodeKey(env.TOKEN_ENCRYPTION_KEY)!,
  previous: (env.TOKEN_ENCRYPTION_KEYS_PREVIOUS ?? []).map((key) => decodeKey(key)!),
};

/** Null when no key opens it any more (the seller must reconnect). */
function readToken(stored: string, sellerId: string): { token: string; stale: boolean } | null {
  try {
    const { plaintext, stale } = openSecret(stored, sellerTokenContext(sellerId), tokenKeys);
    return { token: plaintext, stale };
  } catch (error) {
    if (error instanceof DecryptionError) return null;
    throw error;
  }
}

/** Never carries the access token. */
export interface CurrentSeller {
  id: string;
  email: string;
  name: string;
  /** IANA zone for dates and "today". */
  timeZone: string;
  connection: {
    connectedAt: Date;
    scopesRequested: string[];
    scopesMissing: string[];
    needsReconnect: boolean;
    webhookKey: string;
    /** What connecting did to the callback URL; null before it was known. */
    notificationsAtConnect: NotificationsAtConnect | null;
  };
}

const splitScopes = (value: string) => value.split(" ").filter(Boolean);

export class IdentityConflictError extends Error {
  constructor() {
    super("Another marketplace account is already connected with this e-mail address");
    this.name = "IdentityConflictError";
  }
}

/**
 * Keyed by the normalised e-mail, the only stable identity basic_user_info gives. A reconnect
 * forgets missing scopes (the new token may have them) and keeps the webhook key, so a callback
 * URL already set at the platform keeps working.
 */
export async function connectSeller(input: { email: string; name: string; accessToken: string; scopesRequested: string }) {
  const email = normalizeEmail(input.email);
  const seller = await db.$transaction(async (tx) => {
    const seller = await tx.seller.upsert({
      where: { email },
      create: { email, platformEmail: input.email, name: input.name },
      update: { name: input.name },
    });
    // The same mailbox spelt differently may be another platform user: never give them this shop.
    if (seller.platformEmail !== null && seller.platformEmail !== input.email) throw new IdentityConflictError();
    if (seller.platformEmail === null) await tx.seller.update({ where: { id: seller.id }, data: { platformEmail: input.email } });
    const accessTokenEnc = encryptSecret(input.accessToken, sellerTokenContext(seller.id), tokenKeys);
    // Notifications signed with the replaced token may still arrive (retries): it stays valid a while.
    const previous = await tx.connection.findUnique({ where: { sellerId: seller.id }, select: { accessTokenEnc: true } });
    const previousToken = previous ? readToken(previous.accessTokenEnc, seller.id) : null;
    const replaced =
      previousToken && previousToken.token !== input.accessToken
        ? {
            previousTokenEnc: encryptSecret(previousToken.token, sellerTokenContext(seller.id), tokenKeys),
            previousTokenUntil: new Date(Date.now() + PREVIOUS_TOKEN_GRACE_MS),
          }
        : {};
    await tx.connection.upsert({
      where: { sellerId: seller.id },
      create: {
        sellerId: seller.id,
        accessTokenEnc,
        scopesRequested: input.scopesRequested,
        webhookKey: randomBytes(24).toString("base64url"),
      },
      update: {
        accessTokenEnc,
        scopesRequested: input.scopesRequested,
        scopesMissing: "",
        connectedAt: new Date(),
        needsReconnectAt: null,
        ...replaced,
      },
    });
    return seller;
  });
  // After the commit, so no lookup in between can cache the old token again.
  await receiverChanged(seller.id);
  return seller;
}

const currentSellerSelect = {
  id: true,
  email: true,
  name: true,
  timeZone: true,
  connection: {
    select: {
      connectedAt: true,
      scopesRequested: true,
      scopesMissing: true,
      needsReconnectAt: true,
      webhookKey: true,
      notificationsAtConnect: true,
    },
  },
} as const satisfies Prisma.SellerSelect;

function currentSellerOf(seller: Prisma.SellerGetPayload<{ select: typeof currentSellerSelect }>): CurrentSeller | null {
  const { connection } = seller;
  if (!connection) return null;
  return {
    id: seller.id,
    email: seller.email,
    name: seller.name,
    timeZone: seller.timeZone,
    connection: {
      connectedAt: connection.connectedAt,
      scopesRequested: splitScopes(connection.scopesRequested),
      scopesMissing: splitScopes(connection.scopesMissing),
      needsReconnect: connection.needsReconnectAt !== null,
      webhookKey: connection.webhookKey,
      notificationsAtConnect: notificationsAtConnectSchema.nullable().catch(null).parse(connection.notificationsAtConnect),
    },
  };
}

/** The shop with its connection, or null when it has none (never connected, or disconnected). */
export async function findCurrentSeller(sellerId: string): Promise<CurrentSeller | null> {
  const seller = await db.seller.findUnique({ where: { id: sellerId }, select: currentSellerSelect });
  return seller ? currentSellerOf(seller) : null;
}

/**
 * Server-side platform calls only; never returned to a client. Null without a connection or when
 * no key opens the token (the connection is then marked as needing a reconnect).
 */
export async function getAccessToken(sellerId: string): Promise<string | null> {
  return (await getAccessTokens([sellerId])).get(sellerId) ?? null;
}

export async function getAccessTokens(sellerIds: readonly string[]): Promise<Map<string, string>> {
  if (sellerIds.length === 0) return new Map();
  const connections = await db.connection.findMany({
    where: { sellerId: { in: [...new Set(sellerIds)] } },
    select: { sellerId: true, accessTokenEnc: true },
  });
  const tokens = new Map<string, string>();
  for (const { sellerId, accessTokenEnc } of connections) {
    const token = await usableToken(sellerId, accessTokenEnc);
    if (token !== null) tokens.set(sellerId, token);
  }
  return tokens;
}

/** Re-encrypts a token a previous key opened under the current key. */
async function usableToken(sellerId: string, stored: string): Promise<string | null> {
  const read = readToken(stored, sellerId);
  if (!read) {
    await markNeedsReconnect(sellerId);
    return null;
  }
  if (read.stale) {
    const accessTokenEnc = encryptSecret(read.token, sellerTokenContext(sellerId), tokenKeys);
    await db.connection.updateMany({ where: { sellerId, accessTokenEnc: stored }, data: { accessTokenEnc } });
  }
  return read.token;
}

/** `accessToken` null: unusable, the seller must reconnect. */
export interface ConnectedShop {
  seller: CurrentSeller;
  accessToken: string | null;
}

const CONNECTED_SHOPS = {
  name: "connected_shops_with_tokens",
  text: `
    SELECT s."id", s."email", s."name", s."timeZone", c."connectedAt", c."scopesRequested", c."scopesMissing",
           c."needsReconnectAt", c."webhookKey", c."notificationsAtConnect", c."accessTokenEnc"
    FROM "Seller" s JOIN "Connection" c ON c."sellerId" = s."id"
    WHERE s."id" = ANY($1::text[])`,
};

/** One `pg` statement for paths that run for every shop, where Prisma's CPU per query counts. */
export async function findConnectedShops(sellerIds: readonly string[]): Promise<Map<string, ConnectedShop>> {
  if (sellerIds.length === 0) return new Map();
  const { rows } = await pool.query<{
    id: string;
    email: string;
    name: string;
    timeZone: string;
    connectedAt: Date;
    scopesRequested: string;
    scopesMissing: string;
    needsReconnectAt: Date | null;
    webhookKey: string;
    notificationsAtConnect: string | null;
    accessTokenEnc: string;
  }>({ ...CONNECTED_SHOPS, values: [[...new Set(sellerIds)]] });
  const shops = new Map<string, ConnectedShop>();
  for (const { id, email, name, timeZone, accessTokenEnc, ...connection } of rows) {
    const seller = currentSellerOf({ id, email, name, timeZone, connection });
    if (seller) shops.set(id, { seller, accessToken: await usableToken(id, accessTokenEnc) });
  }
  return shops;
}

export async function recordNotificationsAtConnect(sellerId: string, outcome: NotificationsAtConnect) {
  await db.connection.updateMany({ where: { sellerId }, data: { notificationsAtConnect: outcome } });
}

export async function markNeedsReconnect(sellerId: string) {
  await db.connection.updateMany({ where: { sellerId, needsReconnectAt: null }, data: { needsReconnectAt: new Date() } });
}

export async function recordMissingScopes(sellerId: string, scopes: readonly string[]) {
  if (scopes.length === 0) return;
  const connection = await db.connection.findUnique({ where: { sellerId }, select: { scopesMissing: true } });
  if (!connection) return;
  const merged = [...new Set([...splitScopes(connection.scopesMissing), ...scopes])].sort();
  await db.connection.update({ where: { sellerId }, data: { scopesMissing: merged.join(" ") } });
}

/** "Delete my data": the seller and everything kept for them (events, mirrors, catalogue, sessions). */
export async function deleteSellerData(sellerId: string) {
  await db.seller.deleteMany({ where: { id: sellerId } });
  await receiverChanged(sellerId);
}

/** The old receiver URL answers 404 at once; the caller points the platform's callback URL at the new key. */
export async function rotateWebhookKey(sellerId: string): Promise<string> {
  const webhookKey = randomBytes(24).toString("base64url");
  await db.connection.update({ where: { sellerId }, data: { webhookKey } });
  await receiverChanged(sellerId);
  return webhookKey;
}

export async function deleteConnection(sellerId: string) {
  await db.connection.deleteMany({ where: { sellerId } });
  await receiverChanged(sellerId);
}

/** How long a token replaced by a reconnect still verifies notifications signed with it. */
export const PREVIOUS_TOKEN_GRACE_MS = 24 * 60 * 60_000;

// Keeps a read and an AES-GCM decryption off the receiver's hot path. Changes evict at once,
// everywhere by NOTIFY; the TTL bounds a change going unseen if that notification is lost.
const RECEIVER_TTL_MS = 30_000;

export interface WebhookReceiver {
  sellerId: string;
  /** The current token first, then the one a reconnect replaced while its grace period lasts. */
  signingKeys: string[];
  /** No key opens the stored token: the receiver answers 410. */
  unreadable: boolean;
}

const receiverCache = new Map<string, WebhookReceiver & { expiresAt: number }>();
const receiverBySeller = new Map<string, WebhookReceiver & { expiresAt: number }>();

export function forgetWebhookReceivers(sellerId: string) {
  for (const [key, entry] of receiverCache) if (entry.sellerId === sellerId) receiverCache.delete(key);
  receiverBySeller.delete(sellerId);
  forgetRecentlyConnected();
}

/** Evicts the seller's receiver here and, by NOTIFY, in every instance; open live streams re-check their session. */
export async function receiverChanged(sellerId: string) {
  forgetWebhookReceivers(sellerId);
  await pool.query(`SELECT pg_notify('${RECEIVER_CHANGED_CHANNEL}', $1)`, [sellerId]).catch((error: unknown) => {
    shopLog(sellerId, { component: "sellers" }).error({ err: error }, "could not tell other instances that the shop's receiver changed");
  });
}

interface ReceiverRow {
  sellerId: string;
  accessTokenEnc: string;
  previousTokenEnc: string | null;
  previousTokenUntil: Date | null;
}

// Through `pg`, not Prisma: with receipts spread over thousands of shops most miss the cache, and
// Prisma's CPU per query was most of a receipt's cost.
const RECEIVER_COLUMNS = `"sellerId", "accessTokenEnc", "previousTokenEnc", "previousTokenUntil"`;
const RECEIVER_BY_KEY = { name: "receiver_by_key", text: `SELECT ${RECEIVER_COLUMNS} FROM "Connection" WHERE "webhookKey" = $1` };
const RECEIVER_BY_SELLER = { name: "receiver_by_seller", text: `SELECT ${RECEIVER_COLUMNS} FROM "Connection" WHERE "sellerId" = $1` };

function toReceiver(connection: ReceiverRow): WebhookReceiver {
  const current = readToken(connection.accessTokenEnc, connection.sellerId);
  if (!current) {
    void markNeedsReconnect(connection.sellerId).catch(() => {});
    return { sellerId: connection.sellerId, signingKeys: [], unreadable: true };
  }
  const signingKeys = [current.token];
  if (connection.previousTokenEnc && connection.previousTokenUntil && connection.previousTokenUntil.getTime() > Date.now()) {
    const previous = readToken(connection.previousTokenEnc, connection.sellerId);
    if (previous) signingKeys.push(previous.token);
  }
  return { sellerId: connection.sellerId, signingKeys, unreadable: false };
}

export async function findWebhookReceiver(webhookKey: string): Promise<WebhookReceiver | null> {
  const cached = receiverCache.get(webhookKey);
  if (cached && cached.expiresAt > Date.now()) return cached;
  const [connection] = (await pool.query<ReceiverRow>({ ...RECEIVER_BY_KEY, values: [webhookKey] })).rows;
  if (!connection) {
    receiverCache.delete(webhookKey);
    return null;
  }
  const entry = { ...toReceiver(connection), expiresAt: Date.now() + RECEIVER_TTL_MS };
  receiverCache.set(webhookKey, entry);
  return entry;
}

/** For MARKETPLACE_CALLBACK_SCOPE=application's search; null without a readable connection. */
export async function findWebhookSigner(sellerId: string): Promise<WebhookReceiver | null> {
  const cached = receiverBySeller.get(sellerId);
  if (cached && cached.expiresAt > Date.now()) return cached.unreadable ? null : cached;
  const [connection] = (await pool.query<ReceiverRow>({ ...RECEIVER_BY_SELLER, values: [sellerId] })).rows;
  if (!connection) {
    receiverBySeller.delete(sellerId);
    forgetRecentlyConnected();
    return null;
  }
  const entry = { ...toReceiver(connection), expiresAt: Date.now() + RECEIVER_TTL_MS };
  // Bounded by the shops a search may try; an unbounded map would grow with every seller tried.
  if (receiverBySeller.size >= 10_000) receiverBySeller.clear();
  receiverBySeller.set(sellerId, entry);
  return entry.unreadable ? null : entry;
}
