import { PDFDocument } from "@pdfme/pdf-lib";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Order } from "@marketplace/api/schemas/order";
import { pdfPageTexts } from "@marketplace/pdf-text";
import { obtainAccessToken, startTestSandbox, type TestSandbox } from "./testing";

// The seeded data links only to things the sandbox serves itself, so pictures, labels and
// tracking pages open with no internet.
let sandbox: TestSandbox;
let orders: Order[];
let order: Order;

beforeAll(async () => {
  sandbox = await startTestSandbox({ config: { seedOrders: 5 } });
  const token = await obtainAccessToken(sandbox.url);
  const list = (await (await sandbox.api("/v1.0/marketplace/orders?_limit=3", { token })).json()) as { results: Order[] };
  orders = list.results;
  order = orders[0]!;
});
afterAll(() => sandbox.close());
afterEach(async () => {
  await sandbox.api("/_sandbox/faults", { method: "DELETE" });
});

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

  it("serves the tracking page a delivery links to", async () => {
    const { shipping } = order.deliveries[0]!;
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

describe("shipping labels", () => {
  const fetchLabel = (url: string) => fetch(`${sandbox.url}${pathOf(url)}`);

  it("answers the delivery's label as a one-page 10 × 15 cm PDF, with no token", async () => {
    const delivery = order.deliveries[0]!;
    const { shipping } = delivery;
    const response = await fetchLabel(shipping.labels.url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe(`inline; filename="etiqueta-${shipping.tracking.number}.pdf"`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe("%PDF-");

    const document = await PDFDocument.load(bytes, { updateMetadata: false });
    expect(document.getPageCount()).toBe(1);
    const { width, height } = document.getPage(0).getSize();
    expect(width).toBeGreaterThanOrEqual(283);
    expect(width).toBeLessThanOrEqual(284);
    expect(Math.round(height)).toBe(425);
    expect(document.getTitle()).toBe(`Etiqueta ${shipping.tracking.number}`);

    const [text] = await pdfPageTexts(bytes);
    const lines = text!.split("\n");
    expect(lines).toContain("SANDBOX — NÃO É UMA ETIQUETA REAL");
    expect(lines).toContain(shipping.tracking.number);
    expect(lines).toContain(shipping.recipient.name);
    expect(lines).toContain(`Pedido ${order.id}`);
    expect(lines).toContain(`Entrega ${delivery.id}`);
    expect(lines).toContain(`Itens: ${delivery.items.reduce((sum, item) => sum + item.quantity, 0)}`);
    expect(lines).toContain(`${shipping.recipient.address.city}/${shipping.recipient.address.state}`);
    expect(lines).toContain(`CEP ${shipping.recipient.address.zipcode}`);
    // The sender is the seller as the sandbox knows the user.
    expect(lines).toContain("Loja Demo");
  });

  it("answers 404 in plain text for a delivery id not in the store or not an id", async () => {
    for (const id of ["0123456789abcdef01234567", "not-an-id", "0123456789ABCDEF01234567"]) {
      const response = await fetch(`${sandbox.url}/_assets/labels/${id}`);
      expect(response.status, id).toBe(404);
      expect(response.headers.get("content-type"), id).toMatch(/^text\/plain/);
      expect(await response.text(), id).toBe("No such label");
    }
  });

  it("fault failLabels: the listed deliveries' labels answer 503, the others still 200", async () => {
    const [failing, working] = orders.map((entry) => entry.deliveries[0]!);
    const set = await sandbox.api("/_sandbox/faults", { method: "POST", json: { failLabels: [failing!.id] } });
    expect(((await set.json()) as { faults: { failLabels: string[] } }).faults.failLabels).toEqual([failing!.id]);

    const refused = await fetchLabel(failing!.shipping.labels.url);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await refused.text()).toMatch(/unavailable/);
    expect((await fetchLabel(working!.shipping.labels.url)).status).toBe(200);

    await sandbox.api("/_sandbox/faults", { method: "POST", json: { failLabels: null } });
    expect((await fetchLabel(failing!.shipping.labels.url)).status).toBe(200);
  });

  it("fault failLabels accepts at most 1,000 delivery ids, each an ObjectId", async () => {
    const ids = (count: number) => Array.from({ length: count }, (_, index) => index.toString(16).padStart(24, "0"));
    const patch = (failLabels: unknown) => sandbox.api("/_sandbox/faults", { method: "POST", json: { failLabels } });
    expect((await patch(ids(1_000))).status).toBe(200);
    expect((await patch(ids(1_001))).status).toBe(400);
    expect((await patch(["not-an-id"])).status).toBe(400);
    expect((await patch([])).status).toBe(200);
    expect(sandbox.handle.faults.current.failLabels).toEqual([]);
  });

  it("fault labelLatencyMs: a label still answers, after the delay", async () => {
    expect((await sandbox.api("/_sandbox/faults", { method: "POST", json: { labelLatencyMs: 50 } })).status).toBe(200);
    expect((await fetchLabel(order.deliveries[0]!.shipping.labels.url)).status).toBe(200);
    expect((await sandbox.api("/_sandbox/faults", { method: "POST", json: { labelLatencyMs: 60_001 } })).status).toBe(400);
  });

  it("fault labelPaddingBytes: every label weighs that much more, and is still the same one-page label", async () => {
    const delivery = order.deliveries[0]!;
    const plain = new Uint8Array(await (await fetchLabel(delivery.shipping.labels.url)).arrayBuffer());
    const padding = 300_000;
    const set = await sandbox.api("/_sandbox/faults", { method: "POST", json: { labelPaddingBytes: padding } });
    expect(((await set.json()) as { faults: { labelPaddingBytes: number } }).faults.labelPaddingBytes).toBe(padding);

    const response = await fetchLabel(delivery.shipping.labels.url);
    expect(response.status).toBe(200);
    const padded = new Uint8Array(await response.arrayBuffer());
    expect(Number(response.headers.get("content-length"))).toBe(padded.length);
    // The padding and its stream object's few bytes of syntax.
    expect(padded.length - plain.length).toBeGreaterThanOrEqual(padding);
    expect(padded.length - plain.length).toBeLessThan(padding + 200);
    const document = await PDFDocument.load(padded);
    expect(document.getPageCount()).toBe(1);
    expect((await pdfPageTexts(padded))[0]).toContain(delivery.shipping.tracking.number);
    // Copying the page (as a merge of labels does) carries the padding along.
    const merged = await PDFDocument.create();
    for (const page of await merged.copyPages(document, [0])) merged.addPage(page);
    expect((await merged.save()).length).toBeGreaterThan(padding);

    await sandbox.api("/_sandbox/faults", { method: "DELETE" });
    expect((await (await fetchLabel(delivery.shipping.labels.url)).arrayBuffer()).byteLength).toBe(plain.length);
    expect((await sandbox.api("/_sandbox/faults", { method: "POST", json: { labelPaddingBytes: 16 * 1024 * 1024 + 1 } })).status).toBe(400);
    expect((await sandbox.api("/_sandbox/faults", { method: "POST", json: { labelPaddingBytes: -1 } })).status).toBe(400);
  });
});
