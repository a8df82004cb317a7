import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Order } from "@marketplace/api/schemas/order";
import { obtainAccessToken, startTestSandbox, type TestSandbox } from "./testing";

let sandbox: TestSandbox;
let token: string;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  sandbox.handle.reset();
  token = await obtainAccessToken(sandbox.url);
});

const control = (path: string, json?: unknown, method = "POST") =>
  sandbox.api(`/_sandbox${path}`, { method, ...(json !== undefined ? { json } : {}) });

async function newOrder(): Promise<Order> {
  const response = await control("/orders", { seller: "seller@example.com" });
  const body = (await response.json()) as { orders: Order[] };
  const order = body.orders[0];
  if (!order) throw new Error("no order");
  return order;
}

/** Takes every delivery of the order to delivered, through the route of its kind. */
async function deliverAll(order: Order): Promise<void> {
  for (const delivery of order.deliveries) {
    const bySeller = delivery.shipping.pickup_details.method === "seller";
    const steps = bySeller ? ["shipped", "delivered"] : ["received", "posted", "delivered"];
    for (const status of steps) {
      const path = `/orders/${order.id}/deliveries/${delivery.id}/${bySeller ? "shipping" : "status"}`;
      expect((await control(path, { status })).status, `${path} → ${status}`).toBe(200);
    }
  }
}

describe("control API", () => {
  it("POST /_sandbox/orders creates orders that the API lists first", async () => {
    const response = await control("/orders", { seller: "seller@example.com", count: 3 });
    expect(response.status).toBe(201);
    const { orders } = (await response.json()) as { orders: Order[] };
    expect(orders).toHaveLength(3);
    expect(orders.every((order) => order.status === "new" && order.approved_at === null)).toBe(true);
    const listed = (await (await sandbox.api("/v1.0/marketplace/orders?_limit=3", { token })).json()) as {
      results: Order[];
      meta: { total: number };
    };
    expect(listed.meta.total).toBe(23);
    expect(listed.results.map((order) => order.id).sort()).toEqual(orders.map((order) => order.id).sort());
  });

  it("POST /_sandbox/orders validates its body and the seller", async () => {
    expect((await control("/orders", { seller: "nobody@example.com" })).status).toBe(404);
    expect((await control("/orders", { seller: "seller@example.com", count: 0 })).status).toBe(400);
    expect((await control("/orders", {})).status).toBe(400);
  });

  it("moves orders along new → approved → finished and refuses other transitions with 409", async () => {
    const order = await newOrder();
    expect((await control(`/orders/${order.id}/status`, { status: "finished" })).status).toBe(409);
    const approved = await control(`/orders/${order.id}/status`, { status: "approved" });
    expect(approved.status).toBe(200);
    const body = (await approved.json()) as { order: Order };
    expect(body.order.status).toBe("approved");
    expect(body.order.approved_at).not.toBeNull();
    expect((await control(`/orders/${order.id}/status`, { status: "new" })).status).toBe(409);
    await deliverAll(body.order);
    expect((await control(`/orders/${order.id}/status`, { status: "finished" })).status).toBe(200);
    const conflict = await control(`/orders/${order.id}/status`, { status: "cancelled" });
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toMatchObject({ error: { code: "conflict" } });
    const fetched = (await (await sandbox.api(`/v1.0/marketplace/orders/${order.id}`, { token })).json()) as Order;
    expect(fetched.status).toBe("finished");
    expect((await control(`/orders/${"0".repeat(24)}/status`, { status: "approved" })).status).toBe(404);
    expect((await control(`/orders/${order.id}/status`, { status: "lost" })).status).toBe(400);
  });

  it("cancels new or approved orders", async () => {
    const order = await newOrder();
    expect((await control(`/orders/${order.id}/status`, { status: "cancelled" })).status).toBe(200);
  });

  it("moves deliveries one step at a time: created → received → posted → delivered", async () => {
    const order = await newOrder();
    // A delivery of the platform's delivery service (seller-arranged ones: shipping.test.ts).
    expect(order.deliveries[0]?.shipping.pickup_details.method).toBe("dropoff");
    const deliveryId = order.deliveries[0]?.id ?? "";
    const path = `/orders/${order.id}/deliveries/${deliveryId}/status`;
    expect((await control(path, { status: "posted" })).status).toBe(409);
    expect((await control(path, { status: "received" })).status).toBe(200);
    const posted = (await (await control(path, { status: "posted" })).json()) as { order: Order };
    expect(posted.order.deliveries[0]?.shipping.posting_date).not.toBeNull();
    const delivered = (await (await control(path, { status: "delivered" })).json()) as { order: Order };
    expect(delivered.order.deliveries[0]?.status).toBe("delivered");
    expect(delivered.order.deliveries[0]?.shipping.delivery_date).not.toBeNull();
    expect((await control(path, { status: "delivered" })).status).toBe(409);
    expect((await control(`/orders/${order.id}/deliveries/${"0".repeat(24)}/status`, { status: "received" })).status).toBe(404);
  });

  it("advances the clock; new orders carry the sandbox time", async () => {
    const before = (await (await control("/clock", undefined, "GET")).json()) as { now: string };
    const moved = await control("/clock", { advanceSeconds: 86_400 });
    expect(moved.status).toBe(200);
    const after = (await moved.json()) as { now: string; offsetSeconds: number };
    expect(after.offsetSeconds).toBe(86_400);
    expect(Date.parse(after.now) - Date.parse(before.now)).toBeGreaterThanOrEqual(86_400_000);
    const order = await newOrder();
    expect(Date.parse(order.created_at)).toBeGreaterThanOrEqual(Date.parse(after.now));
    expect((await control("/clock", { advanceSeconds: -5 })).status).toBe(400);
  });

  it("reset restores the seed and forgets tokens", async () => {
    await newOrder();
    const reset = await control("/reset");
    expect(reset.status).toBe(200);
    expect((await sandbox.api("/v1.0/marketplace/orders", { token })).status).toBe(401);
    const fresh = await obtainAccessToken(sandbox.url);
    const body = (await (await sandbox.api("/v1.0/marketplace/orders", { token: fresh })).json()) as { meta: { total: number } };
    expect(body.meta.total).toBe(20);
    await control("/reset", { seedOrders: 4 });
    const fewer = await obtainAccessToken(sandbox.url);
    expect(
      ((await (await sandbox.api("/v1.0/marketplace/orders", { token: fewer })).json()) as { meta: { total: number } }).meta.total,
    ).toBe(4);
  });
});

describe("tokens for many sellers", () => {
  it("issues a working token per seller, by e-mail or id, with the application's scopes", async () => {
    const response = await control("/tokens", { sellers: ["seller@example.com", "650000000000000000000002"] });
    expect(response.status).toBe(200);
    const { tokens, scope } = (await response.json()) as {
      tokens: { seller: string; userId: string; access_token: string }[];
      scope: string;
    };
    expect(tokens.map((entry) => entry.userId)).toEqual(["650000000000000000000001", "650000000000000000000002"]);
    expect(scope.split(" ")).toContain("order-order:read");
    const info = await sandbox.api("/v1.0/integradores/basic_user_info", { method: "POST", token: tokens[1]!.access_token });
    expect(await info.json()).toMatchObject({ user_email: "seller2@example.com" });
  });

  it("refuses unknown sellers, applications and scopes", async () => {
    expect((await control("/tokens", { sellers: ["nobody@example.com"] })).status).toBe(404);
    expect((await control("/tokens", { sellers: ["seller@example.com"], clientId: "nope" })).status).toBe(404);
    expect((await control("/tokens", { sellers: [] })).status).toBe(400);
    expect((await control("/tokens", { sellers: ["seller@example.com"], scopes: ["not-a-scope"] })).status).toBe(400);
  });
});

describe("fault injection", () => {
  it("sets, reads, merges and clears faults; rejects unknown or out-of-range ones", async () => {
    const set = await control("/faults", { errorRate: 0.5, latencyMs: 10 });
    expect(set.status).toBe(200);
    await control("/faults", { importDown: true });
    expect(await (await control("/faults", undefined, "GET")).json()).toEqual({
      faults: {
        errorRate: 0.5,
        latencyMs: 10,
        importDown: true,
        rejectSkus: null,
        rateLimitPerMinute: null,
        duplicateWebhooks: false,
        dropWebhookRate: 0,
        reorderWebhooks: false,
        maintenance: false,
        userFaults: {},
        failLabels: [],
        labelLatencyMs: 0,
      },
    });
    expect((await control("/faults", { errorRate: 2 })).status).toBe(400);
    expect((await control("/faults", { dropWebhookRate: 1.5 })).status).toBe(400);
    expect((await control("/faults", { dropWebhookRate: -0.1 })).status).toBe(400);
    expect((await control("/faults", { reorderWebhooks: "yes" })).status).toBe(400);
    expect((await control("/faults", { rejectSkus: [] })).status).toBe(400);
    expect((await control("/faults", { rejectSkus: [{ field: "code" }] })).status).toBe(400);
    expect(await (await control("/faults", { dropWebhookRate: 0.25, reorderWebhooks: true })).json()).toMatchObject({
      faults: { dropWebhookRate: 0.25, reorderWebhooks: true, importDown: true },
    });
    expect((await control("/faults", { explode: true })).status).toBe(400);
    const cleared = await control("/faults", undefined, "DELETE");
    expect(await cleared.json()).toMatchObject({ faults: { errorRate: 0, importDown: false, dropWebhookRate: 0, reorderWebhooks: false } });
  });

  it("errorRate 1 → HTTP 500 on API endpoints; the token exchange is spared", async () => {
    await control("/faults", { errorRate: 1 });
    const response = await sandbox.api("/v1.0/marketplace/orders", { token });
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ error: { code: "server_error" } });
    expect((await sandbox.api("/v1.0/marketplace/portfolios/prices", { token })).status).toBe(500);
  });

  it("latencyMs delays API calls", async () => {
    await control("/faults", { latencyMs: 200 });
    const started = performance.now();
    expect((await sandbox.api("/v1.0/marketplace/orders?_limit=1", { token })).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
  });

  it("rateLimitPerMinute → 429 with Retry-After until the minute passes", async () => {
    await control("/faults", { rateLimitPerMinute: 2 });
    expect((await sandbox.api("/v1.0/marketplace/orders?_limit=1", { token })).status).toBe(200);
    expect((await sandbox.api("/v1.0/marketplace/orders?_limit=1", { token })).status).toBe(200);
    const limited = await sandbox.api("/v1.0/marketplace/orders?_limit=1", { token });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({ error: { code: "rate_limited" } });
    await control("/clock", { advanceSeconds: 61 });
    expect((await sandbox.api("/v1.0/marketplace/orders?_limit=1", { token })).status).toBe(200);
  });

  it("userFaults slow down or rate-limit one user's calls and no one else's", async () => {
    const other = await obtainAccessToken(sandbox.url, { login: "seller2@example.com" });
    expect((await control("/faults", { userFaults: { "Seller@Example.com": { retryAfterSeconds: 30 } } })).status).toBe(200);
    const limited = await sandbox.api("/v1.0/marketplace/orders?_limit=1", { token });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toBe("30");
    expect((await sandbox.api("/v1.0/marketplace/orders?_limit=1", { token: other })).status).toBe(200);

    await control("/faults", { userFaults: { "seller@example.com": { latencyMs: 200 } } });
    let started = performance.now();
    expect((await sandbox.api("/v1.0/marketplace/orders?_limit=1", { token })).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    started = performance.now();
    expect((await sandbox.api("/v1.0/marketplace/orders?_limit=1", { token: other })).status).toBe(200);
    expect(performance.now() - started).toBeLessThan(190);

    expect((await control("/faults", { userFaults: { "not-an-email": { latencyMs: 1 } } })).status).toBe(400);
    expect((await control("/faults", { userFaults: { "seller@example.com": { retryAfterSeconds: 0 } } })).status).toBe(400);
    await control("/faults", { userFaults: null });
    expect((await sandbox.api("/v1.0/marketplace/orders?_limit=1", { token })).status).toBe(200);
  });

  it("maintenance → 503 on API calls", async () => {
    await control("/faults", { maintenance: true });
    const response = await sandbox.api("/v1.0/marketplace/orders", { token });
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ error: { code: "temporarily_unavailable" } });
  });
});

describe("control API switched off", () => {
  it("answers 404 on every control route but health", async () => {
    const locked = await startTestSandbox({ config: { controlEnabled: false } });
    try {
      for (const [method, path] of [
        ["POST", "/_sandbox/reset"],
        ["POST", "/_sandbox/clock"],
        ["POST", "/_sandbox/orders"],
        ["GET", "/_sandbox/deliveries"],
        ["POST", "/_sandbox/faults"],
        ["DELETE", "/_sandbox/faults"],
      ] as const) {
        const response = await locked.api(path, method === "GET" ? {} : { method, json: {} });
        expect(response.status, `${method} ${path}`).toBe(404);
      }
      expect((await locked.api("/_sandbox/health")).status).toBe(200);
    } finally {
      await locked.close();
    }
  });
});

describe("unknown routes", () => {
  it("answer 404 in the common error shape", async () => {
    const response = await sandbox.api("/v1.0/nothing-here");
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: "not_found" } });
  });
});

describe("control API of an exposed sandbox (SANDBOX_HOST not loopback)", () => {
  const CONTROL_TOKEN = "control-token-0123456789abcdef";
  let exposed: TestSandbox;

  beforeAll(async () => {
    exposed = await startTestSandbox({ config: { host: "0.0.0.0", controlToken: CONTROL_TOKEN } });
  });
  afterAll(() => exposed.close());

  const routes = [
    ["GET", "/_sandbox/health"],
    ["POST", "/_sandbox/reset"],
    ["GET", "/_sandbox/clock"],
    ["POST", "/_sandbox/clock"],
    ["POST", "/_sandbox/orders"],
    ["GET", "/_sandbox/deliveries"],
    ["GET", "/_sandbox/faults"],
    ["POST", "/_sandbox/faults"],
    ["DELETE", "/_sandbox/faults"],
    ["GET", "/_sandbox/no-such-route"],
  ] as const;

  it.each(routes)("%s %s without the token → 401", async (method, path) => {
    const response = await exposed.api(path, method === "GET" ? {} : { method, json: {} });
    expect(response.status).toBe(401);
    expect(response.headers.get("WWW-Authenticate")).toBe('Bearer error="invalid_token"');
    expect(await response.json()).toMatchObject({
      error: { code: "invalid_token", message: expect.stringContaining("SANDBOX_CONTROL_TOKEN") },
    });
  });

  it.each([
    ["another token of the same length", `${CONTROL_TOKEN.slice(0, -1)}X`],
    ["a prefix of the token", CONTROL_TOKEN.slice(0, 10)],
    ["the token and more", `${CONTROL_TOKEN}X`],
  ])("%s → 401", async (_name, presented) => {
    expect((await exposed.api("/_sandbox/faults", { token: presented })).status).toBe(401);
    expect((await exposed.api("/_sandbox/faults", { headers: { Authorization: `Basic ${CONTROL_TOKEN}` } })).status).toBe(401);
  });

  it("with Authorization: Bearer <SANDBOX_CONTROL_TOKEN> every route works as usual", async () => {
    expect((await exposed.api("/_sandbox/health", { token: CONTROL_TOKEN })).status).toBe(200);
    expect((await exposed.api("/_sandbox/faults", { method: "POST", token: CONTROL_TOKEN, json: { latencyMs: 1 } })).status).toBe(200);
    expect(await (await exposed.api("/_sandbox/faults", { method: "DELETE", token: CONTROL_TOKEN })).json()).toMatchObject({
      faults: { latencyMs: 0 },
    });
    const created = await exposed.api("/_sandbox/orders", { method: "POST", token: CONTROL_TOKEN, json: { seller: "seller@example.com" } });
    expect(created.status).toBe(201);
    expect((await exposed.api("/_sandbox/no-such-route", { token: CONTROL_TOKEN })).status).toBe(404);
  });

  it("the platform API keeps its own tokens: the control token is not an access token", async () => {
    expect((await exposed.api("/v1.0/marketplace/orders", { token: CONTROL_TOKEN })).status).toBe(401);
  });

  it("with the control API off and no token, health stays open and the rest answers 404", async () => {
    const locked = await startTestSandbox({ config: { host: "0.0.0.0", controlEnabled: false } });
    try {
      expect((await locked.api("/_sandbox/health")).status).toBe(200);
      expect((await locked.api("/_sandbox/faults")).status).toBe(404);
    } finally {
      await locked.close();
    }
  });

  it("on a loopback address no token is asked, even when one is set", async () => {
    const local = await startTestSandbox({ config: { controlToken: CONTROL_TOKEN } });
    try {
      expect((await local.api("/_sandbox/faults")).status).toBe(200);
    } finally {
      await local.close();
    }
  });
});
