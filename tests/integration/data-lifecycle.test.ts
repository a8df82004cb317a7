import { randomUUID } from "node:crypto";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Sellers from "@/lib/shops/shops.server";
import { connect, useTestDatabase } from "../support/database";
import { deliverToReceiver } from "../support/receiver";

// What the dashboard keeps, and for how long: events past EVENT_RETENTION_DAYS are pruned (dead
// ones kept), "Delete my data" leaves nothing of the seller, and a rotated receiver URL stops the
// old one at once.
let sql: pg.Client;
let shops: typeof Sellers;

beforeAll(async () => {
  const url = await useTestDatabase();
  sql = await connect(url);
  shops = await import("@/lib/shops/shops.server");
}, 60_000);

afterAll(async () => {
  await sql?.end();
});

async function insertEvent(shopId: string, ageDays: number, options: { dead?: boolean } = {}) {
  const id = randomUUID();
  await sql.query(
    `INSERT INTO "WebhookEvent" ("id", "sellerId", "receivedAt", "lastReceivedAt", "domain", "status", "rawBody", "bodyHash", "headers", "signatureResult", "valid", "processingState")
     VALUES ($1, $2, (now() AT TIME ZONE 'UTC') - make_interval(days => $3), now(), 'chat', 'new_conversation', '{}', $1, '{}', 'valid', true, $4)`,
    [id, shopId, ageDays, options.dead ? "dead" : "processed"],
  );
  if (options.dead) await sql.query(`INSERT INTO "WebhookWork" ("eventId", "availableAt") VALUES ($1, TIMESTAMP '9999-12-31')`, [id]);
  return id;
}

describe("the data kept", () => {
  it("prunes finished events older than the retention, keeping dead and recent ones", async () => {
    const shop = await shops.connectShop({
      email: "keep@example.com",
      name: "Loja",
      accessToken: "t-keep",
      scopesRequested: "basic_user_info",
    });
    const old = await insertEvent(shop.id, 91);
    const oldDead = await insertEvent(shop.id, 120, { dead: true });
    const recent = await insertEvent(shop.id, 10);
    const { pruneOldEvents } = await import("@/features/webhooks/process/prune.server");
    expect(await pruneOldEvents(90)).toBe(1);
    const left = await sql.query<{ id: string }>(`SELECT "id" FROM "WebhookEvent" WHERE "sellerId" = $1`, [shop.id]);
    expect(left.rows.map((row) => row.id).sort()).toEqual([oldDead, recent].sort());
    expect(left.rows.map((row) => row.id)).not.toContain(old);
  });

  it("deletes everything of a seller on request, and nothing of another", async () => {
    const leaving = await shops.connectShop({
      email: "leaving@example.com",
      name: "Loja",
      accessToken: "t-leave",
      scopesRequested: "basic_user_info",
    });
    const staying = await shops.connectShop({
      email: "staying@example.com",
      name: "Loja",
      accessToken: "t-stay",
      scopesRequested: "basic_user_info",
    });
    for (const id of [leaving.id, staying.id]) {
      await insertEvent(id, 1);
      await sql.query(
        `INSERT INTO "OrderMirror" ("sellerId", "orderId", "status", "createdAt", "updatedAt", "customerName", "total", "currency", "normalizer", "itemCount", "deliveries", "syncedAt")
         VALUES ($1, 'o-1', 'new', now(), now(), 'Cliente', 100, 'BRL', 100, 1, '[]', now())`,
        [id],
      );
    }
    await shops.deleteShopData(leaving.id);
    const count = async (table: string, shopId: string) =>
      (await sql.query<{ n: number }>(`SELECT COUNT(*)::int AS n FROM "${table}" WHERE "sellerId" = $1`, [shopId])).rows[0]!.n;
    for (const table of ["WebhookEvent", "OrderMirror", "Connection"]) {
      expect(await count(table, leaving.id), table).toBe(0);
      expect(await count(table, staying.id), table).toBe(1);
    }
    expect((await sql.query(`SELECT 1 FROM "Seller" WHERE "id" = $1`, [leaving.id])).rowCount).toBe(0);
  });

  it("stops the old receiver URL at once when it is rotated", async () => {
    const shop = await shops.connectShop({
      email: "rotate@example.com",
      name: "Loja",
      accessToken: "t-rotate",
      scopesRequested: "basic_user_info",
    });
    const oldKey = (await shops.findCurrentShop(shop.id))!.connection.webhookKey;
    const body = JSON.stringify({ data: { domain: "chat", status: "new_conversation", id: "c", code: "c" } });
    const deliver = (key: string) => deliverToReceiver(key, body, { signWith: "t-rotate" });
    expect((await deliver(oldKey)).status).toBe(200);
    const newKey = await (await import("@/features/webhooks/receive/receivers.server")).rotateWebhookKey(shop.id);
    expect(newKey).not.toBe(oldKey);
    expect((await deliver(oldKey)).status).toBe(404);
    expect((await deliver(newKey)).status).toBe(200);
  });
});
