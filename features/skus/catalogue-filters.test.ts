import { describe, expect, it } from "vitest";
import { skuCatalogueSchema, skuCatalogueTable } from "./catalogue-filters";

const parse = (query: string) => skuCatalogueSchema.parse(new URLSearchParams(query));

describe("SKU catalogue filters", () => {
  it("defaults to page 1 of 25 and keeps the URL short", () => {
    const parsed = parse("");
    expect(parsed.success && parsed.data).toEqual({ page: 1, size: 25 });
    if (parsed.success) expect(skuCatalogueTable.toSearchParams(parsed.data).toString()).toBe("");
  });

  it("round-trips a search, a page and a size", () => {
    const parsed = parse("search=%20CAM-1%20&page=3&size=50");
    expect(parsed.success && parsed.data).toEqual({ search: "CAM-1", page: 3, size: 50 });
    if (parsed.success) expect(skuCatalogueTable.toSearchParams(parsed.data).toString()).toBe("search=CAM-1&page=3&size=50");
  });

  it.each(["page=0", "page=x", "size=7"])("refuses %s", (query) => {
    expect(parse(query).success).toBe(false);
  });
});
