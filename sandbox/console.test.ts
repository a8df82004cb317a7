// The sandbox console (/_sandbox/) and the resend route, over HTTP as a browser without JavaScript
// would use them: GET pages, form posts (with the Origin a browser sends), 303 redirects.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Order } from "@marketplace/api/schemas/order";
import { createSandbox } from "./app";
import { isArrangedBySeller, SEED_USER_IDS } from "./seed";
import { obtainAccessToken, startTestSandbox, type TestSandbox } from "./testing";
import type { WebhookDelivery } from "./webhooks";

/** Answers 200 on /ok and 500 on /fail; records every body it receives. */
class Receiver {
  bodies: { path: string; body: string }[] = [];
  private readonly server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      this.bodies.push({ path: request.url ?? "", body: Buffer.concat(chunks).toString() });
      response.writeHead(request.url === "/fail" ? 500 : 200).end("ok");
    });
  });
  origin = "";

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

let sandbox: TestSandbox;
const receiver = new Receiver();

beforeAll(async () => {
  await receiver.start();
  // One attempt per delivery: a failing receiver gives a `failed` outcome at once.
  sandbox = await startTestSandbox({ config: { webhookRetryDelaysMs: [] } });
});
afterAll(async () => {
  await sandbox.close();
  await receiver.stop();
});
beforeEach(() => {
  sandbox.handle.reset();
  receiver.bodies = [];
});

interface Page {
  status: number;
  headers: Headers;
  html: string;
}

async function get(path: string): Promise<Page> {
  const response = await fetch(`${sandbox.url}${path}`, { redirect: "manual" });
  return { status: response.status, headers: response.headers, html: await response.text() };
}

/** A form post as a browser sends it from a console page (its own Origin), not following the redirect. */
function post(
  path: string,
  fields: Record<string, string> | [string, string][],
  headers: Record<string, string> = { Origin: sandbox.url },
): Promise<Response> {
  return fetch(`${sandbox.url}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
}

/** Post, expect 303, and load the page it leads to. */
async function submit(path: string, fields: Record<string, string>): Promise<Page & { location: string }> {
  const response = await post(path, fields);
  expect(response.status, await response.clone().text()).toBe(303);
  const location = response.headers.get("Location") ?? "";
  expect(location.startsWith("/_sandbox/")).toBe(true);
  return { ...(await get(location)), location };
}

async function rejected(path: string, fields: Record<string, string>): Promise<Page> {
  const response = await post(path, fields);
  return { status: response.status, headers: response.headers, html: await response.text() };
}

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&gt;/g, ">")
    .replace(/&lt;/g, "<")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
const notice = (html: string) => /<p class="notice" role="status">([^<]*)<\/p>/.exec(html)?.[1];
const alert = (html: string) => /<p class="error" role="alert">([^<]*)<\/p>/.exec(html)?.[1];

/** Rows of the delivery log, in page order, each with its id and its HTML. */
function logRows(html: string): { id: string; html: string }[] {
  return html
    .split('<tr data-delivery="')
    .slice(1)
    .map((segment) => ({ id: segment.slice(0, 24), html: segment.slice(0, segment.indexOf("</td>\n</tr>")) }));
}

type ListedDelivery = WebhookDelivery & { attempt: number; responseStatus: number | null };

async function listDeliveries(): Promise<ListedDelivery[]> {
  return ((await (await sandbox.api("/_sandbox/deliveries")).json()) as { deliveries: ListedDelivery[] }).deliveries;
}

async function settled(count: number): Promise<ListedDelivery[]> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const deliveries = await listDeliveries();
    if (deliveries.length >= count && deliveries.every((delivery) => delivery.state !== "pending" && delivery.state !== "delivering"))
      return deliveries;
    if (Date.now() > deadline)
      throw new Error(`deliveries did not settle: ${JSON.stringify(deliveries.map((delivery) => delivery.state))}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function setCallbackUrl(login: string, path: "/ok" | "/fail"): Promise<void> {
  const token = await obtainAccessToken(sandbox.url, { login });
  const response = await sandbox.api("/v1.0/marketplace/webhooks/url", {
    method: "POST",
    token,
    json: { url: `${receiver.origin}${path}` },
  });
  expect(response.status).toBe(200);
}

async function createOrders(seller: string, count: number): Promise<Order[]> {
  const response = await sandbox.api("/_sandbox/orders", { method: "POST", json: { seller, count } });
  expect(response.status).toBe(201);
  return ((await response.json()) as { orders: Order[] }).orders;
}

/**
 * seller@example.com's notifications go to /ok (delivered), seller2's to /fail (failed): two
 * `order.order`/new for seller, one approved, and one `order.delivery`/received; one new for seller2.
 */
async function mixedLog(): Promise<{ sellerOrders: Order[]; seller2Order: Order }> {
  await setCallbackUrl("seller@example.com", "/ok");
  await setCallbackUrl("seller2@example.com", "/fail");
  const sellerOrders = await createOrders("seller@example.com", 2);
  const [seller2Order] = await createOrders("seller2@example.com", 1);
  const first = sellerOrders[0]!;
  expect((await sandbox.api(`/_sandbox/orders/${first.id}/status`, { method: "POST", json: { status: "approved" } })).status).toBe(200);
  const platformDelivery = sellerOrders
    .flatMap((order) => order.deliveries.map((delivery) => ({ order, delivery })))
    .find(({ delivery }) => !isArrangedBySeller(delivery));
  expect(platformDelivery).toBeDefined();
  const moved = await sandbox.api(`/_sandbox/orders/${platformDelivery!.order.id}/deliveries/${platformDelivery!.delivery.id}/status`, {
    method: "POST",
    json: { status: "received" },
  });
  expect(moved.status).toBe(200);
  await settled(5);
  return { sellerOrders, seller2Order: seller2Order! };
}

describe("console pages", () => {
  it("are plain HTML under the consent page's CSP, with no script, for every section", async () => {
    for (const path of ["/_sandbox/", "/_sandbox/console/orders", "/_sandbox/console/faults", "/_sandbox/console/clock"]) {
      const page = await get(path);
      expect(page.status, path).toBe(200);
      expect(page.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
      expect(page.headers.get("Content-Security-Policy")).toBe("default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
      expect(page.headers.get("X-Frame-Options")).toBe("DENY");
      expect(page.headers.get("Cache-Control")).toBe("no-store");
      // The console's form posts need a real Origin (see console-origin.ts); no-referrer would send "null".
      expect(page.headers.get("Referrer-Policy")).toBe("same-origin");
      expect(page.html).not.toMatch(/<script|\son[a-z]+=/i);
      for (const link of ["/_sandbox/", "/_sandbox/console/orders", "/_sandbox/console/faults", "/_sandbox/console/clock"]) {
        expect(page.html).toContain(`href="${link}"`);
      }
    }
  });

  it("/_sandbox redirects to the console", async () => {
    const response = await fetch(`${sandbox.url}/_sandbox`, { redirect: "manual" });
    expect(response.status).toBe(301);
    expect(response.headers.get("Location")).toBe("/_sandbox/");
  });

  it("are off with SANDBOX_CONTROL=off, and want the control token when the sandbox is exposed", async () => {
    const off = createSandbox({ config: { controlEnabled: false, seedOrders: 0 }, startDelivery: false });
    expect((await off.app.request("/_sandbox/")).status).toBe(404);
    expect((await off.app.request("/_sandbox/console/faults")).status).toBe(404);
    expect((await off.app.request(`/_sandbox/deliveries/${"a".repeat(24)}/resend`, { method: "POST" })).status).toBe(404);

    const controlToken = "console-token-0123456789abcdef";
    const exposed = createSandbox({ config: { host: "0.0.0.0", controlToken, seedOrders: 0 }, startDelivery: false });
    expect((await exposed.app.request("/_sandbox/")).status).toBe(401);
    expect((await exposed.app.request(`/_sandbox/deliveries/${"a".repeat(24)}/resend`, { method: "POST" })).status).toBe(401);
    const form = (authorization?: string) => ({
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: "http://localhost",
        ...(authorization ? { Authorization: authorization } : {}),
      },
      body: "advanceSeconds=60",
    });
    expect((await exposed.app.request("/_sandbox/console/clock", form())).status).toBe(401);
    expect(exposed.clock.offsetSeconds).toBe(0);
    expect((await exposed.app.request("/_sandbox/console/orders", { headers: { Authorization: `Bearer ${controlToken}` } })).status).toBe(
      200,
    );
    // The console's call to the control API carries the token along.
    expect((await exposed.app.request("/_sandbox/console/clock", form(`Bearer ${controlToken}`))).status).toBe(303);
    expect(exposed.clock.offsetSeconds).toBe(60);
  });

  it("refuses a form posted from another site (403) and changes nothing", async () => {
    const crossSite: Record<string, string>[] = [
      { Origin: "https://evil.example" },
      { Origin: "null" },
      { "Sec-Fetch-Site": "cross-site" },
    ];
    for (const headers of crossSite) {
      const response = await post("/_sandbox/console/faults", { maintenance: "on" }, headers);
      expect(response.status).toBe(403);
      expect(alert(await response.text())).toContain("sent from another site");
      expect((await post("/_sandbox/console/reset", {}, headers)).status).toBe(403);
    }
    expect(sandbox.handle.faults.current.maintenance).toBe(false);
    // Same origin by either header passes.
    expect((await post("/_sandbox/console/faults", { maintenance: "on" }, { "Sec-Fetch-Site": "same-origin" })).status).toBe(303);
    expect(sandbox.handle.faults.current.maintenance).toBe(true);
  });

  it("ignores a notice id it did not give out", async () => {
    const page = await get("/_sandbox/console/faults?notice=made-up");
    expect(page.status).toBe(200);
    expect(notice(page.html)).toBeUndefined();
  });
});

describe("delivery log", () => {
  it("lists every delivery newest first with its seller, event, subject, URL and outcome", async () => {
    const { sellerOrders, seller2Order } = await mixedLog();
    const page = await get("/_sandbox/");
    expect(page.status).toBe(200);
    const rows = logRows(page.html);
    const listed = await listDeliveries();
    expect(rows.map((row) => row.id)).toEqual(listed.map((delivery) => delivery.id).reverse());
    expect(text(page.html)).toContain("Deliveries 1–5 of 5");

    const seller2Row = rows.find((row) => row.html.includes(seller2Order.id));
    expect(text(seller2Row!.html)).toContain("seller2@example.com");
    expect(text(seller2Row!.html)).toContain("order.order new");
    expect(text(seller2Row!.html)).toContain(`${receiver.origin}/fail`);
    expect(text(seller2Row!.html)).toContain("failed");
    expect(text(seller2Row!.html)).toContain("last: HTTP 500");
    const sellerRow = rows.find((row) => row.html.includes(sellerOrders[1]!.id));
    expect(text(sellerRow!.html)).toContain("delivered");
    expect(text(sellerRow!.html)).toContain("1 attempt of 1; last: HTTP 200");
    expect(sellerRow!.html).toContain(`href="/_sandbox/console/orders?order=${sellerOrders[1]!.id}"`);
    expect(sellerRow!.html).toContain('<button type="submit">Resend</button>');
  });

  it("filters by seller (e-mail or id), domain, status and outcome, alone or together", async () => {
    const { seller2Order } = await mixedLog();
    const listed = await listDeliveries();
    const ids = (predicate: (delivery: ListedDelivery) => boolean) =>
      listed
        .filter(predicate)
        .map((delivery) => delivery.id)
        .reverse();
    const shown = async (query: string) => {
      const page = await get(`/_sandbox/?${query}`);
      expect(page.status, query).toBe(200);
      return logRows(page.html).map((row) => row.id);
    };

    expect(await shown("seller=seller2%40example.com")).toEqual(ids((delivery) => delivery.userId === SEED_USER_IDS.seller2));
    expect(await shown(`seller=${SEED_USER_IDS.seller2}`)).toEqual(ids((delivery) => delivery.userId === SEED_USER_IDS.seller2));
    expect(await shown("seller=seller2%40example.com")).toHaveLength(1);
    expect(logRows((await get("/_sandbox/?seller=seller2%40example.com")).html)[0]!.html).toContain(seller2Order.id);
    expect(await shown("domain=order.delivery")).toEqual(ids((delivery) => delivery.domain === "order.delivery"));
    expect(await shown("domain=order.delivery")).toHaveLength(1);
    expect(await shown("status=approved")).toEqual(ids((delivery) => delivery.status === "approved"));
    expect(await shown("outcome=failed")).toEqual(ids((delivery) => delivery.state === "failed"));
    expect(await shown("outcome=delivered")).toHaveLength(4);
    expect(await shown("seller=seller%40example.com&domain=order.order&status=new&outcome=delivered")).toEqual(
      ids((delivery) => delivery.userId === SEED_USER_IDS.seller && delivery.domain === "order.order" && delivery.status === "new"),
    );
    // Blank fields (the form's "any") do not filter; the form shows the filters back.
    expect(await shown("seller=&domain=&status=&outcome=")).toHaveLength(5);
    const filtered = await get("/_sandbox/?domain=order.delivery&outcome=delivered");
    expect(filtered.html).toContain('<option value="order.delivery" selected>');
    expect(filtered.html).toContain('<option value="delivered" selected>');
    const none = await get("/_sandbox/?outcome=dropped");
    expect(text(none.html)).toContain("No deliveries match.");
  });

  it("pages 50 at a time, keeping the filters in the links", async () => {
    await setCallbackUrl("seller@example.com", "/ok");
    await createOrders("seller@example.com", 60);
    await settled(60);
    const first = await get("/_sandbox/?domain=order.order");
    expect(logRows(first.html)).toHaveLength(50);
    expect(text(first.html)).toContain("Deliveries 1–50 of 60");
    expect(first.html).toContain('href="/_sandbox/?domain=order.order&amp;page=2" rel="next"');
    const second = await get("/_sandbox/?domain=order.order&page=2");
    expect(logRows(second.html)).toHaveLength(10);
    expect(text(second.html)).toContain("Deliveries 51–60 of 60");
    expect(second.html).toContain('href="/_sandbox/?domain=order.order" rel="prev"');
    const beyond = await get("/_sandbox/?page=9");
    expect(text(beyond.html)).toContain("No deliveries on page 9 (60 match).");
  });

  it("answers 400 with a clear message for invalid filters, and escapes what was typed", async () => {
    const cases: [string, string][] = [
      ["outcome=lost", "Outcome:"],
      ["domain=order.everything", "Domain:"],
      ["status=shipped-ish", "Status:"],
      ["page=0", "Page:"],
      ["page=two", "Page:"],
      ["colour=blue", "colour"],
      ["seller=nobody%40example.com", "Seller: no seller has the e-mail or id nobody@example.com"],
    ];
    for (const [query, message] of cases) {
      const page = await get(`/_sandbox/?${query}`);
      expect(page.status, query).toBe(400);
      expect(text(alert(page.html) ?? ""), query).toContain(message);
      expect(logRows(page.html), query).toHaveLength(0);
    }
    const hostile = await get(`/_sandbox/?seller=${encodeURIComponent('"><script>alert(1)</script>')}`);
    expect(hostile.status).toBe(400);
    expect(hostile.html).not.toContain("<script>");
    expect(hostile.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(hostile.html).toContain('value="&quot;&gt;&lt;script&gt;');
  });

  it("Resend sends the same body again as a new delivery and returns to the filtered log", async () => {
    const { sellerOrders } = await mixedLog();
    const original = (await listDeliveries()).find((delivery) => delivery.body.includes(sellerOrders[1]!.id))!;
    receiver.bodies = [];
    const page = await submit("/_sandbox/console/resend", { delivery: original.id, seller: "seller@example.com", domain: "order.order" });
    expect(page.location).toMatch(/^\/_sandbox\/\?seller=seller%40example.com&domain=order.order&notice=/);
    const copy = (await settled(6)).at(-1)!;
    expect(notice(page.html)).toBe(`Delivery ${original.id} sent again as delivery ${copy.id}.`);
    expect(copy).toMatchObject({
      resendOf: original.id,
      body: original.body,
      url: original.url,
      domain: "order.order",
      status: "new",
      state: "delivered",
      attempt: 1,
      responseStatus: 200,
    });
    expect(copy.id).not.toBe(original.id);
    expect(receiver.bodies).toEqual([{ path: "/ok", body: original.body }]);

    const after = await get(page.location.replace(/&notice=.*/, ""));
    const [newest] = logRows(after.html);
    expect(newest!.id).toBe(copy.id);
    expect(text(newest!.html)).toContain(`resend of ${original.id}`);
    expect(text(newest!.html)).toContain("delivered");
    // The original is untouched.
    expect((await listDeliveries()).find((delivery) => delivery.id === original.id)).toMatchObject({ state: "delivered", attempt: 1 });
  });

  it("Resend of a failed delivery is attempted again; an unknown or malformed id is refused", async () => {
    const { seller2Order } = await mixedLog();
    const failed = (await listDeliveries()).find((delivery) => delivery.body.includes(seller2Order.id))!;
    expect(failed.state).toBe("failed");
    await submit("/_sandbox/console/resend", { delivery: failed.id });
    const copy = (await settled(6)).at(-1)!;
    expect(copy).toMatchObject({ resendOf: failed.id, state: "failed", attempt: 1, responseStatus: 500 });

    const unknown = await rejected("/_sandbox/console/resend", { delivery: "0".repeat(24) });
    expect(unknown.status).toBe(404);
    expect(alert(unknown.html)).toContain(`Delivery ${"0".repeat(24)} is not in the log`);
    const malformed = await rejected("/_sandbox/console/resend", { delivery: "42" });
    expect(malformed.status).toBe(400);
    expect(text(alert(malformed.html) ?? "")).toContain("Delivery: must be an ObjectId");
    expect(await listDeliveries()).toHaveLength(6);
  });
});

describe("POST /_sandbox/deliveries/{id}/resend", () => {
  it("answers 202 with the new delivery, which is then attempted", async () => {
    const { sellerOrders } = await mixedLog();
    const original = (await listDeliveries()).find((delivery) => delivery.body.includes(sellerOrders[0]!.id) && delivery.status === "new")!;
    receiver.bodies = [];
    const response = await sandbox.api(`/_sandbox/deliveries/${original.id}/resend`, { method: "POST" });
    expect(response.status).toBe(202);
    const { delivery } = (await response.json()) as { delivery: ListedDelivery };
    expect(delivery).toMatchObject({
      resendOf: original.id,
      eventId: original.eventId,
      body: original.body,
      url: original.url,
      domain: "order.order",
      status: "new",
      attempts: [],
      attempt: 0,
      responseStatus: null,
    });
    expect(["pending", "delivering"]).toContain(delivery.state);
    expect(delivery.id).not.toBe(original.id);
    const listed = (await settled(6)).find((candidate) => candidate.id === delivery.id);
    expect(listed).toMatchObject({ state: "delivered", attempt: 1, responseStatus: 200 });
    expect(receiver.bodies).toEqual([{ path: "/ok", body: original.body }]);
  });

  it("also sends a delivery the fault dropWebhookRate dropped", async () => {
    await setCallbackUrl("seller@example.com", "/ok");
    sandbox.handle.faults.apply({ dropWebhookRate: 1 });
    await createOrders("seller@example.com", 1);
    const [dropped] = await settled(1);
    expect(dropped!.state).toBe("dropped");
    const response = await sandbox.api(`/_sandbox/deliveries/${dropped!.id}/resend`, { method: "POST" });
    expect(response.status).toBe(202);
    expect((await settled(2)).at(-1)).toMatchObject({ resendOf: dropped!.id, state: "delivered" });
  });

  it("answers 404 for an unknown id, 400 for a malformed one, 403 from another site", async () => {
    const unknown = await sandbox.api(`/_sandbox/deliveries/${"a".repeat(24)}/resend`, { method: "POST" });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: "not_found" } });
    const malformed = await sandbox.api("/_sandbox/deliveries/nope/resend", { method: "POST" });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ error: { code: "invalid_request", details: [{ field: "id" }] } });

    await setCallbackUrl("seller@example.com", "/ok");
    await createOrders("seller@example.com", 1);
    const [original] = await settled(1);
    const crossSite = await sandbox.api(`/_sandbox/deliveries/${original!.id}/resend`, {
      method: "POST",
      headers: { Origin: "https://evil.example" },
    });
    expect(crossSite.status).toBe(403);
    expect(await listDeliveries()).toHaveLength(1);
  });
});

describe("orders page", () => {
  it("creates orders for a seller and lists them first among the seller's newest", async () => {
    const page = await submit("/_sandbox/console/orders", { seller: "seller2@example.com", count: "3" });
    expect(page.location).toMatch(/^\/_sandbox\/console\/orders\?seller=seller2%40example.com&notice=/);
    const newest = (sandbox.handle.store.ordersByUser.get(SEED_USER_IDS.seller2)?.items ?? []).slice(-3).map((order) => order.id);
    expect(notice(page.html)).toBe(`Created 3 orders for seller2@example.com: ${newest.join(", ")}.`);
    for (const id of newest) expect(page.html).toContain(`data-order-row="${id}"`);
    const rowIds = [...page.html.matchAll(/data-order-row="([0-9a-f]{24})"/g)].map((match) => match[1]);
    expect(rowIds.slice(0, 3).sort()).toEqual([...newest].sort());
    expect(text(page.html)).toContain("Newest orders of seller2@example.com");
  });

  it("opens the one order it created, by user id too", async () => {
    const page = await submit("/_sandbox/console/orders", { seller: SEED_USER_IDS.seller, count: "" });
    const order = /&order=([0-9a-f]{24})/.exec(page.location)?.[1];
    expect(order).toBeDefined();
    expect(page.html).toContain(`data-order="${order}"`);
    expect(text(page.html)).toContain("status new");
    // An order opened alone comes with its seller's newest orders, itself first.
    expect(text(page.html)).toContain("Newest orders of seller@example.com");
    expect(/data-order-row="([0-9a-f]{24})"/.exec(page.html)?.[1]).toBe(order);
  });

  it("shows what is wrong with the form, next to the field, and keeps what was typed", async () => {
    const zero = await rejected("/_sandbox/console/orders", { seller: "seller@example.com", count: "0" });
    expect(zero.status).toBe(400);
    expect(text(alert(zero.html) ?? "")).toMatch(/^Please correct: Count: Too small/);
    expect(zero.html).toMatch(/id="create-count-error">Too small/);
    expect(zero.html).toContain('name="count" min="1" max="1000" value="0"');

    const word = await rejected("/_sandbox/console/orders", { seller: "seller@example.com", count: "three" });
    expect(word.status).toBe(400);
    expect(text(alert(word.html) ?? "")).toBe("Please correct: Count: must be a number.");
    expect(word.html).toContain('value="three"');

    const blank = await rejected("/_sandbox/console/orders", { seller: " ", count: "1" });
    expect(blank.status).toBe(400);
    expect(text(alert(blank.html) ?? "")).toBe("Please correct: Seller: is required.");

    const nobody = await rejected("/_sandbox/console/orders", { seller: "nobody@example.com", count: "1" });
    expect(nobody.status).toBe(404);
    expect(alert(nobody.html)).toBe("Seller nobody@example.com not found");
    expect(nobody.html).toContain('value="nobody@example.com"');

    const tooMany = await rejected("/_sandbox/console/orders", { seller: "seller@example.com", count: "1001" });
    expect(tooMany.status).toBe(400);
    expect(sandbox.handle.store.ordersByUser.get(SEED_USER_IDS.seller)?.items).toHaveLength(20);
  });

  it("answers 404 for an unknown order or seller and 400 for a malformed id", async () => {
    const unknown = await get(`/_sandbox/console/orders?order=${"0".repeat(24)}`);
    expect(unknown.status).toBe(404);
    expect(alert(unknown.html)).toBe(`No order has the id ${"0".repeat(24)}.`);
    expect((await get("/_sandbox/console/orders?seller=nobody")).status).toBe(404);
    const malformed = await get("/_sandbox/console/orders?order=123");
    expect(malformed.status).toBe(400);
    expect(text(alert(malformed.html) ?? "")).toContain("Order: must be an ObjectId");
  });

  it("moves an order: approved, then finishing is refused (409) until every delivery is delivered", async () => {
    const [order] = await createOrders("seller@example.com", 1);
    const approved = await submit("/_sandbox/console/order-status", { order: order!.id, status: "approved" });
    expect(approved.location).toContain(`order=${order!.id}`);
    expect(notice(approved.html)).toBe(`Order ${order!.id} is now approved.`);
    expect(approved.html).toContain('<strong data-testid="order-status">approved</strong>');
    expect(sandbox.handle.store.orderById.get(order!.id)?.order.approved_at).not.toBeNull();

    const early = await rejected("/_sandbox/console/order-status", { order: order!.id, status: "finished" });
    expect(early.status).toBe(409);
    expect(alert(early.html)).toMatch(/^An order is finished only once every delivery is delivered/);
    expect(early.html).toContain(`data-order="${order!.id}"`);

    const backwards = await rejected("/_sandbox/console/order-status", { order: order!.id, status: "new" });
    expect(backwards.status).toBe(409);
    expect(alert(backwards.html)).toBe("An order cannot go from approved to new.");

    const unknown = await rejected("/_sandbox/console/order-status", { order: "0".repeat(24), status: "approved" });
    expect(unknown.status).toBe(404);
    const badStatus = await rejected("/_sandbox/console/order-status", { order: order!.id, status: "lost" });
    expect(badStatus.status).toBe(400);
    expect(text(alert(badStatus.html) ?? "")).toContain("Status:");
    expect(sandbox.handle.store.orderById.get(order!.id)?.order.status).toBe("approved");
  });

  it("moves a platform delivery one step at a time and a seller's shipment shipped → delivered, then finishes the order", async () => {
    // New orders draw about one delivery in five as arranged by the seller: create until one has each kind.
    let order: Order | undefined;
    for (let tries = 0; !order && tries < 20; tries++) {
      order = (await createOrders("seller@example.com", 10)).find(
        (candidate) =>
          candidate.deliveries.some(isArrangedBySeller) && candidate.deliveries.some((delivery) => !isArrangedBySeller(delivery)),
      );
    }
    // A single-kind order still exercises both forms across two orders; this seed finds a mixed one.
    expect(order).toBeDefined();
    const platform = order!.deliveries.find((delivery) => !isArrangedBySeller(delivery))!;
    const shipment = order!.deliveries.find(isArrangedBySeller)!;

    const opened = await get(`/_sandbox/console/orders?order=${order!.id}`);
    expect(opened.html).toContain(`aria-label="Move delivery ${platform.id}"`);
    expect(opened.html).toContain(`aria-label="Move shipment ${shipment.id}"`);

    const skip = await rejected("/_sandbox/console/delivery-status", { order: order!.id, delivery: platform.id, status: "posted" });
    expect(skip.status).toBe(409);
    expect(alert(skip.html)).toBe("A delivery cannot go from created to posted.");
    for (const status of ["received", "posted", "delivered"]) {
      const page = await submit("/_sandbox/console/delivery-status", { order: order!.id, delivery: platform.id, status });
      expect(notice(page.html)).toBe(`Delivery ${platform.id} of order ${order!.id} is now ${status}.`);
    }
    const wrongRoute = await rejected("/_sandbox/console/delivery-status", { order: order!.id, delivery: shipment.id, status: "received" });
    expect(wrongRoute.status).toBe(409);
    for (const status of ["shipped", "delivered"]) {
      const page = await submit("/_sandbox/console/shipment-status", { order: order!.id, delivery: shipment.id, status });
      expect(notice(page.html)).toBe(`Shipment ${shipment.id} of order ${order!.id} is now ${status}.`);
    }
    const moved = sandbox.handle.store.orderById.get(order!.id)!.order;
    expect(
      moved.deliveries.every(
        (delivery) =>
          delivery.status === "delivered" && delivery.shipping.posting_date !== null && delivery.shipping.delivery_date !== null,
      ),
    ).toBe(true);
    await submit("/_sandbox/console/order-status", { order: order!.id, status: "approved" });
    const finished = await submit("/_sandbox/console/order-status", { order: order!.id, status: "finished" });
    expect(finished.html).toContain('<strong data-testid="order-status">finished</strong>');
    expect(text(finished.html)).toContain("finished is a final status");

    const unknownDelivery = await rejected("/_sandbox/console/delivery-status", {
      order: order!.id,
      delivery: "0".repeat(24),
      status: "received",
    });
    expect(unknownDelivery.status).toBe(404);
    const badShipment = await rejected("/_sandbox/console/shipment-status", { order: order!.id, delivery: shipment.id, status: "posted" });
    expect(badShipment.status).toBe(400);
  });
});

describe("faults page", () => {
  afterEach(() => sandbox.handle.faults.clear());

  it("shows the current faults", async () => {
    sandbox.handle.faults.apply({ latencyMs: 250, rejectSkus: [{ field: "title", message: "is not allowed" }] });
    const page = await get("/_sandbox/console/faults");
    expect(text(page.html)).toContain("latencyMs 250");
    expect(text(page.html)).toContain('rejectSkus [{"field":"title","message":"is not allowed"}]');
    expect(text(page.html)).toContain("maintenance false");
    expect(page.html).toContain('name="latencyMs" value="250"');
  });

  it("sets every fault from the form, as POST /_sandbox/faults would", async () => {
    const page = await submit("/_sandbox/console/faults", {
      errorRate: "0.25",
      latencyMs: "",
      rateLimitPerMinute: "30",
      dropWebhookRate: "0",
      maintenance: "on",
      duplicateWebhooks: "on",
      rejectSkus: '[{"field": "title", "message": "is not allowed"}]',
      labelLatencyMs: "250",
      failLabels: "0123456789abcdef01234567\n0123456789abcdef01234568, 0123456789abcdef01234567",
    });
    expect(notice(page.html)).toBe("Faults set.");
    const { faults } = (await (await sandbox.api("/_sandbox/faults")).json()) as { faults: Record<string, unknown> };
    expect(faults).toEqual({
      errorRate: 0.25,
      latencyMs: 0,
      importDown: false,
      rejectSkus: [{ field: "title", message: "is not allowed" }],
      rateLimitPerMinute: 30,
      duplicateWebhooks: true,
      dropWebhookRate: 0,
      reorderWebhooks: false,
      maintenance: true,
      userFaults: {},
      failLabels: ["0123456789abcdef01234567", "0123456789abcdef01234568"],
      labelLatencyMs: 250,
    });
    expect(page.html).toMatch(/name="maintenance" checked/);
    expect(page.html).toContain('name="failLabels" rows="3">0123456789abcdef01234567\n0123456789abcdef01234568</textarea>');

    // Submitted again with boxes unchecked and fields blank: those faults are off.
    await submit("/_sandbox/console/faults", { errorRate: "0.25" });
    expect(sandbox.handle.faults.current).toMatchObject({
      maintenance: false,
      duplicateWebhooks: false,
      rateLimitPerMinute: null,
      rejectSkus: null,
      errorRate: 0.25,
      failLabels: [],
      labelLatencyMs: 0,
    });
  });

  it("refuses invalid values with the field named, keeping what was typed and the faults as they were", async () => {
    sandbox.handle.faults.apply({ latencyMs: 100 });
    const cases: [Record<string, string>, string][] = [
      [{ errorRate: "2" }, "Error rate: Too big"],
      [{ errorRate: "a lot" }, "Error rate: must be a number"],
      [{ latencyMs: "-5" }, "Latency (ms): Too small"],
      [{ rateLimitPerMinute: "1.5" }, "Rate limit per minute:"],
      [{ rejectSkus: "title is bad" }, "Reject SKUs: must be JSON"],
      [{ rejectSkus: '[{"field": "title"}]' }, "Reject SKUs:"],
      [{ maintenance: "yes" }, "Maintenance: must be checked or left out"],
      [{ failLabels: "0123456789abcdef01234567 not-a-delivery" }, "Failing labels: must be an ObjectId"],
      [{ labelLatencyMs: "60001" }, "Label latency (ms): Too big"],
      [{ colour: "blue" }, "colour"],
    ];
    for (const [fields, message] of cases) {
      const page = await rejected("/_sandbox/console/faults", fields);
      expect(page.status, JSON.stringify(fields)).toBe(400);
      expect(text(alert(page.html) ?? ""), JSON.stringify(fields)).toContain(message);
    }
    const typed = await rejected("/_sandbox/console/faults", { errorRate: "2", latencyMs: "7" });
    expect(typed.html).toContain('name="errorRate" value="2"');
    expect(typed.html).toContain('name="latencyMs" value="7"');
    expect(typed.html).toMatch(/id="errorRate-error">Too big/);
    expect(sandbox.handle.faults.current.latencyMs).toBe(100);
    expect(sandbox.handle.faults.current.errorRate).toBe(0);
  });

  it("clears every fault", async () => {
    sandbox.handle.faults.apply({ maintenance: true, errorRate: 1 });
    const page = await submit("/_sandbox/console/faults/clear", {});
    expect(notice(page.html)).toBe("Every fault cleared.");
    expect((await (await sandbox.api("/_sandbox/faults")).json()) as unknown).toMatchObject({
      faults: { maintenance: false, errorRate: 0 },
    });
  });
});

describe("clock and reset page", () => {
  it("advances the clock by what was typed or by a preset", async () => {
    const page = await submit("/_sandbox/console/clock", { advanceSeconds: "3600" });
    const clock = (await (await sandbox.api("/_sandbox/clock")).json()) as { now: string; offsetSeconds: number };
    expect(clock.offsetSeconds).toBe(3600);
    expect(notice(page.html)).toMatch(/^Clock advanced by 3600 seconds: sandbox time is now \d{4}-/);
    expect(page.html).toContain("3600 seconds ahead of real time");
    expect(page.html).toContain('name="advanceSeconds" value="601"');
    await submit("/_sandbox/console/clock", { advanceSeconds: "601" });
    expect(sandbox.handle.clock.offsetSeconds).toBe(4201);
  });

  it("makes a pending webhook retry due at once, as POST /_sandbox/clock does", async () => {
    const retrying = await startTestSandbox({ config: { webhookRetryDelaysMs: [3_600_000] } });
    try {
      const token = await obtainAccessToken(retrying.url);
      await retrying.api("/v1.0/marketplace/webhooks/url", { method: "POST", token, json: { url: `${receiver.origin}/fail` } });
      await retrying.api("/_sandbox/orders", { method: "POST", json: { seller: "seller@example.com" } });
      const attempts = async () =>
        ((await (await retrying.api("/_sandbox/deliveries")).json()) as { deliveries: ListedDelivery[] }).deliveries[0]?.attempts.length ??
        0;
      await expect.poll(attempts).toBe(1);
      const response = await fetch(`${retrying.url}/_sandbox/console/clock`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: retrying.url },
        body: "advanceSeconds=3600",
        redirect: "manual",
      });
      expect(response.status).toBe(303);
      await expect.poll(attempts).toBe(2);
    } finally {
      await retrying.close();
    }
  });

  it("refuses a missing, zero or non-numeric number of seconds", async () => {
    for (const [value, message] of [
      ["", "Seconds: is required"],
      ["0", "Seconds: Too small"],
      ["soon", "Seconds: must be a number"],
    ] as const) {
      const page = await rejected("/_sandbox/console/clock", { advanceSeconds: value });
      expect(page.status, value).toBe(400);
      expect(text(alert(page.html) ?? ""), value).toContain(message);
    }
    expect(sandbox.handle.clock.offsetSeconds).toBe(0);
  });

  it("resets everything, with the number of seeded orders typed or the configured one", async () => {
    await createOrders("seller@example.com", 2);
    sandbox.handle.faults.apply({ maintenance: true });
    sandbox.handle.clock.advance(60);
    const page = await submit("/_sandbox/console/reset", { seedOrders: "5" });
    expect(notice(page.html)).toBe("Sandbox reset: everything reseeded, with 5 orders for seller@example.com.");
    expect(sandbox.handle.store.ordersByUser.get(SEED_USER_IDS.seller)?.items).toHaveLength(5);
    expect(sandbox.handle.faults.current.maintenance).toBe(false);
    expect(sandbox.handle.clock.offsetSeconds).toBe(0);

    const bad = await rejected("/_sandbox/console/reset", { seedOrders: "-1" });
    expect(bad.status).toBe(400);
    expect(text(alert(bad.html) ?? "")).toContain("Seeded orders: Too small");
    expect(sandbox.handle.store.ordersByUser.get(SEED_USER_IDS.seller)?.items).toHaveLength(5);

    // Blank: the number the sandbox runs with (a reset's own number stays, as with POST /_sandbox/reset).
    await submit("/_sandbox/console/reset", { seedOrders: "" });
    expect(sandbox.handle.store.ordersByUser.get(SEED_USER_IDS.seller)?.items).toHaveLength(5);
    sandbox.handle.reset({ seedOrders: 20 });
  });
});
