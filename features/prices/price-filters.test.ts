import { describe, expect, it } from "vitest";
import { pricesSchema, pricesTable, toPlatformPricesQuery } from "./price-filters";

const parse = (query: string) => {
  const result = pricesSchema.parse(new URLSearchParams(query));
  if (!result.success) throw new Error(result.error.message);
  return result.data;
};

describe("price filters", () => {
  it("defaults to newest first, 25 a page", () => {
    expect(toPlatformPricesQuery(parse("")).toString()).toBe("_sort=created_at%3Adesc&_limit=25&_offset=0");
  });

  it("maps sku, type, sort and page to endpoint 7's parameters", () => {
    const query = toPlatformPricesQuery(parse("sku=CAM-001&type=sell&sort=created_at:asc&page=2&size=50"));
    expect(query.get("sku")).toBe("CAM-001");
    expect(query.get("type")).toBe("sell");
    expect(query.get("_sort")).toBe("created_at:asc");
    expect(query.get("_offset")).toBe("50");
  });

  it("round-trips through the URL without defaults", () => {
    expect(pricesTable.toSearchParams(parse("sku=A&type=list&page=3")).toString()).toBe("sku=A&type=list&page=3");
    expect(pricesTable.toSearchParams(parse("")).toString()).toBe("");
  });

  it.each(["type=promo", "size=30", "sort=value:desc", "page=-1"])("rejects %s", (query) => {
    expect(pricesSchema.parse(new URLSearchParams(query)).success).toBe(false);
  });
});
