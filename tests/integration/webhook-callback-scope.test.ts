import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Processing from "@/features/webhooks/process/process.server";
import { obtainAccessToken, startTestSandbox } from "@marketplace/sandbox/testing";
import type { TestSandbox } from "@marketplace/sandbox/testing";
import { connect, useTestDatabase } from "../support/database";
import { deliverToReceiver } from "../support/receiver";

// The receiver in the default MARKETPLACE_CALLBACK_SCOPE=user: a body reaching a seller's URL is
// checked against that seller's keys only, whoever else signed it; bodies that name another
// shop's order or SKU are counted (a wrong setting shows); mis-signed bodies are rate limited per
// URL; and replays of one authentic body are folded once past a limit a minute. The limits are
// set low here, before any import reads the environment.
process.env.MARKETPLACE_CALLBACK_SCOPE = "user";
process.env.WEBHOOK_FAILED_SIGNATURES_PER_MINUTE = "5";
process.env.WEBHOOK_REPLAY_LIMIT_PER_MINUTE = "2";

let sandbox: TestSandbox;
let sql: pg.Client;
let processing: typeof Processing;
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};
const keys: Record<string, string> = {};

beforeAll(async () => {
  const databaseUrl = await useTestDatabase();
  sandbox = await startTestSandbox({ config: { seedOrders: 0 } });
  process.env.MARKETPLACE_BASE_URL = sandbox.url;
  processing = await import("@/features/webhooks/process/process.server");
  const { connectShop } = await import("@/lib/shops/shops.server");
  sql = await connect(databaseUrl);
  for (const login of ["seller@example.com", "seller2@example.com"]) {
    tokens[login] = await obtainAccessToken(sandbox.url, { login });
    const shop = await connectShop({
      email: login,
      name: login,
      accessToken: tokens[login],
      scopesRequested: "basic_user_info portfolio:read order-order:read",
    });
    ids[login] = shop.id;
    keys[login] = (
      await sql.query<{ webhookKey: string }>('SELECT "webhookKey" FROM "Connection" WHERE "sellerId" = $1', [shop.id])
    ).rows[0]!.webhookKey;
  }
}, 60_000);

afterAll(async () => {
  await processing?.stopWebhookProcessing(100);
  await sql?.end();
  await sandbox?.close();
  for (const name of ["MARKETPLACE_CALLBACK_SCOPE", "WEBHOOK_FAILED_SIGNATURES_PER_MINUTE", "WEBHOOK_REPLAY_LIMIT_PER_MINUTE"])
    delete process.env[name];
});

const A = "seller@example.com";
const B = "seller2@example.com";
const orderBody = (orderId: string, status = "approved") => JSON.stringify({ data: { domain: "order.order", status, order_id: orderId } });

async function mirrorOrder(login: string, orderId: string) {
  await sql.query(
    `INSERT INTO "OrderMirror" ("sellerId", "orderId", "status", "createdAt", "updatedAt", "customerName", "total", "currency", "normalizer", "itemCount", "deliveries", "syncedAt")
     VALUES ($1, $2, 'new', now(), now(), 'Cliente', 1000, 'BRL', 100, 1, '[]', now())`,
    [ids[login], orderId],
  );
}

const misSigned = async (login: string) =>
  (
    await sql.query<{ misSignedForeignCount: number }>(`SELECT "misSignedForeignCount" FROM "Connection" WHERE "sellerId" = $1`, [
      ids[login],
    ])
  ).rows[0]!.misSignedForeignCount;
const storedFor = async (body: string) =>
  (await sql.query<{ sellerId: string }>(`SELECT "sellerId" FROM "WebhookEvent" WHERE "rawBody" = $1`, [body])).rows;

describe("MARKETPLACE_CALLBACK_SCOPE=user", () => {
  it("refuses another shop's notification at a seller's URL, and counts it when it names that shop's order or SKU", async () => {
    await mirrorOrder(B, "65b000000000000000000b01");
    await sql.query(
      `INSERT INTO "Sku" ("id", "sellerId", "code", "title", "payload") VALUES ('65b0000000000000000005c1', $1, 'B-SKU', 'Produto', '{}')`,
      [ids[B]],
    );
    await mirrorOrder(A, "65a000000000000000000a01");

    // B's notifications, properly signed by B, delivered at A's URL.
    const order = orderBody("65b000000000000000000b01");
    expect((await deliverToReceiver(keys[A]!, order, { signWith: tokens[B] })).status).toBe(401);
    const sku = JSON.stringify({ data: { domain: "portfolio.sku", status: "created", id: "65b0000000000000000005c1", code: "B-SKU" } });
    expect((await deliverToReceiver(keys[A]!, sku, { signWith: tokens[B] })).status).toBe(401);
    expect(await storedFor(order)).toEqual([]);
    expect(await misSigned(A)).toBe(2);

    // A forgery naming nothing known, or A's own order, is refused without being counted.
    expect((await deliverToReceiver(keys[A]!, orderBody("65c000000000000000000c01"), { signWith: "nobody" })).status).toBe(401);
    expect((await deliverToReceiver(keys[A]!, orderBody("65a000000000000000000a01"), { signWith: "nobody" })).status).toBe(401);
    expect(await misSigned(A)).toBe(2);
    expect(await misSigned(B)).toBe(0);
    // What the Webhooks page's health panel reads.
    const { getConnectionHealth } = await import("@/features/webhooks/connection-health.server");
    expect((await getConnectionHealth(ids[A]!)).otherShops).toMatchObject({ count: 2, lastAt: expect.any(Date) });
    expect((await getConnectionHealth(ids[B]!)).otherShops.count).toBe(0);

    // At its own URL, the same body is B's.
    expect((await deliverToReceiver(keys[B]!, order, { signWith: tokens[B] })).status).toBe(200);
    expect(await storedFor(order)).toEqual([{ sellerId: ids[B] }]);
  });

  it("answers 429 past the mis-signed bodies a URL may send a minute, and still takes its own seller's valid ones", async () => {
    // The previous test spent 4 of A's 5 slots this minute, unless the minute turned since.
    let limited = false;
    for (let attempt = 0; attempt < 6 && !limited; attempt++) {
      const response = await deliverToReceiver(keys[A]!, orderBody(`65d00000000000000000000${attempt}`), { signWith: "nobody" });
      if (response.status === 429) {
        limited = true;
        expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
        expect(Number(response.headers.get("retry-after"))).toBeLessThanOrEqual(60);
      } else {
        expect(response.status).toBe(401);
      }
    }
    expect(limited).toBe(true);
    // Missing signatures are refused as before, and A's own notifications still arrive.
    expect((await deliverToReceiver(keys[A]!, orderBody("65a000000000000000000a01"), { signature: null })).status).toBe(401);
    const own = JSON.stringify({ data: { domain: "chat", status: "new_conversation", id: "chat-1", code: "c" } });
    expect((await deliverToReceiver(keys[A]!, own, { signWith: tokens[A] })).status).toBe(200);
    // Another URL has its own count.
    expect((await deliverToReceiver(keys[B]!, orderBody("65d000000000000000000009"), { signWith: "nobody" })).status).toBe(401);
  });
});

describe("replays of one authentic body", () => {
  it("are processed each up to the limit a minute, then acknowledged, counted and folded into one processing at the minute's end", async () => {
    const created = await sandbox.api("/_sandbox/orders", { method: "POST", json: { seller: A } });
    const orderId = ((await created.json()) as { orders: { id: string }[] }).orders[0]!.id;
    const body = orderBody(orderId, "new");
    const rows = async () =>
      (
        await sql.query<{ id: string; processingState: string; duplicateCount: number; heldUntil: Date | null; attempts: number }>(
          // The receipts share one receivedAt (the clock below): the held one is the last received.
          `SELECT "id", "processingState", "duplicateCount", "heldUntil", "attempts" FROM "WebhookEvent" WHERE "rawBody" = $1
           ORDER BY "receivedAt", "heldUntil" NULLS FIRST`,
          [body],
        )
      ).rows;
    // Every receipt in one minute, whatever the wall clock does meanwhile: the next minute of the
    // database's clock, five seconds in (so its end is still ahead when the sweep below runs).
    const { rows: minute } = await sql.query<{ at: Date }>(
      `SELECT (date_trunc('minute', now() AT TIME ZONE 'UTC') + interval '1 minute 5 seconds') AT TIME ZONE 'UTC' AS at`,
    );
    const receivedAt = minute[0]!.at;
    const deliver = () => deliverToReceiver(keys[A]!, body, { signWith: tokens[A], now: () => receivedAt });

    // Two receipts (the limit), each processed before the next arrives: two platform reads.
    for (let receipt = 1; receipt <= 2; receipt++) {
      expect((await deliver()).status).toBe(200);
      await expect
        .poll(async () => (await rows()).filter((row) => row.processingState === "processed").length, { timeout: 10_000 })
        .toBe(receipt);
    }
    // The third is acknowledged but held to the end of the minute; seven more fold into it.
    const third = await deliver();
    expect(third.status).toBe(200);
    const { heldUntil } = (await third.json()) as { heldUntil?: string };
    expect(heldUntil).toBe(new Date(receivedAt.getTime() - 5_000 + 60_000).toISOString());
    for (let copy = 0; copy < 7; copy++) expect(await (await deliver()).json()).toMatchObject({ received: true, duplicate: true });

    const held = (await rows())[2]!;
    expect(held).toMatchObject({ processingState: "pending", duplicateCount: 7, attempts: 0 });
    expect(held.heldUntil?.toISOString()).toBe(heldUntil);
    expect(await rows()).toHaveLength(3);
    // Before its minute ends, no sweep takes it.
    await processing.sweepDueEvents();
    expect((await rows())[2]).toMatchObject({ processingState: "pending", attempts: 0 });

    // The minute ends: one processing for the ten receipts beyond the limit.
    await sql.query(`UPDATE "WebhookWork" SET "availableAt" = (now() AT TIME ZONE 'UTC') - interval '1 second' WHERE "eventId" = $1`, [
      held.id,
    ]);
    await expect
      .poll(
        async () => {
          await processing.sweepDueEvents();
          return (await rows())[2]!.processingState;
        },
        { timeout: 10_000 },
      )
      .toBe("processed");
    expect((await rows()).map((row) => [row.processingState, row.attempts])).toEqual([
      ["processed", 1],
      ["processed", 1],
      ["processed", 1],
    ]);
  }, 30_000);
});
