import "server-only";
import { randomBytes } from "node:crypto";
import { db } from "@/lib/db.server";
import { pool } from "@/lib/pg-pool.server";
import { receiverChanged, whenShop } from "@/lib/shops/shop-events.server";
import { markNeedsReconnect } from "@/lib/shops/shop-attention.server";
import { readToken } from "@/lib/shops/tokens.server";
import { forgetRecentlyConnected } from "@/features/webhooks/receive/signers.server";

/** The old receiver URL answers 404 at once; the caller points the platform's callback URL at the new key. */
export async function rotateWebhookKey(shopId: string): Promise<string> {
  const webhookKey = randomBytes(24).toString("base64url");
  await db.connection.update({ where: { shopId }, data: { webhookKey } });
  await receiverChanged(shopId);
  return webhookKey;
}

// Keeps a read and an AES-GCM decryption off the receiver's hot path. Changes evict at once,
// everywhere by NOTIFY; the TTL bounds a change going unseen if that notification is lost.
const RECEIVER_TTL_MS = 30_000;

export interface WebhookReceiver {
  shopId: string;
  /** The current token first, then the one a reconnect replaced while its grace period lasts. */
  signingKeys: string[];
  /** No key opens the stored token: the receiver answers 410. */
  unreadable: boolean;
}

const receiverCache = new Map<string, WebhookReceiver & { expiresAt: number }>();
const receiverByShop = new Map<string, WebhookReceiver & { expiresAt: number }>();

export function forgetWebhookReceivers(shopId: string) {
  for (const [key, entry] of receiverCache) if (entry.shopId === shopId) receiverCache.delete(key);
  receiverByShop.delete(shopId);
  forgetRecentlyConnected();
}

whenShop("receiverChanged", "webhook receivers", forgetWebhookReceivers);

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
const RECEIVER_BY_SHOP = { name: "receiver_by_seller", text: `SELECT ${RECEIVER_COLUMNS} FROM "Connection" WHERE "sellerId" = $1` };

function toReceiver(connection: ReceiverRow): WebhookReceiver {
  const current = readToken(connection.accessTokenEnc, connection.sellerId);
  if (!current) {
    void markNeedsReconnect(connection.sellerId).catch(() => {});
    return { shopId: connection.sellerId, signingKeys: [], unreadable: true };
  }
  const signingKeys = [current.token];
  if (connection.previousTokenEnc && connection.previousTokenUntil && connection.previousTokenUntil.getTime() > Date.now()) {
    const previous = readToken(connection.previousTokenEnc, connection.sellerId);
    if (previous) signingKeys.push(previous.token);
  }
  return { shopId: connection.sellerId, signingKeys, unreadable: false };
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
export async function findWebhookSigner(shopId: string): Promise<WebhookReceiver | null> {
  const cached = receiverByShop.get(shopId);
  if (cached && cached.expiresAt > Date.now()) return cached.unreadable ? null : cached;
  const [connection] = (await pool.query<ReceiverRow>({ ...RECEIVER_BY_SHOP, values: [shopId] })).rows;
  if (!connection) {
    receiverByShop.delete(shopId);
    forgetRecentlyConnected();
    return null;
  }
  const entry = { ...toReceiver(connection), expiresAt: Date.now() + RECEIVER_TTL_MS };
  // Bounded by the shops a search may try; an unbounded map would grow with every seller tried.
  if (receiverByShop.size >= 10_000) receiverByShop.clear();
  receiverByShop.set(shopId, entry);
  return entry.unreadable ? null : entry;
}
