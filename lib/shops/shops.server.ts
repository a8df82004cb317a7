import "server-only";
import { randomBytes } from "node:crypto";
import { encryptSecret, shopTokenContext } from "@/lib/crypto";
import { db } from "@/lib/db.server";
import type { Prisma } from "@/lib/generated/prisma/client";
import { normalizeEmail } from "@marketplace/api/schemas/oauth";
import { pool } from "@/lib/pg-pool.server";
import { notificationsAtConnectSchema } from "@/lib/shops/notifications-status";
import type { NotificationsAtConnect } from "@/lib/shops/notifications-status";
import { receiverChanged } from "@/lib/shops/shop-events.server";
import { readToken, tokenKeys, usableToken } from "@/lib/shops/tokens.server";

/** Never carries the access token. */
export interface CurrentShop {
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
    /** The callback URL points at this dashboard, as last set or read (prisma/schema.prisma); null: not known. */
    callbackHere: boolean | null;
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
export async function connectShop(input: { email: string; name: string; accessToken: string; scopesRequested: string }) {
  const email = normalizeEmail(input.email);
  const shop = await db.$transaction(async (tx) => {
    const shop = await tx.shop.upsert({
      where: { email },
      create: { email, platformEmail: input.email, name: input.name },
      update: { name: input.name },
    });
    // The same mailbox spelt differently may be another platform user: never give them this shop.
    if (shop.platformEmail !== null && shop.platformEmail !== input.email) throw new IdentityConflictError();
    if (shop.platformEmail === null) await tx.shop.update({ where: { id: shop.id }, data: { platformEmail: input.email } });
    const accessTokenEnc = encryptSecret(input.accessToken, shopTokenContext(shop.id), tokenKeys);
    // Notifications signed with the replaced token may still arrive (retries): it stays valid a while.
    const previous = await tx.connection.findUnique({ where: { shopId: shop.id }, select: { accessTokenEnc: true } });
    const previousToken = previous ? readToken(previous.accessTokenEnc, shop.id) : null;
    const replaced =
      previousToken && previousToken.token !== input.accessToken
        ? {
            previousTokenEnc: encryptSecret(previousToken.token, shopTokenContext(shop.id), tokenKeys),
            previousTokenUntil: new Date(Date.now() + PREVIOUS_TOKEN_GRACE_MS),
          }
        : {};
    await tx.connection.upsert({
      where: { shopId: shop.id },
      create: {
        shopId: shop.id,
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
    return shop;
  });
  // After the commit, so no lookup in between can cache the old token again.
  await receiverChanged(shop.id);
  return shop;
}

const currentShopSelect = {
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
      callbackHere: true,
    },
  },
} as const satisfies Prisma.ShopSelect;

/** Built once: each processed batch reads its shops through currentShopOf. */
const storedNotificationsAtConnectSchema = notificationsAtConnectSchema.nullable().catch(null);

function currentShopOf(shop: Prisma.ShopGetPayload<{ select: typeof currentShopSelect }>): CurrentShop | null {
  const { connection } = shop;
  if (!connection) return null;
  return {
    id: shop.id,
    email: shop.email,
    name: shop.name,
    timeZone: shop.timeZone,
    connection: {
      connectedAt: connection.connectedAt,
      scopesRequested: splitScopes(connection.scopesRequested),
      scopesMissing: splitScopes(connection.scopesMissing),
      needsReconnect: connection.needsReconnectAt !== null,
      webhookKey: connection.webhookKey,
      notificationsAtConnect: storedNotificationsAtConnectSchema.parse(connection.notificationsAtConnect),
      callbackHere: connection.callbackHere,
    },
  };
}

/** The shop with its connection, or null when it has none (never connected, or disconnected). */
export async function findCurrentShop(shopId: string): Promise<CurrentShop | null> {
  const shop = await db.shop.findUnique({ where: { id: shopId }, select: currentShopSelect });
  return shop ? currentShopOf(shop) : null;
}

/** `accessToken` null: unusable, the seller must reconnect. */
export interface ConnectedShop {
  shop: CurrentShop;
  accessToken: string | null;
}

const CONNECTED_SHOPS = {
  name: "connected_shops_with_tokens",
  text: `
    SELECT s."id", s."email", s."name", s."timeZone", c."connectedAt", c."scopesRequested", c."scopesMissing",
           c."needsReconnectAt", c."webhookKey", c."notificationsAtConnect", c."callbackHere", c."accessTokenEnc"
    FROM "Seller" s JOIN "Connection" c ON c."sellerId" = s."id"
    WHERE s."id" = ANY($1::text[])`,
};

/** One `pg` statement for paths that run for every shop, where Prisma's CPU per query counts. */
export async function findConnectedShops(shopIds: readonly string[]): Promise<Map<string, ConnectedShop>> {
  if (shopIds.length === 0) return new Map();
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
    callbackHere: boolean | null;
    accessTokenEnc: string;
  }>({ ...CONNECTED_SHOPS, values: [[...new Set(shopIds)]] });
  const shops = new Map<string, ConnectedShop>();
  for (const { id, email, name, timeZone, accessTokenEnc, ...connection } of rows) {
    const shop = currentShopOf({ id, email, name, timeZone, connection });
    if (shop) shops.set(id, { shop, accessToken: await usableToken(id, accessTokenEnc) });
  }
  return shops;
}

/** What connecting did, and so where the callback URL points now (lib/shops/shop-attention.server.ts). */
export async function recordNotificationsAtConnect(shopId: string, outcome: NotificationsAtConnect) {
  const callbackHere = outcome === "unknown" ? null : outcome !== "elsewhere";
  await db.connection.updateMany({ where: { shopId }, data: { notificationsAtConnect: outcome, callbackHere } });
}

/** "Delete my data": the seller and everything kept for them (events, mirrors, catalogue, sessions). */
export async function deleteShopData(shopId: string) {
  await db.shop.deleteMany({ where: { id: shopId } });
  await receiverChanged(shopId);
}

export async function deleteConnection(shopId: string) {
  await db.connection.deleteMany({ where: { shopId } });
  await receiverChanged(shopId);
}

/** How long a token replaced by a reconnect still verifies notifications signed with it. */
export const PREVIOUS_TOKEN_GRACE_MS = 24 * 60 * 60_000;
