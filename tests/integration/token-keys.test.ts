import { randomBytes } from "node:crypto";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encryptSecret, keyId, shopTokenContext } from "@/lib/crypto";
import { connect, useTestDatabase } from "../support/database";
import { deliverToReceiver } from "../support/receiver";

// Rotating TOKEN_ENCRYPTION_KEY: tokens a previous key encrypted are still read and re-encrypted
// with the current key on use; a token no key opens any more asks the seller to reconnect (pages)
// and makes the receiver answer 410 (the platform stops retrying), never an endless 503.
const oldKey = randomBytes(32);
process.env.TOKEN_ENCRYPTION_KEYS_PREVIOUS = oldKey.toString("base64");
let sql: pg.Client;

beforeAll(async () => {
  const url = await useTestDatabase();
  sql = await connect(url);
}, 60_000);

afterAll(async () => {
  await sql?.end();
});

async function sellerWithStoredToken(token: string, encryptWith: Buffer) {
  const { connectShop } = await import("@/lib/shops/shops.server");
  const shop = await connectShop({
    email: `${randomBytes(4).toString("hex")}@example.com`,
    name: "Loja",
    accessToken: "placeholder",
    scopesRequested: "basic_user_info",
  });
  await sql.query(`UPDATE "Connection" SET "accessTokenEnc" = $1 WHERE "sellerId" = $2`, [
    encryptSecret(token, shopTokenContext(shop.id), encryptWith),
    shop.id,
  ]);
  const { forgetWebhookReceivers } = await import("@/features/webhooks/receive/receivers.server");
  forgetWebhookReceivers(shop.id);
  const key = (await sql.query<{ webhookKey: string }>(`SELECT "webhookKey" FROM "Connection" WHERE "sellerId" = $1`, [shop.id])).rows[0]!
    .webhookKey;
  return { id: shop.id, webhookKey: key };
}

const stored = async (shopId: string) =>
  (
    await sql.query<{ enc: string; needsReconnectAt: Date | null }>(
      `SELECT "accessTokenEnc" AS enc, "needsReconnectAt" FROM "Connection" WHERE "sellerId" = $1`,
      [shopId],
    )
  ).rows[0]!;

describe("token encryption keys", () => {
  it("reads a token a previous key encrypted, and stores it again under the current key", async () => {
    const shop = await sellerWithStoredToken("tok-old-key", oldKey);
    expect((await stored(shop.id)).enc.split(".")[1]).toBe(keyId(oldKey));
    const { getAccessToken } = await import("@/lib/shops/tokens.server");
    expect(await getAccessToken(shop.id)).toBe("tok-old-key");
    // lib/env.js is read after useTestDatabase: it must see the test's DATABASE_URL.
    const { decodeKey, env } = await import("@/lib/env.js");
    const current = decodeKey(env.TOKEN_ENCRYPTION_KEY)!;
    expect((await stored(shop.id)).enc.split(".")[1]).toBe(keyId(current));
    expect(await getAccessToken(shop.id)).toBe("tok-old-key");
  });

  it("asks for a reconnect when no key opens the token, and the receiver answers 410", async () => {
    const shop = await sellerWithStoredToken("tok-lost-key", randomBytes(32));
    const body = JSON.stringify({ data: { domain: "chat", status: "message_received", id: "x", code: "y" } });
    const response = await deliverToReceiver(shop.webhookKey, body, { signWith: "tok-lost-key" });
    expect(response.status).toBe(410);
    const { getAccessToken } = await import("@/lib/shops/tokens.server");
    const { findCurrentShop } = await import("@/lib/shops/shops.server");
    expect(await getAccessToken(shop.id)).toBeNull();
    expect((await findCurrentShop(shop.id))?.connection.needsReconnect).toBe(true);
  });
});
