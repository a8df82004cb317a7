// Where the spec names the allowed values for one endpoint, the sandbox refuses anything else
// (README: Where the sandbox is strict): prices sort on created_at only; the orders' `_sort` takes
// created_at|updated_at × asc|desc; `__ge`/`__le` exist only for the orders' updated_at; `__eq`
// nowhere. SANDBOX_LENIENT=1 accepts those wider forms. Whatever the dashboard sends stays accepted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ordersQuery, pricesQuery } from "@marketplace/api/list-query";
import { obtainAccessToken, startTestSandbox, type TestSandbox } from "./testing";

const ORDERS = "/v1.0/marketplace/orders";
const PRICES = "/v1.0/marketplace/portfolios/prices";

let strict: TestSandbox;
let lenient: TestSandbox;
let strictToken: string;
let lenientToken: string;

beforeAll(async () => {
  [strict, lenient] = await Promise.all([startTestSandbox(), startTestSandbox({ config: { lenient: true } })]);
  [strictToken, lenientToken] = await Promise.all([obtainAccessToken(strict.url), obtainAccessToken(lenient.url)]);
});
afterAll(async () => {
  await Promise.all([strict.close(), lenient.close()]);
});

async function get(
  sandbox: TestSandbox,
  token: string,
  path: string,
): Promise<{ status: number; body: { error?: { code: string; parameter?: string; message: string }; results?: unknown[] } }> {
  const response = await sandbox.api(path, { token });
  return { status: response.status, body: (await response.json()) as never };
}

/** The forms the spec does not give these endpoints: 400 invalid_query naming the parameter (strict), 200 (lenient). */
const OFF_SPEC: [name: string, path: string, parameter: string][] = [
  ["prices sorted on another field", `${PRICES}?_sort=value:desc`, "_sort"],
  ["prices sorted on created_at and another field", `${PRICES}?_sort=created_at:desc,sku`, "_sort"],
  ["prices sorted on created_at twice", `${PRICES}?_sort=created_at,created_at:desc`, "_sort"],
  ["__ge on prices", `${PRICES}?created_at__ge=2026-01-01`, "created_at__ge"],
  ["__le on prices", `${PRICES}?created_at__le=2026-12-31`, "created_at__le"],
  ["__eq on prices", `${PRICES}?sku__eq=CAM-001`, "sku__eq"],
  ["orders sorted on another field", `${ORDERS}?_sort=amounts.total:desc`, "_sort"],
  ["orders sorted on status then created_at", `${ORDERS}?_sort=status,created_at:desc`, "_sort"],
  ["orders sorted on created_at without a direction", `${ORDERS}?_sort=created_at`, "_sort"],
  ["orders sorted on updated_at without a direction", `${ORDERS}?_sort=updated_at:desc,created_at`, "_sort"],
  ["orders sorted on one field twice", `${ORDERS}?_sort=created_at:asc,created_at:desc`, "_sort"],
  ["__ge on the orders' created_at", `${ORDERS}?created_at__ge=2026-01-01`, "created_at__ge"],
  ["__le on the orders' amounts.total", `${ORDERS}?amounts.total__le=10000`, "amounts.total__le"],
  ["__eq on orders", `${ORDERS}?status__eq=new`, "status__eq"],
];

describe("strict (default): forms the spec does not give an endpoint", () => {
  it.each(OFF_SPEC)("%s → 400 invalid_query naming the parameter", async (_name, path, parameter) => {
    const { status, body } = await get(strict, strictToken, path);
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: "invalid_query", parameter });
    expect(body.error?.message).toContain("SANDBOX_LENIENT=1");
  });

  it("says what the endpoint takes", async () => {
    expect((await get(strict, strictToken, `${ORDERS}?_sort=created_at`)).body.error?.message).toBe(
      'Query parameter _sort: "created_at" is not one of the criteria this list takes: created_at:asc, created_at:desc, updated_at:asc, updated_at:desc (SANDBOX_LENIENT=1 accepts it)',
    );
    expect((await get(strict, strictToken, `${PRICES}?created_at__ge=2026-01-01`)).body.error?.message).toBe(
      "Query parameter created_at__ge: __ge is not a form of the generic rules (this list has none): use __gte (SANDBOX_LENIENT=1 accepts it)",
    );
    expect((await get(strict, strictToken, `${ORDERS}?created_at__le=2026-01-01`)).body.error?.message).toBe(
      "Query parameter created_at__le: __le is not a form of the generic rules (this list spells them only on updated_at): use __lte (SANDBOX_LENIENT=1 accepts it)",
    );
  });
});

describe("strict (default): what the spec gives stays accepted", () => {
  it.each([
    // 7. List prices: its parameters, and created_at with or without a direction (generic rule 2).
    `${PRICES}?sku=CAM-001&type=sell&_limit=5&_offset=0&_sort=created_at`,
    `${PRICES}?_sort=created_at:asc`,
    `${PRICES}?_sort=created_at:desc`,
    // Generic rules: every filter form on any field.
    `${PRICES}?sku__like=cam&type__in=list,sell&value__gt=0&value__gte=1&value__lt=99999999&value__lte=99999999`,
    `${PRICES}?created_at__gte=2025-01-01&created_at__lte=2027-01-01`,
    // 9. List orders: every parameter of its table and every `_sort` value.
    `${ORDERS}?status=approved&updated_at__ge=2025-01-01T00:00:00Z&updated_at__le=2027-01-01T00:00:00.000Z&_limit=10&_offset=0&_sort=updated_at:desc`,
    `${ORDERS}?_sort=created_at:asc`,
    `${ORDERS}?_sort=created_at:desc`,
    `${ORDERS}?_sort=updated_at:asc`,
    // Several criteria, each one of the four, left to right (generic rule 2).
    `${ORDERS}?_sort=updated_at:desc,created_at:asc`,
    `${ORDERS}?status__in=new,approved&customer.name__like=silva&amounts.total__gt=100&created_at__gte=2025-01-01&created_at__lt=2027-01-01&updated_at__gte=2025-01-01`,
  ])("%s → 200", async (path) => {
    const { status, body } = await get(strict, strictToken, path);
    expect(body.error).toBeUndefined();
    expect(status).toBe(200);
  });
});

// The dashboard writes every list query with these two functions (its tables, sync, export and
// webhook processing: features/orders/order-filters.ts, features/prices/price-filters.ts, lib/data/*.ts).
describe("strict (default): every query the dashboard sends is accepted", () => {
  const now = new Date("2026-11-01T12:00:00.000Z");
  const orderQueries = [
    ordersQuery(),
    ordersQuery({ status: "approved", sort: { field: "updated_at", direction: "asc" }, limit: 25, offset: 50 }),
    ordersQuery({ statuses: ["new", "approved"], sort: { field: "created_at", direction: "asc" }, limit: 200 }),
    ordersQuery({ id: "0123456789abcdef01234567" }),
    ordersQuery({ ids: ["0123456789abcdef01234567", "76543210fedcba9876543210"], limit: 2 }),
    ordersQuery({ updatedFrom: new Date(now.getTime() - 86_400_000), updatedTo: now, sort: { field: "updated_at", direction: "desc" } }),
    ordersQuery({ customerName: "João", sort: { field: "created_at", direction: "desc" } }),
    // The orders table: each of its four sorts with every filter it has.
    ...(["created_at", "updated_at"] as const).flatMap((field) =>
      (["asc", "desc"] as const).map((direction) =>
        ordersQuery({
          limit: 25,
          offset: 25,
          sort: { field, direction },
          statuses: ["new", "approved"],
          id: "0123456789abcdef01234567",
          updatedFrom: new Date("2026-01-01T00:00:00Z"),
          updatedTo: now,
          customerName: "silva",
        }),
      ),
    ),
  ];
  const priceQueries = [
    pricesQuery(),
    pricesQuery({ limit: 200, offset: 0, sort: { field: "created_at", direction: "asc" } }),
    pricesQuery({ sku: "CAM-001", type: "sell", sort: { field: "created_at", direction: "desc" } }),
    pricesQuery({ limit: 25, offset: 25, sku: "CAM-001", type: "list", sort: { field: "created_at", direction: "asc" } }),
  ];

  it.each(orderQueries.map((query) => [query.toString()]))("orders ?%s → 200", async (query) => {
    expect((await get(strict, strictToken, `${ORDERS}?${query}`)).status).toBe(200);
  });

  it.each(priceQueries.map((query) => [query.toString()]))("prices ?%s → 200", async (query) => {
    expect((await get(strict, strictToken, `${PRICES}?${query}`)).status).toBe(200);
  });

  it("and the e2e suite's own queries to the sandbox (tests/e2e/support.ts, orders.spec.ts)", async () => {
    for (const path of [
      `${ORDERS}?status__in=new,approved&_sort=created_at:desc&_limit=25`,
      `${ORDERS}?status__in=new,approved&_limit=200&_offset=0`,
      `${ORDERS}?status=finished&_limit=200&_offset=200`,
      `${PRICES}?&_limit=200&_offset=0`,
    ]) {
      expect((await get(strict, strictToken, path)).status, path).toBe(200);
    }
  });
});

describe("SANDBOX_LENIENT=1: the wider forms are accepted", () => {
  it.each(OFF_SPEC)("%s → 200", async (_name, path) => {
    const { status, body } = await get(lenient, lenientToken, path);
    expect(body.error).toBeUndefined();
    expect(status).toBe(200);
  });

  it("and still mean what they meant: a sort on any field, __eq as =, __ge as __gte", async () => {
    const byValue = await lenient.api(`${PRICES}?_sort=value:desc&_limit=200`, { token: lenientToken });
    const values = ((await byValue.json()) as { results: { value: number }[] }).results.map((price) => price.value);
    expect(values).toEqual([...values].sort((a, b) => b - a));
    const eq = (await (await lenient.api(`${ORDERS}?status__eq=new&_limit=200`, { token: lenientToken })).json()) as {
      results: { status: string }[];
      meta: { filters: unknown[] };
    };
    expect(eq.results.every((order) => order.status === "new")).toBe(true);
    expect(eq.meta.filters).toEqual([{ field: "status", operator: "eq", value: "new" }]);
    const ge = (await (await lenient.api(`${ORDERS}?created_at__ge=2026-06-01`, { token: lenientToken })).json()) as {
      meta: { filters: unknown[] };
    };
    expect(ge.meta.filters).toEqual([{ field: "created_at", operator: "gte", value: "2026-06-01" }]);
  });

  it("the generic rules still hold: unknown fields and malformed values → 400", async () => {
    expect((await get(lenient, lenientToken, `${ORDERS}?colour=red`)).body.error).toMatchObject({
      code: "invalid_query",
      parameter: "colour",
    });
    expect((await get(lenient, lenientToken, `${PRICES}?_sort=value:up`)).body.error).toMatchObject({
      code: "invalid_query",
      parameter: "_sort",
    });
  });
});
