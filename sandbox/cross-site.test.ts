// What a page on another site can make a developer's browser send to a sandbox on 127.0.0.1: form
// posts (text/plain, urlencoded, multipart) and no-cors fetches, with no CORS preflight and no
// token to stop them. The control API refuses them (403 from another site, 415 for a body that is
// not JSON); the platform API's JSON routes refuse a body that is not JSON with 400.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { samplePrice, sampleSku } from "@marketplace/api/schemas/fixtures";
import { DEFAULT_REDIRECT_URI } from "./seed";
import { exchangeCode, obtainAccessToken, obtainCode, startTestSandbox, tokenFields, type TestSandbox } from "./testing";

let sandbox: TestSandbox;
let token: string;

beforeAll(async () => {
  sandbox = await startTestSandbox({
    // Deliveries succeed at once, so the log has something a reset would empty.
    fetch: async () => new Response(null, { status: 200 }),
    lookup: async () => [{ address: "93.184.215.14", family: 4 }],
  });
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  sandbox.handle.reset();
  token = await obtainAccessToken(sandbox.url);
  await sandbox.api("/v1.0/webhooks", { method: "POST", token, json: { url: "https://hooks.test/in" } });
  await sandbox.api("/_sandbox/orders", { method: "POST", json: { seller: "seller@example.com" } });
});

const EVIL = { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" };

/** What a reset would lose: the token still works and the delivery log still holds the order's notification. */
async function expectNothingReset(): Promise<void> {
  expect((await sandbox.api("/v1.0/marketplace/orders?_limit=1", { token })).status).toBe(200);
  const { deliveries } = (await (await sandbox.api("/_sandbox/deliveries")).json()) as { deliveries: { domain: string }[] };
  expect(deliveries.map((delivery) => delivery.domain)).toEqual(["order.order"]);
}

function post(path: string, body: BodyInit | undefined, headers: Record<string, string>): Promise<Response> {
  return sandbox.api(path, { method: "POST", headers, ...(body === undefined ? {} : { body }) });
}

describe("POST /_sandbox/reset as a page on another site could send it", () => {
  it("a cross-site text/plain form post → 403, and nothing is reset", async () => {
    // <form method=post enctype=text/plain>: the body is `name=value`, here shaped to parse as JSON.
    const response = await post("/_sandbox/reset", '{"seedOrders":0,"x":"=y"}', { "Content-Type": "text/plain", ...EVIL });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: "cross_site_request" } });
    await expectNothingReset();
  });

  it.each([
    ["Origin only", { Origin: "https://evil.example" }],
    ["Sec-Fetch-Site only", { "Sec-Fetch-Site": "cross-site" }],
    ["a sandboxed page (Origin: null)", { Origin: "null" }],
  ])("cross-site by %s, even with a JSON body → 403, nothing reset", async (_name, headers) => {
    const response = await post("/_sandbox/reset", "{}", { "Content-Type": "application/json", ...headers });
    expect(response.status).toBe(403);
    await expectNothingReset();
  });

  it.each([
    ["text/plain from the sandbox's own origin", "{}", { "Content-Type": "text/plain", Origin: "SELF", "Sec-Fetch-Site": "same-origin" }],
    ["text/plain with no Origin (a script)", "{}", { "Content-Type": "text/plain;charset=UTF-8" }],
    ["an empty text/plain form", "", { "Content-Type": "text/plain" }],
    ["an urlencoded form", "seedOrders=0", { "Content-Type": "application/x-www-form-urlencoded" }],
    [
      "a multipart form",
      '--b\r\nContent-Disposition: form-data; name="seedOrders"\r\n\r\n0\r\n--b--\r\n',
      { "Content-Type": "multipart/form-data; boundary=b" },
    ],
    ["a body with no Content-Type (a no-cors fetch of a Blob)", new Blob(["{}"]), {}],
    ["an empty Content-Type", "{}", { "Content-Type": "" }],
  ])("%s → 415, nothing reset", async (_name, body, headers) => {
    const sent = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, value === "SELF" ? sandbox.url : value]));
    const response = await post("/_sandbox/reset", body, sent);
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({
      error: { code: "unsupported_media_type", message: expect.stringContaining("application/json") },
    });
    await expectNothingReset();
  });

  it.each([
    ["no body at all", undefined, {}],
    ["JSON", '{"seedOrders":4}', { "Content-Type": "application/json" }],
    ["JSON with a charset", '{"seedOrders":4}', { "Content-Type": "application/json; charset=utf-8" }],
    ["a +json media type", '{"seedOrders":4}', { "Content-Type": "application/vnd.sandbox+json" }],
    [
      "JSON from the sandbox's own pages",
      '{"seedOrders":4}',
      { "Content-Type": "application/json", Origin: "SELF", "Sec-Fetch-Site": "same-origin" },
    ],
  ])("from a script with %s → 200, everything reset", async (_name, body, headers) => {
    const sent = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, value === "SELF" ? sandbox.url : value]));
    expect((await post("/_sandbox/reset", body, sent)).status).toBe(200);
    expect((await sandbox.api("/v1.0/marketplace/orders", { token })).status).toBe(401);
    expect(sandbox.handle.webhooks.list()).toEqual([]);
  });
});

describe("every control route", () => {
  const ORDER = "0".repeat(24);
  const JSON_ROUTES = [
    "/_sandbox/reset",
    "/_sandbox/clock",
    "/_sandbox/orders",
    "/_sandbox/faults",
    `/_sandbox/orders/${ORDER}/status`,
    `/_sandbox/orders/${ORDER}/deliveries/${ORDER}/status`,
    `/_sandbox/orders/${ORDER}/deliveries/${ORDER}/shipping`,
  ];

  it.each(JSON_ROUTES)("POST %s with a text/plain body → 415", async (path) => {
    const response = await post(path, '{"status":"approved"}', { "Content-Type": "text/plain" });
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ error: { code: "unsupported_media_type" } });
  });

  it.each<[string, string]>([
    ...JSON_ROUTES.map((path): [string, string] => ["POST", path]),
    ["DELETE", "/_sandbox/faults"],
    ["POST", `/_sandbox/deliveries/${ORDER}/resend`],
  ])("%s %s from another site → 403, before anything else is looked at", async (method, path) => {
    const response = await sandbox.api(path, { method, headers: EVIL, json: {} });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: "cross_site_request", message: expect.stringContaining("Cross-site") } });
  });

  it("changes nothing when refused, and works from a script", async () => {
    expect((await sandbox.api("/_sandbox/faults", { method: "POST", headers: EVIL, json: { maintenance: true } })).status).toBe(403);
    expect((await post("/_sandbox/faults", '{"maintenance":true}', { "Content-Type": "text/plain" })).status).toBe(415);
    expect((await post("/_sandbox/clock", '{"advanceSeconds":60}', { "Content-Type": "text/plain" })).status).toBe(415);
    expect(sandbox.handle.faults.current.maintenance).toBe(false);
    expect(sandbox.handle.clock.offsetSeconds).toBe(0);
    sandbox.handle.faults.apply({ latencyMs: 1 });
    expect((await sandbox.api("/_sandbox/faults", { method: "DELETE", headers: EVIL })).status).toBe(403);
    expect(sandbox.handle.faults.current.latencyMs).toBe(1);
    // The routes that take no body are as they were: DELETE, and GETs even from another site (they change nothing).
    expect((await sandbox.api("/_sandbox/faults", { method: "DELETE" })).status).toBe(200);
    expect((await sandbox.api("/_sandbox/clock", { headers: EVIL })).status).toBe(200);
    expect((await sandbox.api("/_sandbox/faults", { method: "POST", json: { maintenance: true } })).status).toBe(200);
    expect(sandbox.handle.faults.current.maintenance).toBe(true);
  });
});

describe("the platform API's JSON routes", () => {
  const TEXT = { "Content-Type": "text/plain" };

  it("create price with a text/plain body → 400 statusCode -4, nothing created", async () => {
    await sandbox.api("/v1.0/marketplace/portfolios/skus", { method: "POST", token, json: sampleSku("X-1") });
    const response = await sandbox.api("/v1.0/marketplace/portfolios/prices", {
      method: "POST",
      token,
      headers: TEXT,
      body: JSON.stringify(samplePrice("X-1")),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      statusCode: -4,
      id: null,
      errors: [{ field: "body", message: expect.stringContaining("application/json") }],
    });
    const listed = (await (await sandbox.api("/v1.0/marketplace/portfolios/prices?sku=X-1", { token })).json()) as { results: unknown[] };
    expect(listed.results).toEqual([]);
    // An empty text/plain body is refused for its type too, not taken for "nothing to import".
    expect(
      await (await sandbox.api("/v1.0/marketplace/portfolios/prices", { method: "POST", token, headers: TEXT, body: "" })).json(),
    ).toMatchObject({ statusCode: -4 });
  });

  it("create SKU with a text/plain body → 400 statusCode -4, nothing created", async () => {
    const before = sandbox.handle.store.skuByFingerprint.size;
    const response = await sandbox.api("/v1.0/marketplace/portfolios/skus", {
      method: "POST",
      token,
      headers: TEXT,
      body: JSON.stringify(sampleSku("X-2")),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ statusCode: -4, id: null, errors: [{ field: "body" }] });
    expect(sandbox.handle.store.skuByFingerprint.size).toBe(before);
  });

  it("set the callback URL with a form body → 400 invalid_request, not saved", async () => {
    const response = await sandbox.api("/v1.0/webhooks", {
      method: "POST",
      token,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "url=https%3A%2F%2Fother.test%2F",
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: "invalid_request", details: [{ field: "body" }] } });
    expect(await (await sandbox.api("/v1.0/webhooks", { token })).json()).toEqual({ url: "https://hooks.test/in" });
  });

  it("basic_user_info: no body or a JSON body → 200; a text/plain body → 400", async () => {
    const path = "/v1.0/integradores/basic_user_info";
    expect((await sandbox.api(path, { method: "POST", token })).status).toBe(200);
    expect(
      (await sandbox.api(path, { method: "POST", token, headers: { "Content-Type": "application/json;charset=UTF-8" }, body: "{}" }))
        .status,
    ).toBe(200);
    const refused = await sandbox.api(path, { method: "POST", token, headers: TEXT, body: "{}" });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { code: "invalid_request" } });
  });

  it("the token exchange still takes its form (application/x-www-form-urlencoded)", async () => {
    const response = await exchangeCode(sandbox.url, tokenFields(await obtainCode(sandbox.url), { redirect_uri: DEFAULT_REDIRECT_URI }));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ token_type: "Bearer" });
  });
});
