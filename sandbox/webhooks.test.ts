import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { samplePrice, sampleSku } from "@marketplace/api/schemas/fixtures";
import { orderWebhookDataSchema, webhookMessageSchema } from "@marketplace/api/schemas/webhook";
import { SEED_USER_IDS } from "./seed";
import type { WebhookDelivery } from "./webhooks";
import { exchangeCode, obtainAccessToken, obtainCode, startTestSandbox, tokenFields, type TestSandbox } from "./testing";

interface Received {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A tiny webhook receiver: records every request; `respond` decides the status (or hangs with null). */
class Receiver {
  received: Received[] = [];
  respond: (index: number) => number | null = () => 200;
  private server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const index = this.received.push({ headers: request.headers, body: Buffer.concat(chunks) }) - 1;
      const status = this.respond(index);
      if (status !== null) response.writeHead(status).end("ok");
    });
  });
  url = "";

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  async waitFor(count: number, timeoutMs = 4000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} webhooks, got ${this.received.length}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return this.received;
  }
}

/** Independent check of the spec's signature: Base64(HMAC-SHA256(raw body, access token)). */
function verifySignature(body: Buffer, header: string | undefined, accessToken: string): boolean {
  if (!header) return false;
  const expected = Buffer.from(createHmac("sha256", accessToken).update(body).digest("base64"));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** The order an order.* notification is about. */
function orderIdOf(body: Buffer | string | undefined): string {
  return orderWebhookDataSchema.parse((JSON.parse(body?.toString() ?? "") as { data: unknown }).data).order_id;
}

async function waitUntil(check: () => boolean, timeoutMs = 4000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not reached in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let sandbox: TestSandbox;
let receiver: Receiver;
let token: string;

async function deliveries(): Promise<(WebhookDelivery & { attempt: number; responseStatus: number | null })[]> {
  const body = (await (await sandbox.api("/_sandbox/deliveries")).json()) as {
    deliveries: (WebhookDelivery & { attempt: number; responseStatus: number | null })[];
  };
  return body.deliveries;
}

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  sandbox.handle.reset();
  receiver = new Receiver();
  await receiver.start();
  token = await obtainAccessToken(sandbox.url);
  await sandbox.api("/v1.0/webhooks", { method: "POST", token, json: { url: receiver.url } });
});
afterEach(() => receiver.stop());

describe("webhook notifications", () => {
  it("a created SKU sends portfolio.sku/created, signed with the user's token", async () => {
    const created = (await (
      await sandbox.api("/v1.0/marketplace/portfolios/skus", { method: "POST", token, json: sampleSku("WH-1") })
    ).json()) as { id: string };
    const [message] = await receiver.waitFor(1);
    if (!message) throw new Error("no webhook");
    expect(message.headers["content-type"]).toContain("application/json");
    // The spec's headers and no more: a receiver built on a sandbox-only header would break on the platform.
    expect(Object.keys(message.headers).filter((name) => name.startsWith("x-"))).toEqual(["x-svc-signature"]);
    expect(verifySignature(message.body, message.headers["x-svc-signature"] as string | undefined, token)).toBe(true);
    expect(verifySignature(message.body, message.headers["x-svc-signature"] as string | undefined, "another-token")).toBe(false);
    expect(JSON.parse(message.body.toString("utf8"))).toEqual({
      data: { domain: "portfolio.sku", status: "created", id: created.id, code: "WH-1" },
    });
    await waitUntil(() => sandbox.handle.webhooks.list()[0]?.state === "delivered");
    const [log] = await deliveries();
    expect(log).toMatchObject({
      url: receiver.url,
      body: message.body.toString("utf8"),
      signature: message.headers["x-svc-signature"],
      attempt: 1,
      responseStatus: 200,
      state: "delivered",
    });
  });

  it("prices send portfolio.price created the first time, then updated", async () => {
    await sandbox.api("/v1.0/marketplace/portfolios/prices", {
      method: "POST",
      token,
      json: samplePrice("CAM-001", { type: "sell", value: 100 }),
    });
    await receiver.waitFor(1);
    await sandbox.api("/v1.0/marketplace/portfolios/prices", {
      method: "POST",
      token,
      json: samplePrice("CAM-001", { type: "sell", value: 200 }),
    });
    const messages = await receiver.waitFor(2);
    const statuses = messages.map((message) => webhookMessageSchema.parse(JSON.parse(message.body.toString("utf8"))).data.status);
    // The seeded catalogue already has sell prices for CAM-001, so both are updates; a new SKU's first price is "created".
    expect(statuses).toEqual(["updated", "updated"]);
    await sandbox.api("/v1.0/marketplace/portfolios/skus", { method: "POST", token, json: sampleSku("WH-P") });
    await sandbox.api("/v1.0/marketplace/portfolios/prices", { method: "POST", token, json: samplePrice("WH-P", { type: "list" }) });
    const all = await receiver.waitFor(4);
    expect(JSON.parse(all[3]?.body.toString("utf8") ?? "")).toMatchObject({
      data: { domain: "portfolio.price", status: "created", code: "WH-P" },
    });
  });

  it("order creation and status changes send order.order; delivery steps send order.delivery", async () => {
    const created = (await (await sandbox.api("/_sandbox/orders", { method: "POST", json: { seller: "seller@example.com" } })).json()) as {
      orders: { id: string; deliveries: { id: string }[] }[];
    };
    const order = created.orders[0];
    if (!order) throw new Error("no order");
    await sandbox.api(`/_sandbox/orders/${order.id}/status`, { method: "POST", json: { status: "approved" } });
    await sandbox.api(`/_sandbox/orders/${order.id}/deliveries/${order.deliveries[0]?.id}/status`, {
      method: "POST",
      json: { status: "received" },
    });
    const messages = await receiver.waitFor(3);
    const bodies = messages
      .map((message) => JSON.parse(message.body.toString("utf8")) as unknown)
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    expect(bodies).toEqual(
      [
        { data: { domain: "order.order", status: "new", order_id: order.id } },
        { data: { domain: "order.order", status: "approved", order_id: order.id } },
        { data: { domain: "order.delivery", status: "received", order_id: order.id, delivery_id: order.deliveries[0]?.id } },
      ].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    );
  });

  it("topics follow the scopes of the application's token", async () => {
    const ordersOnly = await obtainAccessToken(sandbox.url, {
      clientId: "multi-integrator",
      redirectUri: "http://localhost:3000/cb1",
      scopes: ["order-order:read"],
    });
    const other = new Receiver();
    await other.start();
    try {
      await sandbox.api("/v1.0/webhooks", { method: "POST", token: ordersOnly, json: { url: other.url } });
      await sandbox.api("/v1.0/marketplace/portfolios/skus", { method: "POST", token, json: sampleSku("TOPIC-1") });
      await sandbox.api("/_sandbox/orders", { method: "POST", json: { seller: "seller@example.com" } });
      await receiver.waitFor(2);
      const [only] = await other.waitFor(1);
      await sandbox.handle.webhooks.settled();
      expect(other.received).toHaveLength(1);
      expect(JSON.parse(only?.body.toString("utf8") ?? "")).toMatchObject({ data: { domain: "order.order" } });
      expect(verifySignature(only?.body ?? Buffer.alloc(0), only?.headers["x-svc-signature"] as string, ordersOnly)).toBe(true);
    } finally {
      await other.stop();
    }
  });

  it("retries a failed delivery with backoff (first retry within 5 s), advanced by the sandbox clock", async () => {
    receiver.respond = (index) => (index === 0 ? 500 : 200);
    await sandbox.api("/_sandbox/orders", { method: "POST", json: { seller: "seller@example.com" } });
    await receiver.waitFor(1);
    await waitUntil(
      () => sandbox.handle.webhooks.list()[0]?.state === "pending" && (sandbox.handle.webhooks.list()[0]?.attempts.length ?? 0) === 1,
    );
    const [pending] = await deliveries();
    expect(pending).toMatchObject({ attempt: 1, responseStatus: 500, state: "pending" });
    const delay = Date.parse(pending?.nextAttemptAt ?? "") - Date.parse(pending?.attempts[0]?.startedAt ?? "");
    expect(delay).toBeGreaterThanOrEqual(2000);
    expect(delay).toBeLessThan(5000);
    await sandbox.api("/_sandbox/clock", { method: "POST", json: { advanceSeconds: 3 } });
    const [first, second] = await receiver.waitFor(2, 1000);
    expect(second?.body.equals(first?.body ?? Buffer.alloc(0))).toBe(true);
    expect(second?.headers["x-svc-signature"]).toBe(first?.headers["x-svc-signature"]);
    await waitUntil(() => sandbox.handle.webhooks.list()[0]?.state === "delivered");
    const [done] = await deliveries();
    expect(done?.attempts.map((attempt) => attempt.responseStatus)).toEqual([500, 200]);
    expect(done?.nextAttemptAt).toBeNull();
  });

  it("fault duplicateWebhooks delivers every event twice: byte-identical bodies, same signature, no event id header", async () => {
    await sandbox.api("/_sandbox/faults", { method: "POST", json: { duplicateWebhooks: true } });
    await sandbox.api("/_sandbox/orders", { method: "POST", json: { seller: "seller@example.com" } });
    const [a, b] = await receiver.waitFor(2);
    expect(a?.body.equals(b?.body ?? Buffer.alloc(0))).toBe(true);
    expect(a?.headers["x-svc-signature"]).toBe(b?.headers["x-svc-signature"]);
    for (const copy of [a, b]) {
      expect(copy?.headers["x-svc-event-id"]).toBeUndefined();
      expect(copy?.headers["x-svc-delivery-attempt"]).toBeUndefined();
    }
  });

  it("no callback URL, no delivery", async () => {
    await sandbox.api("/v1.0/webhooks", { method: "DELETE", token });
    await sandbox.api("/_sandbox/orders", { method: "POST", json: { seller: "seller@example.com" } });
    await sandbox.handle.webhooks.settled();
    expect(receiver.received).toHaveLength(0);
    expect(await deliveries()).toEqual([]);
  });
});

describe("the signing token: the user's current one, asked at each attempt", () => {
  /** A token by the code flow, with its code (to replay it: RFC 6749 §4.1.2 then revokes the token). */
  async function tokenWithCode(login = "seller@example.com"): Promise<{ code: string; accessToken: string }> {
    const code = await obtainCode(sandbox.url, { login });
    const accessToken = ((await (await exchangeCode(sandbox.url, tokenFields(code))).json()) as { access_token: string }).access_token;
    return { code, accessToken };
  }

  async function replay(code: string): Promise<void> {
    expect((await exchangeCode(sandbox.url, tokenFields(code))).status).toBe(400);
  }

  const createOrder = async (seller = "seller@example.com"): Promise<string> =>
    ((await (await sandbox.api("/_sandbox/orders", { method: "POST", json: { seller } })).json()) as { orders: { id: string }[] }).orders[0]
      ?.id ?? "";

  const signedWith = (message: Received | undefined, accessToken: string) =>
    verifySignature(message?.body ?? Buffer.alloc(0), message?.headers["x-svc-signature"] as string | undefined, accessToken);

  it("not the token that set the URL: once a code replay revokes it, the token the user holds now signs", async () => {
    // `token` (beforeEach) is older; the setter is the user's newest token.
    const setter = await tokenWithCode();
    await sandbox.api("/v1.0/webhooks", { method: "POST", token: setter.accessToken, json: { url: receiver.url } });
    await createOrder();
    const [bySetter] = await receiver.waitFor(1);
    expect(signedWith(bySetter, setter.accessToken)).toBe(true);

    await replay(setter.code);
    expect((await sandbox.api("/v1.0/webhooks", { token: setter.accessToken })).status).toBe(401);
    const order = await createOrder();
    const [, afterReplay] = await receiver.waitFor(2);
    expect(orderIdOf(afterReplay?.body)).toBe(order);
    expect(signedWith(afterReplay, token)).toBe(true);
    expect(signedWith(afterReplay, setter.accessToken)).toBe(false);

    // A newer token takes over at once; the callback URL stays where it was.
    const newest = await obtainAccessToken(sandbox.url);
    await createOrder();
    const [, , byNewest] = await receiver.waitFor(3);
    expect(signedWith(byNewest, newest)).toBe(true);
    expect(await (await sandbox.api("/v1.0/webhooks", { token: newest })).json()).toEqual({ url: receiver.url });
  });

  it("a user left with no active token gets nothing, not even a log entry, until they authorise again", async () => {
    const only = await tokenWithCode("seller2@example.com");
    await sandbox.api("/v1.0/webhooks", { method: "POST", token: only.accessToken, json: { url: receiver.url } });
    await replay(only.code);
    await createOrder("seller2@example.com");
    await sandbox.handle.webhooks.settled();
    expect(receiver.received).toHaveLength(0);
    expect(await deliveries()).toEqual([]);

    const again = await obtainAccessToken(sandbox.url, { login: "seller2@example.com" });
    const order = await createOrder("seller2@example.com");
    const [message] = await receiver.waitFor(1);
    expect(orderIdOf(message?.body)).toBe(order);
    expect(signedWith(message, again)).toBe(true);
  });

  it("a token revoked between an event and its retry: the retry is neither signed nor sent, and the delivery fails for good", async () => {
    receiver.respond = () => 500;
    const only = await tokenWithCode("seller2@example.com");
    await sandbox.api("/v1.0/webhooks", { method: "POST", token: only.accessToken, json: { url: receiver.url } });
    await createOrder("seller2@example.com");
    const [first] = await receiver.waitFor(1);
    expect(signedWith(first, only.accessToken)).toBe(true);
    await waitUntil(
      () => sandbox.handle.webhooks.list()[0]?.state === "pending" && sandbox.handle.webhooks.list()[0]?.attempts.length === 1,
    );

    await replay(only.code);
    await sandbox.api("/_sandbox/clock", { method: "POST", json: { advanceSeconds: 3 } });
    await waitUntil(() => sandbox.handle.webhooks.list()[0]?.state === "failed");
    const [failed] = await deliveries();
    expect(failed?.attempts.map((attempt) => attempt.responseStatus)).toEqual([500, null]);
    expect(failed?.attempts[1]?.error).toBe(
      "not signed: the user holds no active access token for this application (all revoked or expired): nothing may sign the notification, so it is not sent",
    );
    expect(failed?.nextAttemptAt).toBeNull();
    await sandbox.api("/_sandbox/clock", { method: "POST", json: { advanceSeconds: 120 } });
    await sandbox.handle.webhooks.settled();
    expect(receiver.received).toHaveLength(1);
    expect(sandbox.handle.webhooks.list()[0]?.attempts).toHaveLength(2);
  });
});

describe("delivery failures", () => {
  it("times out a receiver that does not answer and gives up after the last attempt", async () => {
    const quick = await startTestSandbox({ config: { webhookTimeoutMs: 150, webhookRetryDelaysMs: [20, 20, 20, 20, 20] } });
    const hanging = new Receiver();
    hanging.respond = () => null;
    await hanging.start();
    try {
      const quickToken = await obtainAccessToken(quick.url);
      await quick.api("/v1.0/webhooks", { method: "POST", token: quickToken, json: { url: hanging.url } });
      await quick.api("/_sandbox/orders", { method: "POST", json: { seller: "seller@example.com" } });
      await waitUntil(() => quick.handle.webhooks.list()[0]?.state === "failed", 5000);
      const [failed] = quick.handle.webhooks.list();
      expect(failed?.attempts).toHaveLength(6);
      expect(failed?.attempts.every((attempt) => attempt.error === "timed out after 150 ms" && attempt.responseStatus === null)).toBe(true);
      expect(failed?.nextAttemptAt).toBeNull();
      expect(hanging.received).toHaveLength(6);
    } finally {
      await hanging.stop();
      await quick.close();
    }
  });

  it("records network errors (nothing listening)", async () => {
    await receiver.stop();
    await sandbox.api("/_sandbox/orders", { method: "POST", json: { seller: "seller@example.com" } });
    await waitUntil(() => (sandbox.handle.webhooks.list()[0]?.attempts.length ?? 0) >= 1);
    const [log] = await deliveries();
    expect(log?.attempts[0]?.responseStatus).toBeNull();
    expect(log?.attempts[0]?.error).toBeTruthy();
    expect(log?.state).toBe("pending");
    receiver = new Receiver();
    await receiver.start();
  });
});

describe("fault dropWebhookRate", () => {
  it("1 drops every delivery: logged as dropped, never POSTed", async () => {
    await sandbox.api("/_sandbox/faults", { method: "POST", json: { dropWebhookRate: 1 } });
    const dropped = (await (await sandbox.api("/_sandbox/orders", { method: "POST", json: { seller: "seller@example.com" } })).json()) as {
      orders: { id: string }[];
    };
    await sandbox.api("/_sandbox/faults", { method: "POST", json: { dropWebhookRate: 0 } });
    const sent = (await (await sandbox.api("/_sandbox/orders", { method: "POST", json: { seller: "seller@example.com" } })).json()) as {
      orders: { id: string }[];
    };
    const [only] = await receiver.waitFor(1);
    await waitUntil(() => sandbox.handle.webhooks.list()[1]?.state === "delivered");
    expect(receiver.received).toHaveLength(1);
    expect(orderIdOf(only?.body)).toBe(sent.orders[0]?.id);
    const [log] = await deliveries();
    expect(log).toMatchObject({ state: "dropped", attempts: [], attempt: 0, responseStatus: null, nextAttemptAt: null, signature: null });
    expect(orderIdOf(log?.body)).toBe(dropped.orders[0]?.id);
  });

  it("decides each copy of a duplicated event on its own", async () => {
    await sandbox.api("/_sandbox/faults", { method: "POST", json: { duplicateWebhooks: true, dropWebhookRate: 0.5 } });
    await sandbox.api("/_sandbox/orders", { method: "POST", json: { seller: "seller@example.com", count: 20 } });
    const log = await deliveries();
    expect(log).toHaveLength(40);
    const sent = log.filter((delivery) => delivery.state !== "dropped");
    await receiver.waitFor(sent.length);
    // The copies of one event share its body (and the log's eventId); 20 events, 20 bodies.
    const sentPerBody = new Map<string, number>();
    for (const delivery of log)
      sentPerBody.set(delivery.body, (sentPerBody.get(delivery.body) ?? 0) + (delivery.state === "dropped" ? 0 : 1));
    expect(sentPerBody.size).toBe(20);
    expect(new Set(log.map((delivery) => delivery.eventId)).size).toBe(20);
    // With one decision per event, every event would have 0 or 2 copies sent.
    expect([...sentPerBody.values()]).toContain(1);
    // Every copy not dropped arrives once; a dropped copy never does.
    const received = receiver.received.map((message) => message.body.toString("utf8"));
    for (const [body, count] of sentPerBody) expect(received.filter((text) => text === body)).toHaveLength(count);
  });
});

describe("fault reorderWebhooks", () => {
  let stubbed: TestSandbox;
  /** Bodies in the order the dispatcher started their attempts (a stub fetch sees them synchronously). */
  let posted: string[] = [];

  beforeAll(async () => {
    stubbed = await startTestSandbox({
      fetch: async (_input, init) => {
        posted.push(String(init?.body));
        return new Response(null, { status: 200 });
      },
      // hooks.example resolves to a public address.
      lookup: async () => [{ address: "93.184.215.14", family: 4 }],
    });
  });
  afterAll(() => stubbed.close());
  beforeEach(async () => {
    stubbed.handle.reset();
    posted = [];
    const stubToken = await obtainAccessToken(stubbed.url);
    await stubbed.api("/v1.0/webhooks", { method: "POST", token: stubToken, json: { url: "http://hooks.example/in" } });
  });

  /** One control call creating 30 orders: 30 events enqueued in one go, so one burst. */
  async function burstOrder(): Promise<{ enqueued: string[]; attempted: string[] }> {
    const created = (await (
      await stubbed.api("/_sandbox/orders", { method: "POST", json: { seller: "seller@example.com", count: 30 } })
    ).json()) as { orders: { id: string }[] };
    await waitUntil(() => posted.length === 30);
    return {
      enqueued: created.orders.map((order) => order.id),
      attempted: posted.map(orderIdOf),
    };
  }

  it("off: attempts start in enqueue order", async () => {
    const { enqueued, attempted } = await burstOrder();
    expect(attempted).toEqual(enqueued);
  });

  it("on: the deliveries of one burst start in a shuffled order (seeded, so repeatable)", async () => {
    await stubbed.api("/_sandbox/faults", { method: "POST", json: { reorderWebhooks: true } });
    const { enqueued, attempted } = await burstOrder();
    expect(attempted).not.toEqual(enqueued);
    expect([...attempted].sort()).toEqual([...enqueued].sort());
    // The log keeps enqueue order; every delivery was attempted exactly once.
    await waitUntil(() => stubbed.handle.webhooks.list().every((delivery) => delivery.state === "delivered"));
    expect(stubbed.handle.webhooks.list().map((delivery) => orderIdOf(delivery.body))).toEqual(enqueued);
  });
});

describe("callback URL scope", () => {
  it("user (default): another user's events do not reach a URL this user set", async () => {
    await obtainAccessToken(sandbox.url, { login: "seller2@example.com" });
    await sandbox.api("/_sandbox/orders", { method: "POST", json: { seller: "seller2@example.com" } });
    await sandbox.api("/_sandbox/orders", { method: "POST", json: { seller: "seller@example.com" } });
    const [only] = await receiver.waitFor(1);
    await sandbox.handle.webhooks.settled();
    expect(receiver.received).toHaveLength(1);
    expect(verifySignature(only?.body ?? Buffer.alloc(0), only?.headers["x-svc-signature"] as string, token)).toBe(true);
  });

  describe("SANDBOX_CALLBACK_SCOPE=application", () => {
    let shared: TestSandbox;

    beforeAll(async () => {
      shared = await startTestSandbox({ config: { callbackScope: "application" } });
    });
    afterAll(() => shared.close());
    beforeEach(() => shared.handle.reset());

    const createOrder = async (seller: string): Promise<string> => {
      const created = (await (await shared.api("/_sandbox/orders", { method: "POST", json: { seller } })).json()) as {
        orders: { id: string }[];
      };
      return created.orders[0]?.id ?? "";
    };
    const signedWith = (message: Received | undefined, accessToken: string) =>
      verifySignature(message?.body ?? Buffer.alloc(0), message?.headers["x-svc-signature"] as string | undefined, accessToken);

    it("one URL for every user of the application, each user's events signed with that user's token", async () => {
      const tokenA = await obtainAccessToken(shared.url);
      const tokenB = await obtainAccessToken(shared.url, { login: "seller2@example.com" });
      await shared.api("/v1.0/webhooks", { method: "POST", token: tokenA, json: { url: receiver.url } });
      expect(await (await shared.api("/v1.0/webhooks", { token: tokenB })).json()).toEqual({ url: receiver.url });

      const orderB = await createOrder("seller2@example.com");
      const [fromB] = await receiver.waitFor(1);
      expect(orderIdOf(fromB?.body)).toBe(orderB);
      expect(signedWith(fromB, tokenB)).toBe(true);
      expect(signedWith(fromB, tokenA)).toBe(false);

      const orderA = await createOrder("seller@example.com");
      const [, fromA] = await receiver.waitFor(2);
      expect(orderIdOf(fromA?.body)).toBe(orderA);
      expect(signedWith(fromA, tokenA)).toBe(true);
      expect(signedWith(fromA, tokenB)).toBe(false);
    });

    it("a user who never authorised the application receives nothing", async () => {
      const tokenA = await obtainAccessToken(shared.url);
      await shared.api("/v1.0/webhooks", { method: "POST", token: tokenA, json: { url: receiver.url } });
      await createOrder("seller2@example.com");
      const orderA = await createOrder("seller@example.com");
      const [only] = await receiver.waitFor(1);
      await shared.handle.webhooks.settled();
      expect(receiver.received).toHaveLength(1);
      expect(orderIdOf(only?.body)).toBe(orderA);
      expect(shared.handle.webhooks.list()).toHaveLength(1);
    });

    it("signs with the user's latest token that is still active, and follows its scopes", async () => {
      const tokenA = await obtainAccessToken(shared.url);
      await shared.api("/v1.0/webhooks", { method: "POST", token: tokenA, json: { url: receiver.url } });
      const firstB = await obtainAccessToken(shared.url, { login: "seller2@example.com" });
      // A second token, then a replay of its code: RFC 6749 §4.1.2 revokes it.
      const code = await obtainCode(shared.url, { login: "seller2@example.com" });
      const revokedB = ((await (await exchangeCode(shared.url, tokenFields(code))).json()) as { access_token: string }).access_token;
      expect((await exchangeCode(shared.url, tokenFields(code))).status).toBe(400);

      await createOrder("seller2@example.com");
      const [fromB] = await receiver.waitFor(1);
      expect(signedWith(fromB, firstB)).toBe(true);
      expect(signedWith(fromB, revokedB)).toBe(false);

      // B's newest token lacks the order scopes: B's order events stop, A's keep coming.
      await obtainAccessToken(shared.url, { login: "seller2@example.com", scopes: ["portfolio:read"] });
      await createOrder("seller2@example.com");
      const orderA = await createOrder("seller@example.com");
      const [, next] = await receiver.waitFor(2);
      await shared.handle.webhooks.settled();
      expect(receiver.received).toHaveLength(2);
      expect(orderIdOf(next?.body)).toBe(orderA);
    });
  });
});

describe("callback addresses at delivery time", () => {
  it("a name that resolved to a public address when set and to a metadata address now: failed at once, never sent, not retried", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    let answer = "93.184.215.14";
    const sent: string[] = [];
    const rebinding = await startTestSandbox({
      fetch: async (input) => {
        sent.push(String(input));
        return new Response(null, { status: 200 });
      },
      lookup: async () => [{ address: answer, family: 4 }],
    });
    try {
      const setter = await obtainAccessToken(rebinding.url);
      expect(
        (await rebinding.api("/v1.0/webhooks", { method: "POST", token: setter, json: { url: "https://hooks.test/in" } })).status,
      ).toBe(200);
      answer = "169.254.169.254";
      await rebinding.api("/_sandbox/orders", { method: "POST", json: { seller: "seller@example.com" } });
      await waitUntil(() => rebinding.handle.webhooks.list()[0]?.state === "failed");
      const [failed] = rebinding.handle.webhooks.list();
      expect(failed?.attempts).toHaveLength(1);
      expect(failed?.attempts[0]).toMatchObject({
        responseStatus: null,
        error: "callback URL refused: not allowed (the sandbox's log says why)",
      });
      // The address is named in the operator's log, never in what the control API or console shows.
      expect(JSON.stringify(failed)).not.toContain("169.254");
      expect(warn).toHaveBeenCalledWith(expect.stringContaining("hooks.test resolves to 169.254.169.254: link-local"));
      expect(failed?.nextAttemptAt).toBeNull();
      // Not retried, however far the clock moves.
      await rebinding.api("/_sandbox/clock", { method: "POST", json: { advanceSeconds: 120 } });
      await rebinding.handle.webhooks.settled();
      expect(rebinding.handle.webhooks.list()[0]?.attempts).toHaveLength(1);
      expect(sent).toEqual([]);
    } finally {
      warn.mockRestore();
      await rebinding.close();
    }
  });

  it("connects to the address it checked, resolving the name once per attempt", async () => {
    // receiver.test exists only in this lookup: the delivery arrives only if the connection goes
    // to the checked address instead of asking DNS again.
    let lookups = 0;
    const pinned = await startTestSandbox({
      lookup: async () => {
        lookups++;
        return [{ address: "127.0.0.1", family: 4 }];
      },
    });
    try {
      const setter = await obtainAccessToken(pinned.url);
      const port = new URL(receiver.url).port;
      await pinned.api("/v1.0/webhooks", { method: "POST", token: setter, json: { url: `http://receiver.test:${port}/hooks` } });
      await pinned.api("/_sandbox/orders", { method: "POST", json: { seller: "seller@example.com" } });
      const [message] = await receiver.waitFor(1);
      expect(message?.headers.host).toBe(`receiver.test:${port}`);
      expect(verifySignature(message?.body ?? Buffer.alloc(0), message?.headers["x-svc-signature"] as string, setter)).toBe(true);
      await waitUntil(() => pinned.handle.webhooks.list()[0]?.state === "delivered");
      expect(lookups).toBe(2); // once when the URL was set, once for the attempt
    } finally {
      await pinned.close();
    }
  });

  it("an exposed sandbox refuses a loopback receiver at delivery too, unless SANDBOX_ALLOW_PRIVATE_CALLBACKS", async () => {
    const target = { clientId: "demo-integrator", userId: SEED_USER_IDS.seller, url: receiver.url, scopes: ["order-order:read"] };
    const data = { domain: "order.order" as const, status: "new", order_id: "0".repeat(24) };
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const exposed = await startTestSandbox({ config: { host: "0.0.0.0", controlToken: "c".repeat(32) } });
    const allowing = await startTestSandbox({ config: { host: "0.0.0.0", controlToken: "c".repeat(32), allowPrivateCallbacks: true } });
    try {
      // Something to sign with: the seller's token in each.
      await obtainAccessToken(exposed.url);
      await obtainAccessToken(allowing.url);
      exposed.handle.webhooks.enqueue(target, data);
      await waitUntil(() => exposed.handle.webhooks.list()[0]?.state === "failed");
      expect(exposed.handle.webhooks.list()[0]?.attempts[0]?.error).toBe("callback URL refused: not allowed (the sandbox's log says why)");
      expect(warn).toHaveBeenCalledWith(expect.stringContaining("127.0.0.1: loopback"));
      allowing.handle.webhooks.enqueue(target, data);
      await waitUntil(() => allowing.handle.webhooks.list()[0]?.state === "delivered");
      expect(receiver.received).toHaveLength(1);
    } finally {
      warn.mockRestore();
      await exposed.close();
      await allowing.close();
    }
  });
});

describe("delivery bounds", () => {
  /** A stub receiver whose answers wait until released (or the attempt is aborted). */
  function heldFetch(): {
    fetch: typeof fetch;
    bodies: string[];
    active: () => number;
    maxActive: () => number;
    releaseAll: () => void;
    autoRelease: (on: boolean) => void;
  } {
    const held: (() => void)[] = [];
    const bodies: string[] = [];
    let active = 0;
    let maxActive = 0;
    let auto = false;
    const stub = (_input: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((resolve, reject) => {
        bodies.push(String(init?.body));
        active++;
        maxActive = Math.max(maxActive, active);
        const answer = () => {
          active--;
          resolve(new Response(null, { status: 200 }));
        };
        init?.signal?.addEventListener("abort", () => {
          active--;
          reject(init.signal?.reason as Error);
        });
        if (auto) setTimeout(answer, 10);
        else held.push(answer);
      });
    return {
      fetch: stub as typeof fetch,
      bodies,
      active: () => active,
      maxActive: () => maxActive,
      releaseAll: () => held.splice(0).forEach((answer) => answer()),
      autoRelease: (on) => {
        auto = on;
      },
    };
  }

  async function boundedSandbox(
    config: { deliveryLogSize?: number; deliveryConcurrency?: number },
    stub: typeof fetch,
  ): Promise<TestSandbox> {
    const bounded = await startTestSandbox({ config, fetch: stub, lookup: async () => [{ address: "93.184.215.14", family: 4 }] });
    const setter = await obtainAccessToken(bounded.url);
    await bounded.api("/v1.0/webhooks", { method: "POST", token: setter, json: { url: "https://hooks.test/in" } });
    return bounded;
  }

  async function createOrders(target: TestSandbox, count: number): Promise<string[]> {
    const created = (await (
      await target.api("/_sandbox/orders", { method: "POST", json: { seller: "seller@example.com", count } })
    ).json()) as { orders: { id: string }[] };
    return created.orders.map((order) => order.id);
  }

  it("the log keeps SANDBOX_DELIVERY_LOG_SIZE deliveries: the one that finished longest ago goes first, one in flight stays", async () => {
    const receiverStub = heldFetch();
    const bounded = await boundedSandbox({ deliveryLogSize: 4 }, receiverStub.fetch);
    try {
      const logged = () => bounded.handle.webhooks.list().map((delivery) => orderIdOf(delivery.body));
      const [slow] = await createOrders(bounded, 1);
      await waitUntil(() => receiverStub.active() === 1);
      receiverStub.autoRelease(true);
      const quick: string[] = [];
      for (let i = 0; i < 6; i++) {
        quick.push(...(await createOrders(bounded, 1)));
        await waitUntil(() => bounded.handle.webhooks.list().at(-1)?.state === "delivered");
      }
      // The held delivery is still in flight and still logged; of the six delivered, the last three.
      expect(logged()).toEqual([slow, ...quick.slice(3)]);
      expect(bounded.handle.webhooks.list()[0]?.state).toBe("delivering");
      receiverStub.releaseAll();
      await waitUntil(() => bounded.handle.webhooks.list()[0]?.state === "delivered");
      // It finished last, so it is now the last to go.
      const [next] = await createOrders(bounded, 1);
      expect(logged()).toEqual([slow, ...quick.slice(4), next]);
    } finally {
      await bounded.close();
    }
  });

  it("a log full of unfinished deliveries forgets the oldest: it is never attempted again", async () => {
    const receiverStub = heldFetch();
    const bounded = await boundedSandbox({ deliveryLogSize: 2 }, receiverStub.fetch);
    try {
      // Three events in one call: the first is forgotten, still pending, as the third arrives.
      const orders = await createOrders(bounded, 3);
      expect(bounded.handle.webhooks.list().map((delivery) => orderIdOf(delivery.body))).toEqual(orders.slice(1));
      await waitUntil(() => receiverStub.active() === 2);
      receiverStub.autoRelease(true);
      receiverStub.releaseAll();
      await waitUntil(() => bounded.handle.webhooks.list().every((delivery) => delivery.state === "delivered"));
      await bounded.handle.webhooks.settled();
      expect(receiverStub.bodies.map(orderIdOf)).toEqual(orders.slice(1));
    } finally {
      await bounded.close();
    }
  });

  it("at most SANDBOX_DELIVERY_CONCURRENCY attempts run at once; the rest wait their turn, in order", async () => {
    const receiverStub = heldFetch();
    const bounded = await boundedSandbox({ deliveryConcurrency: 3 }, receiverStub.fetch);
    try {
      const orders = await createOrders(bounded, 12);
      await waitUntil(() => receiverStub.active() === 3);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(receiverStub.bodies).toHaveLength(3);
      receiverStub.autoRelease(true);
      receiverStub.releaseAll();
      await waitUntil(() => bounded.handle.webhooks.list().every((delivery) => delivery.state === "delivered"));
      expect(receiverStub.maxActive()).toBe(3);
      expect(receiverStub.bodies.map(orderIdOf)).toEqual(orders);
    } finally {
      await bounded.close();
    }
  });
});
