// Deliveries the seller arranges (spec: Events → order.shipping "shipments to be arranged":
// shipped, delivered), the control route that moves them, finishing an order only once every
// delivery is delivered, and seeded orders that agree with all of it.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { listEnvelopeSchema } from "@marketplace/api/schemas/list";
import { orderSchema, type Delivery, type Order } from "@marketplace/api/schemas/order";
import { webhookMessageSchema } from "@marketplace/api/schemas/webhook";
import { createSandbox } from "./app";
import { SEED_USER_IDS } from "./seed";
import { obtainAccessToken, startTestSandbox, type TestSandbox } from "./testing";

/** What the receiver got: body and X-SVC-Signature (a stub HTTP client stands in for it). */
let received: { body: string; signature: string | null }[] = [];
let sandbox: TestSandbox;
let token: string;

beforeAll(async () => {
  sandbox = await startTestSandbox({
    fetch: async (_input, init) => {
      received.push({ body: String(init?.body), signature: new Headers(init?.headers).get("X-SVC-Signature") });
      return new Response(null, { status: 200 });
    },
    lookup: async () => [{ address: "93.184.215.14", family: 4 }],
  });
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  sandbox.handle.reset();
  received = [];
  token = await obtainAccessToken(sandbox.url);
  await sandbox.api("/v1.0/webhooks", { method: "POST", token, json: { url: "https://hooks.test/in" } });
});

const control = (path: string, json: unknown) => sandbox.api(`/_sandbox${path}`, { method: "POST", json });
const bySeller = (delivery: Delivery) => delivery.shipping.pickup_details.method === "seller";

/** A new order (control API) with a delivery the seller arranges, and one with a platform delivery. */
async function newOrders(): Promise<{ seller: Order; platform: Order }> {
  const { orders } = (await (await control("/orders", { seller: "seller@example.com", count: 40 })).json()) as { orders: Order[] };
  const seller = orders.find((order) => order.deliveries.length === 1 && order.deliveries.every(bySeller));
  const platform = orders.find((order) => order.deliveries.length === 1 && !order.deliveries.some(bySeller));
  if (!seller || !platform) throw new Error("40 orders without both kinds of delivery");
  return { seller, platform };
}

/** The notifications about `orderId` as the receiver got them, once every logged one has been sent. */
async function notificationsAbout(orderId: string): Promise<unknown[]> {
  const deadline = Date.now() + 4000;
  while (sandbox.handle.webhooks.list().some((delivery) => delivery.state !== "delivered")) {
    if (Date.now() > deadline) throw new Error("notifications still pending");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  // Log order is the order events happened in (arrival order is not promised).
  const logged = sandbox.handle.webhooks.list().map((delivery) => delivery.body);
  expect([...received.map((message) => message.body)].sort()).toEqual([...logged].sort());
  return logged.map((body) => webhookMessageSchema.parse(JSON.parse(body))).filter((message) => JSON.stringify(message).includes(orderId));
}

describe("a shipment the seller arranges: created → shipped → delivered", () => {
  it("moves with POST /_sandbox/orders/{id}/deliveries/{deliveryId}/shipping, sets the spec's dates and sends order.shipping", async () => {
    const { seller: order } = await newOrders();
    const delivery = order.deliveries[0] as Delivery;
    expect(delivery).toMatchObject({ status: "created", shipping: { posting_date: null, delivery_date: null } });
    await control(`/orders/${order.id}/status`, { status: "approved" });
    const path = `/orders/${order.id}/deliveries/${delivery.id}/shipping`;

    /** The sandbox time of the move made by `call`, bounded by the clock read before and after it. */
    const during = async (call: () => Promise<Response>): Promise<{ response: Response; from: number; to: number }> => {
      const from = Date.parse(((await (await sandbox.api("/_sandbox/clock")).json()) as { now: string }).now);
      const response = await call();
      const to = Date.parse(((await (await sandbox.api("/_sandbox/clock")).json()) as { now: string }).now);
      return { response, from, to };
    };

    await sandbox.api("/_sandbox/clock", { method: "POST", json: { advanceSeconds: 3600 } });
    const shipped = await during(() => control(path, { status: "shipped" }));
    expect(shipped.response.status).toBe(200);
    const afterShipping = ((await shipped.response.json()) as { order: Order }).order;
    const posting = afterShipping.deliveries[0]?.shipping.posting_date ?? "";
    expect(afterShipping.deliveries[0]).toMatchObject({ status: "shipped", shipping: { delivery_date: null } });
    expect(Date.parse(posting)).toBeGreaterThanOrEqual(shipped.from);
    expect(Date.parse(posting)).toBeLessThanOrEqual(shipped.to);
    expect(afterShipping.updated_at).toBe(posting);

    await sandbox.api("/_sandbox/clock", { method: "POST", json: { advanceSeconds: 2 * 86_400 } });
    const arrival = await during(() => control(path, { status: "delivered" }));
    const delivered = ((await arrival.response.json()) as { order: Order }).order;
    const deliveryDate = delivered.deliveries[0]?.shipping.delivery_date ?? "";
    expect(delivered.deliveries[0]).toMatchObject({ status: "delivered", shipping: { posting_date: posting } });
    expect(Date.parse(deliveryDate)).toBeGreaterThanOrEqual(arrival.from);
    expect(Date.parse(deliveryDate)).toBeLessThanOrEqual(arrival.to);
    expect(Date.parse(deliveryDate) - Date.parse(posting)).toBeGreaterThanOrEqual(2 * 86_400_000);

    // The API reads what the control API did.
    const read = orderSchema.strict().parse(await (await sandbox.api(`/v1.0/marketplace/orders/${order.id}`, { token })).json());
    expect(read.deliveries[0]).toEqual(delivered.deliveries[0]);

    // Notifications as the spec shows order messages: domain, status, order_id, delivery_id; signed.
    const messages = await notificationsAbout(order.id);
    const shipping = messages.filter((message) => (message as { data: { domain: string } }).data.domain === "order.shipping");
    expect(shipping).toEqual([
      { data: { domain: "order.shipping", status: "shipped", order_id: order.id, delivery_id: delivery.id } },
      { data: { domain: "order.shipping", status: "delivered", order_id: order.id, delivery_id: delivery.id } },
    ]);
    expect(received.every((message) => message.signature !== null)).toBe(true);
  });

  it("one step at a time, on its own route only: 409 otherwise; 400 a status of another lifecycle; 404 unknown", async () => {
    const { seller, platform } = await newOrders();
    const shipment = `/orders/${seller.id}/deliveries/${seller.deliveries[0]?.id}`;
    expect((await control(`${shipment}/shipping`, { status: "delivered" })).status).toBe(409);
    const wrongRoute = await control(`${shipment}/status`, { status: "received" });
    expect(wrongRoute.status).toBe(409);
    expect(await wrongRoute.json()).toMatchObject({ error: { code: "conflict", message: expect.stringContaining("/shipping") } });
    const platformDelivery = `/orders/${platform.id}/deliveries/${platform.deliveries[0]?.id}`;
    const notAShipment = await control(`${platformDelivery}/shipping`, { status: "shipped" });
    expect(notAShipment.status).toBe(409);
    expect(await notAShipment.json()).toMatchObject({ error: { code: "conflict", message: expect.stringContaining("/status") } });
    expect((await control(`${shipment}/shipping`, { status: "posted" })).status).toBe(400);
    expect((await control(`/orders/${seller.id}/deliveries/${"0".repeat(24)}/shipping`, { status: "shipped" })).status).toBe(404);
    expect((await control(`/orders/${"0".repeat(24)}/deliveries/${seller.deliveries[0]?.id}/shipping`, { status: "shipped" })).status).toBe(
      404,
    );
    expect((await control(`${shipment}/shipping`, { status: "shipped" })).status).toBe(200);
    expect((await control(`${shipment}/shipping`, { status: "shipped" })).status).toBe(409);
    await control(`/orders/${seller.id}/status`, { status: "cancelled" });
    const cancelled = await control(`${shipment}/shipping`, { status: "delivered" });
    expect(cancelled.status).toBe(409);
    expect(await cancelled.json()).toMatchObject({ error: { message: "The order is cancelled: its deliveries cannot move" } });
  });
});

describe("finishing an order", () => {
  it("needs every delivery delivered: 409 naming those that are not, then 200", async () => {
    const { seller, platform } = await newOrders();
    for (const order of [seller, platform]) await control(`/orders/${order.id}/status`, { status: "approved" });
    const early = await control(`/orders/${seller.id}/status`, { status: "finished" });
    expect(early.status).toBe(409);
    expect(await early.json()).toMatchObject({
      error: {
        code: "conflict",
        message: `An order is finished only once every delivery is delivered; not yet: ${seller.deliveries[0]?.id} (created)`,
      },
    });
    const shipment = `/orders/${seller.id}/deliveries/${seller.deliveries[0]?.id}/shipping`;
    await control(shipment, { status: "shipped" });
    expect((await control(`/orders/${seller.id}/status`, { status: "finished" })).status).toBe(409);
    await control(shipment, { status: "delivered" });
    const finished = await control(`/orders/${seller.id}/status`, { status: "finished" });
    expect(finished.status).toBe(200);
    expect(((await finished.json()) as { order: Order }).order.status).toBe("finished");

    const delivery = `/orders/${platform.id}/deliveries/${platform.deliveries[0]?.id}/status`;
    for (const status of ["received", "posted"]) await control(delivery, { status });
    expect((await control(`/orders/${platform.id}/status`, { status: "finished" })).status).toBe(409);
    await control(delivery, { status: "delivered" });
    expect((await control(`/orders/${platform.id}/status`, { status: "finished" })).status).toBe(200);
  });

  it("the notifications tell the story in order: new, approved, shipped, delivered, finished", async () => {
    const { seller: order } = await newOrders();
    await control(`/orders/${order.id}/status`, { status: "approved" });
    const shipment = `/orders/${order.id}/deliveries/${order.deliveries[0]?.id}/shipping`;
    await control(shipment, { status: "shipped" });
    await control(shipment, { status: "delivered" });
    await control(`/orders/${order.id}/status`, { status: "finished" });
    const about = await notificationsAbout(order.id);
    expect(
      about.map(
        (message) =>
          `${(message as { data: { domain: string; status: string } }).data.domain}/${(message as { data: { status: string } }).data.status}`,
      ),
    ).toEqual(["order.order/new", "order.order/approved", "order.shipping/shipped", "order.shipping/delivered", "order.order/finished"]);
  });
});

describe("seeded orders", () => {
  const seeded = createSandbox({ config: { seedOrders: 2000 }, startDelivery: false });
  const orders = seeded.store.sellerOrders(SEED_USER_IDS.seller).items;
  const deliveries = orders.flatMap((order) => order.deliveries.map((delivery) => ({ order, delivery })));

  it("about one delivery in five is arranged by the seller, with the shipping lifecycle's statuses", () => {
    const sellers = deliveries.filter(({ delivery }) => bySeller(delivery));
    expect(sellers.length / deliveries.length).toBeGreaterThan(0.12);
    expect(sellers.length / deliveries.length).toBeLessThan(0.26);
    expect(new Set(sellers.map(({ delivery }) => delivery.status))).toEqual(new Set(["created", "shipped", "delivered"]));
    const platform = deliveries.filter(({ delivery }) => !bySeller(delivery));
    expect(new Set(platform.map(({ delivery }) => delivery.shipping.pickup_details.method))).toEqual(new Set(["dropoff"]));
    expect(new Set(platform.map(({ delivery }) => delivery.status))).toEqual(new Set(["created", "received", "posted", "delivered"]));
  });

  it("finished orders have every delivery delivered, posted and delivered dates set, in order and by updated_at", () => {
    const finished = orders.filter((order) => order.status === "finished");
    expect(finished.length).toBeGreaterThan(100);
    for (const order of finished) {
      for (const delivery of order.deliveries) {
        expect(delivery.status).toBe("delivered");
        const { posting_date: posted, delivery_date: delivered } = delivery.shipping;
        expect(posted).not.toBeNull();
        expect(delivered).not.toBeNull();
        expect(Date.parse(posted ?? "")).toBeLessThanOrEqual(Date.parse(delivered ?? ""));
        expect(Date.parse(delivered ?? "")).toBeLessThanOrEqual(Date.parse(order.updated_at));
      }
    }
  });

  it("dates follow each delivery's status: posting_date once posted or shipped, delivery_date once delivered", () => {
    for (const { delivery } of deliveries) {
      const postedOrLater = ["posted", "shipped", "delivered"].includes(delivery.status);
      expect(delivery.shipping.posting_date !== null, `${delivery.id} ${delivery.status}`).toBe(postedOrLater);
      expect(delivery.shipping.delivery_date !== null, `${delivery.id} ${delivery.status}`).toBe(delivery.status === "delivered");
    }
  });

  it("only finished orders have delivered deliveries; a seller-arranged delivery can be listed by its method", async () => {
    expect(deliveries.filter(({ delivery }) => delivery.status === "delivered").every(({ order }) => order.status === "finished")).toBe(
      true,
    );
    const listed = listEnvelopeSchema(orderSchema).parse(
      await (await sandbox.api("/v1.0/marketplace/orders?deliveries.shipping.pickup_details.method=seller&_limit=200", { token })).json(),
    );
    expect(listed.results.length).toBeGreaterThan(0);
    expect(listed.results.every((order) => order.deliveries.some(bySeller))).toBe(true);
  });
});
