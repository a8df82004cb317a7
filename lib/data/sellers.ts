import "server-only";
import { randomBytes } from "node:crypto";
import { DecryptionError, encryptSecret, openSecret, sellerTokenContext } from "@/lib/crypto";
import type { Keyring } from "@/lib/crypto";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { decodeKey, env } from "@/lib/env";
import { shopLog } from "@/lib/log";
import { normalizeEmail } from "@/lib/marketplace/schemas/oauth";
import { RECEIVER_CHANGED_CHANNEL } from "@/lib/live/bus";
import { pool } from "@/lib/pg-pool";
import { forgetRecentlyConnected } from "@/lib/data/webhook-signers";
import { notificationsAtConnectSchema } from "@/lib/webhooks/notifications-status";
import type { NotificationsAtConnect } from "@/lib/webhooks/notifications-status";

// env.js validated the keys' encoding at start-up.
const tokenKeys: Keyring = {
  current: decodeKey(env.TOKEN_ENCRYPTION_KEY)!,
  previous: (env.TOKEN_ENCRYPTION_KEYS_PREVIOUS ?? []).map((key) => decodeKey(key)!),
};

/** A stored token in clear, or null when no key opens it any more (the seller must reconnect). */
function readToken(stored: string, sellerId: string): { token: string; stale: boolean } | null {
  try {
    const { plaintext, stale } = openSecret(stored, sellerTokenContext(sellerId), tokenKeys);
    return { token: plaintext, stale };
  } catch (error) {
    if (error instanceof DecryptionError) return null;
    throw error;
  }
}

/** A signed-in seller as pages and actions see them: never carries the access token. */
export interface CurrentSeller {
  id: string;
  email: string;
  name: string;
  /** IANA zone for dates and "today" (Settings); i18n/request.ts hands it to every page. */
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

/** A sign-in whose platform identity does not match the seller its e-mail designates. */
export class IdentityConflictError extends Error {
  constructor() {
    super("Another marketplace account is already connected with this e-mail address");
    this.name = "IdentityConflictError";
  }
}

/**
 * Called once per successful OAuth sign-in: creates or updates the seller (keyed by the normalised
 * e-mail, the only stable identity basic_user_info gives; refused with IdentityConflictError when
 * the platform spells it differently from the seller's first sign-in) and stores the new token
 * encrypted. A reconnect clears the "needs reconnect" flag and forgets missing scopes (the new
 * token may have them), and keeps the webhook key so a callback URL already set at the platform
 * keeps working.
 */
export async function connectSeller(input: { email: string; name: string; accessToken: string; scopesRequested: string }) {
  const email = normalizeEmail(input.email);
  const seller = await db.$transaction(async (tx) => {
    const seller = await tx.seller.upsert({
      where: { email },
      create: { email, platformEmail: input.email, name: input.name },
      update: { name: input.name },
    });
    // The same mailbox spelt differently by the platform may be another platform user: their
    // token must never replace this seller's (nor give them this seller's data).
    if (seller.platformEmail !== null && seller.platformEmail !== input.email) throw new IdentityConflictError();
    if (seller.platformEmail === null) await tx.seller.update({ where: { id: seller.id }, data: { platformEmail: input.email } });
    const accessTokenEnc = encryptSecret(input.accessToken, sellerTokenContext(seller.id), tokenKeys);
    // Notifications already signed with the token being replaced may still arrive (the platform
    // retries, or switches tokens a moment later): that token stays valid for them for a while.
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
 * The decrypted access token: for server-side platform calls only, never returned to a client.
 * One a previous key encrypted is stored again under the current key. Null when there is no
 * connection, or when no key opens the token any more: the connection is then marked as needing
 * a reconnect, which pages show.
 */
export async function getAccessToken(sellerId: string): Promise<string | null> {
  return (await getAccessTokens([sellerId])).get(sellerId) ?? null;
}

/** getAccessToken for several shops in one query; a shop without a usable token is absent. */
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

/**
 * A stored token in clear: one a previous key encrypted is stored again under the current key;
 * one no key opens marks the connection as needing a reconnect (null).
 */
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

/** A connected shop and its token, for work that calls the platform on its own (token null: unusable, reconnect). */
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

/**
 * findCurrentSeller and getAccessTokens for many shops in one `pg` statement, for the paths that run for every
 * shop (a batch of events, a reconciliation run), where Prisma's CPU per query counts. Shops
 * without a connection are absent.
 */
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

/** What connecting did to the callback URL (lib/webhooks/notifications-at-connect.ts). */
export async function recordNotificationsAtConnect(sellerId: string, outcome: NotificationsAtConnect) {
  await db.connection.updateMany({ where: { sellerId }, data: { notificationsAtConnect: outcome } });
}

/** A 401 from the platform: the token no longer works. */
export async function markNeedsReconnect(sellerId: string) {
  await db.connection.updateMany({ where: { sellerId, needsReconnectAt: null }, data: { needsReconnectAt: new Date() } });
}

/** A 403 from the platform: remember which scopes the token lacks. */
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

/**
 * A new receiver key: the old receiver URL stops working at once (404). Answers the new key; the
 * caller points the platform's callback URL at it.
 */
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

// The webhook receiver resolves its path key to the seller and signing keys on every request;
// caching that for a short while keeps a database read and an AES-GCM decryption off the hot
// path. A reconnect or disconnect evicts at once in this instance and, through NOTIFY, in every
// other (lib/instance.ts listens); the TTL bounds how long a change goes unseen if that
// notification is lost.
const RECEIVER_TTL_MS = 30_000;

export interface WebhookReceiver {
  sellerId: string;
  /** The current token first, then the one a reconnect replaced while its grace period lasts. */
  signingKeys: string[];
  /** True when no key opens the stored token any more: the seller must reconnect (the receiver answers 410). */
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

const receiverSelect = { sellerId: true, accessTokenEnc: true, previousTokenEnc: true, previousTokenUntil: true } as const;

function toReceiver(connection: { sellerId: string; accessTokenEnc: string; previousTokenEnc: string | null; previousTokenUntil: Date | null }): WebhookReceiver {
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

/** The seller behind a webhook path key and the keys their notifications may be signed with. */
export async function findWebhookReceiver(webhookKey: string): Promise<WebhookReceiver | null> {
  const cached = receiverCache.get(webhookKey);
  if (cached && cached.expiresAt > Date.now()) return cached;
  const connection = await db.connection.findUnique({ where: { webhookKey }, select: receiverSelect });
  if (!connection) {
    receiverCache.delete(webhookKey);
    return null;
  }
  const entry = { ...toReceiver(connection), expiresAt: Date.now() + RECEIVER_TTL_MS };
  receiverCache.set(webhookKey, entry);
  return entry;
}

/**
 * A connected seller's signing keys, by seller id: with MARKETPLACE_CALLBACK_SCOPE=application, the
 * shops a body reaching another seller's URL is checked against (lib/webhooks/receiver.ts). Null
 * when the seller has no readable connection.
 */
export async function findWebhookSigner(sellerId: string): Promise<WebhookReceiver | null> {
  const cached = receiverBySeller.get(sellerId);
  if (cached && cached.expiresAt > Date.now()) return cached.unreadable ? null : cached;
  const connection = await db.connection.findUnique({ where: { sellerId }, select: receiverSelect });
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

/** Settings → time zone: dates and "today" follow it from the next page on. */
export async function setSellerTimeZone(sellerId: string, timeZone: string): Promise<void> {
  await db.seller.update({ where: { id: sellerId }, data: { timeZone } });
}
