import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { obtainAccessToken, startTestSandbox } from "@marketplace/sandbox/testing";
import type { TestSandbox } from "@marketplace/sandbox/testing";
import { connect, useTestDatabase } from "../support/database";
import { deliverToReceiver } from "../support/receiver";

// WEBHOOK_PROCESSING=worker: the dashboard process only stores and acknowledges; a worker process
// (`npm run worker`, features/webhooks/worker.server.ts) is told at COMMIT that events wait, and processes them.
process.env.WEBHOOK_PROCESSING = "worker";
let sandbox: TestSandbox;
let sql: pg.Client;
let listener: pg.Client;
let token: string;
let webhookKey: string;

beforeAll(async () => {
  const databaseUrl = await useTestDatabase();
  sandbox = await startTestSandbox({ config: { seedOrders: 0 } });
  process.env.MARKETPLACE_BASE_URL = sandbox.url;
  token = await obtainAccessToken(sandbox.url);
  const { connectShop } = await import("@/lib/shops/shops.server");
  const shop = await connectShop({
    email: "seller@example.com",
    name: "Loja Demo",
    accessToken: token,
    scopesRequested: "basic_user_info order-order:read",
  });
  sql = await connect(databaseUrl);
  listener = await connect(databaseUrl);
  webhookKey = (await sql.query<{ webhookKey: string }>('SELECT "webhookKey" FROM "Connection" WHERE "sellerId" = $1', [shop.id])).rows[0]!
    .webhookKey;
}, 60_000);

afterAll(async () => {
  const { stopWorker } = await import("@/features/webhooks/worker.server");
  await stopWorker();
  await listener?.end();
  await sql?.end();
  await sandbox?.close();
});

const deliver = (body: string) => deliverToReceiver(webhookKey, body, { signWith: token });

const stateOf = async (body: string) =>
  (
    await sql.query<{ processingState: string; claimedBy: string | null; due: boolean | null }>(
      `SELECT e."processingState", w."claimedBy", w."availableAt" <= now() AT TIME ZONE 'UTC' AS due
       FROM "WebhookEvent" e LEFT JOIN "WebhookWork" w ON w."eventId" = e."id" WHERE e."rawBody" = $1`,
      [body],
    )
  ).rows[0];

describe("processing in a worker", () => {
  it("stores events for any worker, announces them, and a worker processes them", async () => {
    const created = await sandbox.api("/_sandbox/orders", { method: "POST", json: { seller: "seller@example.com" } });
    const orderId = ((await created.json()) as { orders: { id: string }[] }).orders[0]!.id;
    const body = JSON.stringify({ data: { domain: "order.order", status: "new", order_id: orderId } });

    const announced = new Promise<string>((resolve) => listener.on("notification", (message) => resolve(message.channel)));
    await listener.query("LISTEN webhook_work");
    expect((await deliver(body)).status).toBe(200);
    expect(await announced).toBe("webhook_work");
    // Nobody claimed it in the receiving process: it is due for any worker at once.
    expect(await stateOf(body)).toEqual({ processingState: "pending", claimedBy: null, due: true });

    const { startWorker } = await import("@/features/webhooks/worker.server");
    await startWorker();
    await expect.poll(async () => (await stateOf(body))?.processingState).toBe("processed");
    const mirrored = await sql.query(`SELECT "status" FROM "OrderMirror" WHERE "orderId" = $1`, [orderId]);
    expect(mirrored.rows).toEqual([{ status: "new" }]);

    // The running worker takes the next one as it is announced.
    const next = JSON.stringify({ data: { domain: "chat", status: "message_received", id: "c-1", code: "c" } });
    expect((await deliver(next)).status).toBe(200);
    await expect.poll(async () => (await stateOf(next))?.processingState).toBe("processed");
  });
});
