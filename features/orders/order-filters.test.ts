import { describe, expect, it } from "vitest";
import { ordersSchema, ordersTable, toPlatformOrdersQuery } from "./order-filters";

const parse = (query: string) => {
  const result = ordersSchema.parse(new URLSearchParams(query));
  if (!result.success) throw new Error(result.error.message);
  return result.data;
};

describe("order filters", () => {
  it("defaults to the newest orders first, 25 a page", () => {
    expect(parse("")).toEqual({ sort: "created_at:desc", page: 1, size: 25 });
    expect(toPlatformOrdersQuery(parse("")).toString()).toBe("_sort=created_at%3Adesc&_limit=25&_offset=0");
  });

  it("maps several statuses to status__in and one to status", () => {
    expect(toPlatformOrdersQuery(parse("status=new,approved")).get("status__in")).toBe("new,approved");
    expect(toPlatformOrdersQuery(parse("status=cancelled")).get("status")).toBe("cancelled");
  });

  it("maps the range, id, customer, sort and page to the platform's parameters", () => {
    const query = toPlatformOrdersQuery(
      parse(
        "from=2026-01-01T00:00:00.000Z&to=2026-02-01T00:00:00.000Z&customer=Ana&sort=updated_at:asc&page=3&size=50&id=65a000000000000000000001",
      ),
    );
    expect(query.get("updated_at__ge")).toBe("2026-01-01T00:00:00.000Z");
    expect(query.get("updated_at__le")).toBe("2026-02-01T00:00:00.000Z");
    expect(query.get("customer.name__like")).toBe("Ana");
    expect(query.get("id")).toBe("65a000000000000000000001");
    expect(query.get("_sort")).toBe("updated_at:asc");
    expect(query.get("_limit")).toBe("50");
    expect(query.get("_offset")).toBe("100");
  });

  it("round-trips through the URL without defaults", () => {
    const filters = parse("status=new,finished&sort=updated_at:desc&page=2&size=100");
    expect(ordersTable.toSearchParams(filters).toString()).toBe("status=new%2Cfinished&sort=updated_at%3Adesc&page=2&size=100");
    expect(ordersTable.toSearchParams(parse("")).toString()).toBe("");
  });

  it.each([
    "status=shipped",
    "size=30",
    "sort=total:desc",
    "id=12345678901",
    "id=abc",
    "from=yesterday",
    "from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z",
    "page=0",
  ])("rejects %s", (query) => {
    expect(ordersSchema.parse(new URLSearchParams(query)).success).toBe(false);
  });
});
