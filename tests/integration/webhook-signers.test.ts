import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as ReceiverRoute from "@/app/api/webhooks/marketplace/[key]/route";
import type * as Sellers from "@/lib/shops/shops.server";
import { signWebhookBody } from "@marketplace/api/signature";
import { obtainAccessToken, startTestSandbox } from "@marketplace/sandbox/testing";
import type { TestSandbox } from "@marketplace/sandbox/testing";
import { connect, useTestDatabase } from "../support/database";

// Whose notification is it? The platform may keep one callback URL per application (the sandbox's
// SANDBOX_CALLBACK_SCOPE=application): every seller's notifications then reach the receiver path
// of whichever seller set the URL last, each signed with its own seller's token. The dashboard
// accepts that only with MARKETPLACE_CALLBACK_SCOPE=application (set here, before any import reads
// the environment); tests/integration/webhook-callback-scope.test.ts covers the default, "user".
// And a reconnect changes the token while notifications signed with the old one may still be on
// their way. A real sandbox delivers over HTTP to the real receiver route, served by a plain node server.
process.env.MARKETPLACE_CALLBACK_SCOPE = "application";
let sandbox: TestSandbox;
let sql: pg.Client;
let server: Server;
let receiverOrigin: string;
let POST: typeof ReceiverRoute.POST;
let shops: typeof Sellers;
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};
const keys: Record<string, string> = {};

async function connectAs(login: string) {
  tokens[login] = await obtainAccessToken(sandbox.url, { login });
  const shop = await shops.connectShop({
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

beforeAll(async () => {
  const databaseUrl = await useTestDatabase();
  sandbox = await startTestSandbox({ config: { callbackScope: "application", seedOrders: 0 } });
  process.env.MARKETPLACE_BASE_URL = sandbox.url;
  ({ POST } = await import("@/app/api/webhooks/marketplace/[key]/route"));
  shops = await import("@/lib/shops/shops.server");
  sql = await connect(databaseUrl);
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const key = decodeURIComponent(req.url!.split("/").at(-1)!);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const response = await POST(new Request(`http://localhost${req.url}`, { method: "POST", headers, body: Buffer.concat(chunks) }), {
      params: Promise.resolve({ key }),
    });
    res.writeHead(response.status, { "content-type": "application/json" });
    res.end(await response.text());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiverOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await connectAs("seller@example.com");
  await connectAs("seller2@example.com");
}, 60_000);

afterAll(async () => {
  const { stopWebhookProcessing } = await import("@/features/webhooks/process/process.server");
  await stopWebhookProcessing(100);
  await sandbox?.close();
  await new Promise((resolve) => server?.close(resolve));
  await sql?.end();
  delete process.env.MARKETPLACE_CALLBACK_SCOPE;
});

const eventsOf = async (login: string) =>
  (
    await sql.query<{ orderId: string }>(
      `SELECT "orderId" FROM "WebhookEvent" WHERE "sellerId" = $1 AND "domain" = 'order.order' ORDER BY "orderId"`,
      [ids[login]],
    )
  ).rows.map((row) => row.orderId);

describe("a callback URL kept per application", () => {
  it("stores each seller's notifications under that seller, though all arrive at one seller's path", async () => {
    // The first seller sets the application's one URL: their own receiver path.
    const set = await sandbox.api("/v1.0/marketplace/webhooks/url", {
      method: "POST",
      token: tokens["seller@example.com"],
      json: { url: `${receiverOrigin}/api/webhooks/marketplace/${keys["seller@example.com"]}` },
    });
    expect(set.status).toBe(200);
    const create = async (shop: string) =>
      ((await (await sandbox.api("/_sandbox/orders", { method: "POST", json: { seller: shop } })).json()) as { orders: { id: string }[] })
        .orders[0]!.id;
    const first = await create("seller@example.com");
    const second = await create("seller2@example.com");
    await expect
      .poll(async () => [...(await eventsOf("seller@example.com")), ...(await eventsOf("seller2@example.com"))].length, { timeout: 10_000 })
      .toBe(2);
    expect(await eventsOf("seller@example.com")).toEqual([first]);
    expect(await eventsOf("seller2@example.com")).toEqual([second]);
    const deliveries = (await (await sandbox.api("/_sandbox/deliveries")).json()) as { deliveries: { state: string }[] };
    expect(deliveries.deliveries.map((delivery) => delivery.state)).toEqual(["delivered", "delivered"]);
  });

  it("still refuses a body no connected seller signed", async () => {
    const body = JSON.stringify({ data: { domain: "order.order", status: "new", order_id: "65a000000000000000000bad" } });
    const response = await fetch(`${receiverOrigin}/api/webhooks/marketplace/${keys["seller@example.com"]}`, {
      method: "POST",
      headers: { "content-type": "application/json", "X-SVC-Signature": signWebhookBody(body, "a-token-nobody-has") },
      body,
    });
    expect(response.status).toBe(401);
  });
});

describe("a reconnect", () => {
  it("accepts notifications signed with the replaced token during the grace period, not after", async () => {
    const login = "seller2@example.com";
    const oldToken = tokens[login]!;
    await connectAs(login);
    expect(tokens[login]).not.toBe(oldToken);
    const post = (body: string, token: string) =>
      fetch(`${receiverOrigin}/api/webhooks/marketplace/${keys[login]}`, {
        method: "POST",
        headers: { "content-type": "application/json", "X-SVC-Signature": signWebhookBody(body, token) },
        body,
      });
    const late = JSON.stringify({ data: { domain: "chat", status: "message_received", id: "late-1", code: "c" } });
    expect((await post(late, oldToken)).status).toBe(200);
    const stored = await sql.query(`SELECT "sellerId" FROM "WebhookEvent" WHERE "rawBody" = $1`, [late]);
    expect(stored.rows).toEqual([{ sellerId: ids[login] }]);

    // The grace period ends.
    await sql.query(`UPDATE "Connection" SET "previousTokenUntil" = now() - interval '1 minute' WHERE "sellerId" = $1`, [ids[login]]);
    (await import("@/features/webhooks/receive/receivers.server")).forgetWebhookReceivers(ids[login]!);
    const later = JSON.stringify({ data: { domain: "chat", status: "message_received", id: "late-2", code: "c" } });
    expect((await post(later, oldToken)).status).toBe(401);
    expect((await post(later, tokens[login]!)).status).toBe(200);
  });
});
