import { describe, expect, it } from "vitest";
import { parseListQuery } from "./list-grammar";
import { buildListQuery, formatFilterValue, ordersQuery, parseListLink, pricesQuery } from "./list-query";

/** The query as the platform reads it: decoded name/value pairs, in order. */
const decoded = (params: URLSearchParams) => [...new URLSearchParams(params.toString())];

describe("buildListQuery", () => {
  it("builds the call-site example of the brief", () => {
    const params = buildListQuery({
      limit: 50,
      offset: 100,
      sort: [{ field: "created_at", direction: "desc" }],
      filters: [{ field: "status", op: "in", value: ["new", "approved"] }],
    });
    expect(decoded(params)).toEqual([
      ["status__in", "new,approved"],
      ["_sort", "created_at:desc"],
      ["_limit", "50"],
      ["_offset", "100"],
    ]);
    expect(params.toString()).toBe("status__in=new%2Capproved&_sort=created_at%3Adesc&_limit=50&_offset=100");
  });

  it("is empty when nothing is asked, leaving the platform's defaults", () => {
    expect(buildListQuery({}).toString()).toBe("");
  });

  it("spells every operator of the generic rules and the orders endpoint", () => {
    const params = buildListQuery({
      filters: [
        { field: "status", op: "eq", value: "new" },
        { field: "name", op: "like", value: "Ana" },
        { field: "total", op: "gt", value: 10 },
        { field: "total", op: "gte", value: 11 },
        { field: "total", op: "lt", value: 20 },
        { field: "total", op: "lte", value: 19 },
        { field: "updated_at", op: "ge", value: "a" },
        { field: "updated_at", op: "le", value: "b" },
      ],
    });
    expect([...params.keys()]).toEqual([
      "status",
      "name__like",
      "total__gt",
      "total__gte",
      "total__lt",
      "total__lte",
      "updated_at__ge",
      "updated_at__le",
    ]);
  });

  it("filters on dotted paths", () => {
    const params = buildListQuery({ filters: [{ field: "customer.name", op: "like", value: "Ana" }] });
    expect(params.toString()).toBe("customer.name__like=Ana");
  });

  it("writes several sort criteria left to right, with asc for a missing direction", () => {
    const params = buildListQuery({
      sort: [{ field: "created_at", direction: "desc" }, { field: "updated_at" }, { field: "id", direction: "asc" }],
    });
    expect(params.get("_sort")).toBe("created_at:desc,updated_at:asc,id:asc");
  });

  it("formats numbers, booleans and Dates (ISO 8601, UTC, milliseconds)", () => {
    const params = buildListQuery({
      filters: [
        { field: "quantity", op: "gte", value: 2.5 },
        { field: "active", op: "eq", value: false },
        { field: "created_at", op: "lt", value: new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 6)) },
        { field: "id", op: "in", value: [1, true, new Date(Date.UTC(2024, 0, 1))] },
      ],
    });
    expect(params.get("quantity__gte")).toBe("2.5");
    expect(params.get("active")).toBe("false");
    expect(params.get("created_at__lt")).toBe("2024-01-02T03:04:05.006Z");
    expect(params.get("id__in")).toBe("1,true,2024-01-01T00:00:00.000Z");
  });

  it("converts Dates with a time-zone offset to UTC", () => {
    expect(formatFilterValue(new Date("2024-06-01T10:00:00-03:00"))).toBe("2024-06-01T13:00:00.000Z");
  });

  it("encodes spaces, &, +, commas, = and unicode so the values decode unchanged", () => {
    const value = "Ana & João + Cia, Ltda = 100% ✓";
    const params = buildListQuery({ filters: [{ field: "customer.name", op: "like", value }] });
    const text = params.toString();
    expect(text).toBe("customer.name__like=Ana+%26+Jo%C3%A3o+%2B+Cia%2C+Ltda+%3D+100%25+%E2%9C%93");
    expect(text.split("&")).toHaveLength(1);
    expect(new URLSearchParams(text).get("customer.name__like")).toBe(value);
  });

  it("encodes unicode inside __in values", () => {
    const params = buildListQuery({ filters: [{ field: "city", op: "in", value: ["São Paulo", "Brasília"] }] });
    expect(params.toString()).toBe("city__in=S%C3%A3o+Paulo%2CBras%C3%ADlia");
    expect(new URLSearchParams(params.toString()).get("city__in")?.split(",")).toEqual(["São Paulo", "Brasília"]);
  });

  it("accepts offset 0", () => {
    expect(buildListQuery({ offset: 0 }).get("_offset")).toBe("0");
  });

  it.each(["Status", "customer..name", ".name", "name.", "_limit", "_sort", "status__in", "name_", "a-b", "né", "", "a b"])(
    "rejects the field name %j",
    (field) => {
      expect(() => buildListQuery({ filters: [{ field, op: "eq", value: "x" }] })).toThrow(/Invalid filter field/);
      expect(() => buildListQuery({ sort: [{ field }] })).toThrow(/Invalid sort field/);
    },
  );

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 0])("rejects the limit %s", (limit) => {
    expect(() => buildListQuery({ limit })).toThrow(/Invalid list limit/);
  });

  it.each([-1, 0.5, Number.NaN, 2 ** 53])("rejects the offset %s", (offset) => {
    expect(() => buildListQuery({ offset })).toThrow(/Invalid list offset/);
  });

  it("rejects an empty __in list", () => {
    expect(() => buildListQuery({ filters: [{ field: "status", op: "in", value: [] }] })).toThrow(/status__in needs at least one value/);
  });

  it("rejects a comma inside an __in value, which would split it, but not inside other values", () => {
    expect(() => buildListQuery({ filters: [{ field: "name", op: "in", value: ["Silva, Ana"] }] })).toThrow(/comma/);
    expect(buildListQuery({ filters: [{ field: "name", op: "eq", value: "Silva, Ana" }] }).get("name")).toBe("Silva, Ana");
  });

  it("rejects the same filter twice and the same sort field twice", () => {
    expect(() =>
      buildListQuery({
        filters: [
          { field: "status", op: "eq", value: "new" },
          { field: "status", op: "eq", value: "approved" },
        ],
      }),
    ).toThrow(/given twice/);
    expect(() => buildListQuery({ sort: [{ field: "created_at" }, { field: "created_at", direction: "desc" }] })).toThrow(/given twice/);
  });

  it("rejects invalid Dates and numbers the platform could not read", () => {
    expect(() => buildListQuery({ filters: [{ field: "created_at", op: "gt", value: new Date("nope") }] })).toThrow(/Date is invalid/);
    expect(() => buildListQuery({ filters: [{ field: "total", op: "gt", value: Number.NaN }] })).toThrow(/finite/);
    expect(() => buildListQuery({ filters: [{ field: "total", op: "gt", value: 1e21 }] })).toThrow(/exponent/);
  });
});

describe("parseListLink", () => {
  it("reads a bare query string", () => {
    const link = parseListLink("?_offset=50&_limit=50");
    expect(link.path).toBeNull();
    expect(link.offset).toBe(50);
    expect(link.limit).toBe(50);
    expect(link.params.toString()).toBe("");
  });

  it("reads a path with a query string and keeps the other parameters", () => {
    const link = parseListLink("/v1.0/marketplace/orders?status__in=new%2Capproved&_sort=created_at%3Adesc&_limit=20&_offset=40");
    expect(link).toMatchObject({ path: "/v1.0/marketplace/orders", offset: 40, limit: 20 });
    expect([...link.params]).toEqual([
      ["status__in", "new,approved"],
      ["_sort", "created_at:desc"],
    ]);
  });

  it("reads an absolute URL and a query string without its ?", () => {
    expect(parseListLink("https://api.example.com/v1.0/marketplace/orders?_offset=10&_limit=5")).toMatchObject({
      path: "/v1.0/marketplace/orders",
      offset: 10,
      limit: 5,
    });
    expect(parseListLink("_offset=100&_limit=50")).toMatchObject({ path: null, offset: 100, limit: 50 });
  });

  it("takes the documented defaults for a missing _offset or _limit", () => {
    expect(parseListLink("/v1.0/marketplace/orders?_limit=20")).toMatchObject({ offset: 0, limit: 20 });
    expect(parseListLink("?_offset=50")).toMatchObject({ offset: 50, limit: 50 });
  });

  it("refuses malformed counts", () => {
    expect(() => parseListLink("?_offset=-50&_limit=50")).toThrow(/Invalid _offset/);
    expect(() => parseListLink("?_offset=50&_limit=1.5")).toThrow(/Invalid _limit/);
    expect(() => parseListLink("?_offset=50&_limit=0")).toThrow(/Invalid list limit/);
  });

  it("feeds buildListQuery back to request the linked page", () => {
    const link = parseListLink("/v1.0/marketplace/orders?status=new&_limit=50&_offset=100");
    const next = buildListQuery({ ...parseListQuery(link.params), limit: link.limit, offset: link.offset });
    expect(next.toString()).toBe("status=new&_limit=50&_offset=100");
  });
});

describe("ordersQuery", () => {
  it("writes each documented filter of endpoint 9", () => {
    const params = ordersQuery({
      status: "approved",
      statuses: ["new", "approved"],
      id: "65a1b2c3d4e5f6a7b8c9d0e1",
      updatedFrom: new Date("2024-01-01T00:00:00Z"),
      updatedTo: new Date("2024-01-31T23:59:59.999Z"),
      customerName: "Ana Maria",
      sort: { field: "updated_at", direction: "desc" },
      limit: 50,
      offset: 0,
    });
    expect(decoded(params)).toEqual([
      ["status", "approved"],
      ["status__in", "new,approved"],
      ["id", "65a1b2c3d4e5f6a7b8c9d0e1"],
      ["updated_at__ge", "2024-01-01T00:00:00.000Z"],
      ["updated_at__le", "2024-01-31T23:59:59.999Z"],
      ["customer.name__like", "Ana Maria"],
      ["_sort", "updated_at:desc"],
      ["_limit", "50"],
      ["_offset", "0"],
    ]);
  });

  it("always writes one of the four sort values the endpoint accepts", () => {
    expect(ordersQuery({ sort: { field: "created_at" } }).get("_sort")).toBe("created_at:asc");
    expect(ordersQuery().toString()).toBe("");
  });

  it("refuses an id that is not an ObjectId and a reversed range", () => {
    expect(() => ordersQuery({ id: "123" })).toThrow(/ObjectId/);
    expect(() => ordersQuery({ updatedFrom: new Date("2024-02-01T00:00:00Z"), updatedTo: new Date("2024-01-01T00:00:00Z") })).toThrow(
      /after/,
    );
  });
});

describe("pricesQuery", () => {
  it("writes the filters and sort of endpoint 7", () => {
    const params = pricesQuery({ sku: "CAMISA AZUL+P", type: "sell", sort: { field: "created_at", direction: "desc" }, limit: 10 });
    expect(decoded(params)).toEqual([
      ["sku", "CAMISA AZUL+P"],
      ["type", "sell"],
      ["_sort", "created_at:desc"],
      ["_limit", "10"],
    ]);
  });
});
