import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { samplePrice, sampleSku } from "@marketplace/api/schemas/fixtures";
import { listEnvelopeSchema } from "@marketplace/api/schemas/list";
import { priceCreateResponseSchema, priceSchema, priceWithHistorySchema } from "@marketplace/api/schemas/price";
import { obtainAccessToken, startTestSandbox, type TestSandbox } from "./testing";

let sandbox: TestSandbox;
let token: string;
const PATH = "/v1.0/marketplace/portfolios/prices";

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  sandbox.handle.reset();
  token = await obtainAccessToken(sandbox.url);
  await sandbox.api("/v1.0/marketplace/portfolios/skus", { method: "POST", token, json: sampleSku("P-1") });
});

async function postPrice(body: unknown, as = token) {
  const response = await sandbox.api(PATH, { method: "POST", token: as, json: body });
  return { status: response.status, body: priceCreateResponseSchema.parse(await response.json()) };
}

describe("prices", () => {
  it("creates a price: 201, statusCode 0, the price with an ObjectId", async () => {
    const { status, body } = await postPrice(samplePrice("P-1"));
    expect(status).toBe(201);
    expect(body.statusCode).toBe(0);
    expect(body.statusMessage).toBe("The price was imported and processed");
    expect(body.data).toMatchObject({ sku: "P-1", type: "sell", value: 4990, currency: "BRL", normalizer: 100, extras: {} });
    expect(body.data?.id).toBe(body.id);
  });

  it("a new price for the same SKU and type updates it and extends priceHistory", async () => {
    const first = await postPrice(samplePrice("P-1", { value: 4990 }));
    await sandbox.api("/_sandbox/clock", { method: "POST", json: { advanceSeconds: 60 } });
    const second = await postPrice(samplePrice("P-1", { value: 3990 }));
    expect(second.body.id).toBe(first.body.id);
    const otherType = await postPrice(samplePrice("P-1", { type: "list", value: 5990 }));
    expect(otherType.body.id).not.toBe(first.body.id);

    const response = await sandbox.api(`${PATH}/${first.body.id}`, { token });
    expect(response.status).toBe(200);
    const price = priceWithHistorySchema.parse(await response.json());
    expect(price.value).toBe(3990);
    expect(price.priceHistory.map((item) => item.value)).toEqual([4990, 3990]);
    expect(price.priceHistory[1]?.created_at).toBe(price.created_at);
    expect(
      Date.parse(price.priceHistory[1]?.created_at ?? "") - Date.parse(price.priceHistory[0]?.created_at ?? ""),
    ).toBeGreaterThanOrEqual(60_000);
  });

  it("lists with sku, type, _limit, _offset and _sort", async () => {
    await postPrice(samplePrice("P-1", { type: "sell" }));
    await sandbox.api("/_sandbox/clock", { method: "POST", json: { advanceSeconds: 1 } });
    await postPrice(samplePrice("P-1", { type: "list", value: 5990 }));
    const response = await sandbox.api(`${PATH}?sku=P-1&_sort=created_at:desc&_limit=1&_offset=1`, { token });
    expect(response.status).toBe(200);
    const body = listEnvelopeSchema(priceWithHistorySchema.strict()).parse(await response.json());
    expect(body.meta.page).toEqual({ limit: 1, offset: 1, count: 1, max_limit: 200 });
    expect(body.meta.total).toBe(2);
    expect(body.results[0]?.value).toBe(4990);
    const byType = listEnvelopeSchema(priceSchema).parse(await (await sandbox.api(`${PATH}?type=list&sku=P-1`, { token })).json());
    expect(byType.results.map((price) => price.type)).toEqual(["list"]);
    // Seeded catalogue prices are listed too.
    const all = listEnvelopeSchema(priceSchema).parse(await (await sandbox.api(PATH, { token })).json());
    expect(all.meta.total).toBeGreaterThan(2);
  });

  it("list results carry priceHistory, as the spec gives prices on reads: the same as the retrieve's", async () => {
    const first = await postPrice(samplePrice("P-1", { value: 4990 }));
    await sandbox.api("/_sandbox/clock", { method: "POST", json: { advanceSeconds: 60 } });
    await postPrice(samplePrice("P-1", { value: 3990, currency: "USD" }));
    const listed = listEnvelopeSchema(priceWithHistorySchema.strict()).parse(
      await (await sandbox.api(`${PATH}?sku=P-1&type=sell`, { token })).json(),
    );
    const [price] = listed.results;
    expect(price?.id).toBe(first.body.id);
    expect(price?.priceHistory.map((item) => [item.value, item.currency])).toEqual([
      [4990, "BRL"],
      [3990, "USD"],
    ]);
    const read = priceWithHistorySchema.strict().parse(await (await sandbox.api(`${PATH}/${first.body.id}`, { token })).json());
    expect(price).toEqual(read);
    // Seeded prices have their history too, on every page.
    const seeded = listEnvelopeSchema(priceWithHistorySchema.strict()).parse(
      await (await sandbox.api(`${PATH}?_limit=200`, { token })).json(),
    );
    expect(seeded.results.every((item) => item.priceHistory.length >= 1 && item.priceHistory.at(-1)?.value === item.value)).toBe(true);
  });

  it.each(["XYZ", "ZZZ", "brl", "BRLX", "R$"])(
    "currency %j is no ISO-4217 code → 400, statusCode -4 naming currency; nothing is stored",
    async (currency) => {
      const { status, body } = await postPrice(samplePrice("P-1", { currency, value: 1234 }));
      expect(status).toBe(400);
      expect(body).toMatchObject({ statusCode: -4, statusMessage: "A price had problems on import", id: null, data: null });
      expect(body.errors).toEqual([{ field: "currency", message: "must be an ISO-4217 code such as BRL" }]);
      const listed = listEnvelopeSchema(priceSchema).parse(await (await sandbox.api(`${PATH}?sku=P-1`, { token })).json());
      expect(listed.results).toEqual([]);
    },
  );

  it.each(["BRL", "USD", "EUR", "JPY", "XAU"])("currency %s, an ISO-4217 code, is accepted", async (currency) => {
    const { status, body } = await postPrice(samplePrice("P-1", { currency }));
    expect(status).toBe(201);
    expect(body.data?.currency).toBe(currency);
  });

  it("bad list parameters → 400 naming the parameter", async () => {
    const response = await sandbox.api(`${PATH}?type=promo`, { token });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: "invalid_query", parameter: "type" } });
  });

  it("an unknown SKU → 404, statusCode -4 naming sku", async () => {
    const response = await sandbox.api(PATH, { method: "POST", token, json: samplePrice("NOPE") });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ statusCode: -4, errors: [{ field: "sku" }] });
  });

  it("an invalid body → 400 -4; an empty one → 400 -3", async () => {
    const invalid = await sandbox.api(PATH, { method: "POST", token, json: { ...samplePrice("P-1"), value: "49,90" } });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ statusCode: -4, errors: [{ field: "value" }] });
    const empty = await sandbox.api(PATH, { method: "POST", token, body: "", headers: { "Content-Type": "application/json" } });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ statusCode: -3 });
  });

  it("retrieve: malformed id → 400, unknown or another seller's → 404", async () => {
    const { body } = await postPrice(samplePrice("P-1"));
    expect((await sandbox.api(`${PATH}/not-an-id`, { token })).status).toBe(400);
    const unknown = await sandbox.api(`${PATH}/${"0".repeat(24)}`, { token });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: "not_found" } });
    const other = await obtainAccessToken(sandbox.url, { login: "seller2@example.com" });
    expect((await sandbox.api(`${PATH}/${body.id}`, { token: other })).status).toBe(404);
  });

  it("scopes: create needs portfolio:write, reads need portfolio:read; no token → 401", async () => {
    const readOnly = await obtainAccessToken(sandbox.url, { scopes: ["portfolio:read"] });
    const writeOnly = await obtainAccessToken(sandbox.url, { scopes: ["portfolio:write"] });
    const denied = await sandbox.api(PATH, { method: "POST", token: readOnly, json: samplePrice("P-1") });
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({ error: { code: "insufficient_scope" } });
    expect((await sandbox.api(PATH, { token: writeOnly })).status).toBe(403);
    expect((await sandbox.api(PATH, { method: "POST", token: writeOnly, json: samplePrice("P-1") })).status).toBe(201);
    expect((await sandbox.api(PATH)).status).toBe(401);
  });
});
