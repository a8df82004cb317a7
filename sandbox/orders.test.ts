import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listEnvelopeSchema } from "@marketplace/api/schemas/list";
import { orderSchema, type Order } from "@marketplace/api/schemas/order";
import { isValidCnpj, isValidCpf } from "./seed";
import { obtainAccessToken, startTestSandbox, type TestSandbox } from "./testing";

let sandbox: TestSandbox;
let token: string;
const PATH = "/v1.0/marketplace/orders";
const envelope = listEnvelopeSchema(orderSchema.strict());

beforeAll(async () => {
  sandbox = await startTestSandbox({ config: { seedOrders: 120 } });
  token = await obtainAccessToken(sandbox.url);
});
afterAll(() => sandbox.close());

async function list(query = "") {
  const response = await sandbox.api(`${PATH}${query}`, { token });
  expect(response.status).toBe(200);
  return envelope.parse(await response.json());
}

async function listError(query: string): Promise<{ status: number; parameter: string | undefined }> {
  const response = await sandbox.api(`${PATH}${query}`, { token });
  const body = (await response.json()) as { error: { code: string; parameter?: string } };
  expect(body.error.code).toBe("invalid_query");
  return { status: response.status, parameter: body.error.parameter };
}

function isSorted(values: string[], direction: "asc" | "desc"): boolean {
  return values.every(
    (value, index) => index === 0 || (direction === "asc" ? (values[index - 1] ?? "") <= value : (values[index - 1] ?? "") >= value),
  );
}

describe("GET /v1.0/marketplace/orders", () => {
  it("default page: 50 newest orders with every field of the spec, meta and links", async () => {
    const body = await list();
    expect(body.meta.page).toEqual({ limit: 50, offset: 0, count: 50, max_limit: 200 });
    expect(body.meta.total).toBe(120);
    expect(body.meta.links).toEqual({ previous: null, self: `${PATH}?_limit=50&_offset=0`, next: `${PATH}?_limit=50&_offset=50` });
    expect(body.meta.sort).toEqual([{ field: "created_at", direction: "desc" }]);
    expect(
      isSorted(
        body.results.map((order) => order.created_at),
        "desc",
      ),
    ).toBe(true);
  });

  it("orders carry realistic, consistent Brazilian data", async () => {
    const body = await list("?_limit=200");
    for (const order of body.results) {
      const valid =
        order.customer.customer_type === "cpf" ? isValidCpf(order.customer.document_number) : isValidCnpj(order.customer.document_number);
      expect(valid).toBe(true);
      const items = order.deliveries.flatMap((delivery) => delivery.items);
      const subtotal = items.reduce((sum, item) => sum + item.unit_price.value * item.quantity, 0);
      expect(order.amounts.total).toBe(subtotal + order.amounts.freight.total - order.amounts.discount.total);
      expect(items.reduce((sum, item) => sum + item.amounts.total, 0)).toBe(order.amounts.total);
      expect(order.payments.reduce((sum, payment) => sum + payment.amount, 0)).toBe(order.amounts.total);
      expect(order.amounts.currency).toBe("BRL");
      expect(order.created_at).toMatch(/\.\d{3}Z$/);
      expect(order.deliveries[0]?.shipping.recipient.address.state).toMatch(/^[A-Z]{2}$/);
    }
  });

  it("paginates with relative links, null at the ends", async () => {
    const middle = await list("?status=finished&_limit=5&_offset=5");
    expect(middle.meta.links?.previous).toBe(`${PATH}?status=finished&_limit=5&_offset=0`);
    expect(middle.meta.links?.next).toBe(`${PATH}?status=finished&_limit=5&_offset=10`);
    const total = middle.meta.total ?? 0;
    const last = await list(`?status=finished&_limit=5&_offset=${total - 1}`);
    expect(last.meta.page.count).toBe(1);
    expect(last.meta.links?.next).toBeNull();
  });

  it("clamps _limit above max_limit and reports the limit used", async () => {
    const body = await list("?_limit=1000");
    expect(body.meta.page.limit).toBe(200);
    expect(body.meta.page.count).toBe(120);
  });

  it("filters by status with _sort on updated_at", async () => {
    const body = await list("?status=approved&_sort=updated_at:asc");
    expect(body.results.length).toBeGreaterThan(0);
    expect(body.results.every((order) => order.status === "approved")).toBe(true);
    expect(
      isSorted(
        body.results.map((order) => order.updated_at),
        "asc",
      ),
    ).toBe(true);
    expect(body.meta.filters).toEqual([{ field: "status", operator: "eq", value: "approved" }]);
  });

  it("sorts on several criteria left to right, each one of the spec's four", async () => {
    const body = await list("?_sort=updated_at:desc,created_at:asc&_limit=200");
    const keys = body.results.map((order) => [order.updated_at, order.created_at] as const);
    expect(
      keys.every(([updated, created], index) => {
        const previous = keys[index - 1];
        return !previous || previous[0] > updated || (previous[0] === updated && previous[1] <= created);
      }),
    ).toBe(true);
    expect(body.meta.sort).toEqual([
      { field: "updated_at", direction: "desc" },
      { field: "created_at", direction: "asc" },
    ]);
  });

  it("filters by id, updated_at__ge/__le and a range", async () => {
    const all = await list("?_limit=200");
    const target = all.results[10] as Order;
    expect((await list(`?id=${target.id}`)).results.map((order) => order.id)).toEqual([target.id]);
    const from = all.results[20]?.updated_at ?? "";
    const to = all.results[5]?.updated_at ?? "";
    const [lower, upper] = from < to ? [from, to] : [to, from];
    const ranged = await list(`?updated_at__ge=${lower}&updated_at__le=${upper}&_limit=200`);
    const expected = all.results.filter((order) => order.updated_at >= lower && order.updated_at <= upper).length;
    expect(ranged.meta.total).toBe(expected);
    expect(ranged.meta.filters?.map((filter) => filter.operator)).toEqual(["gte", "lte"]);
    const strict = await list(`?updated_at__gt=${lower}&updated_at__lt=${upper}&_limit=200`);
    expect(strict.results.every((order) => order.updated_at > lower && order.updated_at < upper)).toBe(true);
  });

  it("filters on nested dotted paths, including through arrays", async () => {
    const all = await list("?_limit=200");
    const sample = all.results[0] as Order;
    const name = sample.customer.name.split(" ")[0] ?? "";
    const byName = await list(`?customer.name__like=${encodeURIComponent(name.toUpperCase())}&_limit=200`);
    expect(byName.results.length).toBeGreaterThan(0);
    expect(byName.results.every((order) => order.customer.name.toLowerCase().includes(name.toLowerCase()))).toBe(true);

    const delivered = await list("?deliveries.status=delivered&_limit=200");
    expect(delivered.results.every((order) => order.deliveries.some((delivery) => delivery.status === "delivered"))).toBe(true);
    const sku = sample.deliveries[0]?.items[0]?.info.sku ?? "";
    const bySku = await list(`?deliveries.items.info.sku__in=${sku},NOPE&_limit=200`);
    expect(bySku.results.length).toBeGreaterThan(0);
    expect(bySku.results.every((order) => order.deliveries.some((delivery) => delivery.items.some((item) => item.info.sku === sku)))).toBe(
      true,
    );

    const expensive = await list("?amounts.total__gte=30000&status__in=approved,finished&_limit=200");
    expect(expensive.results.every((order) => order.amounts.total >= 30000 && ["approved", "finished"].includes(order.status))).toBe(true);
    const expectedCount = all.results.filter(
      (order) => order.amounts.total >= 30000 && ["approved", "finished"].includes(order.status),
    ).length;
    expect(expensive.meta.total).toBe(expectedCount);
  });

  it.each([
    ["an unknown field", "?colour=red", "colour"],
    ["an unknown operator", "?status__near=new", "status__near"],
    ["a status outside the enum", "?status=lost", "status"],
    ["a malformed date", "?updated_at__ge=yesterday", "updated_at__ge"],
    ["a non-numeric amount", "?amounts.total__gt=ten", "amounts.total__gt"],
    ["a malformed _limit", "?_limit=ten", "_limit"],
    ["_limit=0", "?_limit=0", "_limit"],
    ["a negative _offset", "?_offset=-1", "_offset"],
    ["an unknown sort field", "?_sort=colour:asc", "_sort"],
    ["a bad sort direction", "?_sort=created_at:up", "_sort"],
    ["a sort on a multi-valued field", "?_sort=deliveries.status", "_sort"],
    ["a repeated parameter", "?status=new&status=approved", "status"],
    ["a non-filterable object", "?amounts=1", "amounts"],
  ])("%s → 400 naming the parameter", async (_name, query, parameter) => {
    expect(await listError(query)).toEqual({ status: 400, parameter });
  });
});

describe("GET /v1.0/marketplace/orders/{id}", () => {
  it("returns the seller's order", async () => {
    const first = (await list("?_limit=1")).results[0] as Order;
    const response = await sandbox.api(`${PATH}/${first.id}`, { token });
    expect(response.status).toBe(200);
    expect(orderSchema.strict().parse(await response.json())).toEqual(first);
  });

  it("another seller's order, or an unknown id → 404; a malformed id → 400", async () => {
    const mine = (await list("?_limit=1")).results[0] as Order;
    const other = await obtainAccessToken(sandbox.url, { login: "seller2@example.com" });
    const response = await sandbox.api(`${PATH}/${mine.id}`, { token: other });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: "not_found" } });
    const theirs = await sandbox.api(PATH, { token: other });
    const theirBody = envelope.parse(await theirs.json());
    expect(theirBody.meta.total).toBe(30);
    expect(theirBody.results.some((order) => order.id === mine.id)).toBe(false);
    expect((await sandbox.api(`${PATH}/${"f".repeat(24)}`, { token })).status).toBe(404);
    const malformed = await sandbox.api(`${PATH}/123`, { token });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ error: { code: "invalid_request", details: [{ field: "id" }] } });
  });

  it("needs order-order:read (403) and a token (401)", async () => {
    const noOrders = await obtainAccessToken(sandbox.url, { scopes: ["basic_user_info"] });
    expect((await sandbox.api(PATH, { token: noOrders })).status).toBe(403);
    expect((await sandbox.api(`${PATH}/${"f".repeat(24)}`, { token: noOrders })).status).toBe(403);
    expect((await sandbox.api(PATH)).status).toBe(401);
    expect((await sandbox.api(PATH, { headers: { Authorization: "Basic abc" } })).status).toBe(401);
  });
});
