import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Order } from "@/lib/marketplace/schemas/order";
import { obtainAccessToken, startTestSandbox, type TestSandbox } from "./testing";

// The seeded data links only to things the sandbox serves itself, so pictures, labels and
// tracking pages open with no internet.
let sandbox: TestSandbox;
let order: Order;

beforeAll(async () => {
  sandbox = await startTestSandbox({ config: { seedOrders: 5 } });
  const token = await obtainAccessToken(sandbox.url);
  const list = (await (await sandbox.api("/v1.0/marketplace/orders?_limit=1", { token })).json()) as { results: Order[] };
  order = list.results[0]!;
});
afterAll(() => sandbox.close());

const pathOf = (url: string) => new URL(url).pathname;

describe("sandbox assets", () => {
  it("serves every seeded item picture as an SVG naming the product", async () => {
    const item = order.deliveries[0]!.items[0]!;
    const url = item.info.images[0]!;
    expect(url).toMatch(/^http:\/\/localhost:\d+\/_assets\/products\/[a-z0-9-]+\.svg$/);
    const response = await fetch(`${sandbox.url}${pathOf(url)}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/svg+xml");
    const svg = await response.text();
    expect(svg).toContain("<svg");
    expect(svg).toContain(item.info.sku);
  });

  it("serves the label and tracking pages a delivery links to", async () => {
    const { shipping } = order.deliveries[0]!;
    const label = await fetch(`${sandbox.url}${pathOf(shipping.labels.url)}`);
    expect(label.status).toBe(200);
    expect(await label.text()).toContain(order.deliveries[0]!.id);
    const tracking = await fetch(`${sandbox.url}${pathOf(shipping.tracking.url)}`);
    expect(tracking.status).toBe(200);
    expect(await tracking.text()).toContain(shipping.tracking.number);
  });

  it("answers 404 for anything else, without echoing it", async () => {
    expect((await fetch(`${sandbox.url}/_assets/products/nope.svg`)).status).toBe(404);
    expect((await fetch(`${sandbox.url}/_assets/products/%3Cscript%3E.svg`)).status).toBe(404);
    expect((await fetch(`${sandbox.url}/_assets/labels/not-an-id`)).status).toBe(404);
    expect((await fetch(`${sandbox.url}/_assets/tracking/XX`)).status).toBe(404);
  });
});
