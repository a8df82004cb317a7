import { describe, expect, it } from "vitest";
import { readPriceProductsQuery } from "./price-products-query";

describe("readPriceProductsQuery", () => {
  it("reads the search, page and size of the URL", () => {
    expect(readPriceProductsQuery({ search: " camisa ", page: "3", size: "50" })).toEqual({ search: "camisa", page: 3, size: 50 });
  });

  it("falls back to the first page of 25 for what it cannot use, never failing the page", () => {
    expect(readPriceProductsQuery({})).toEqual({ search: undefined, page: 1, size: 25 });
    expect(readPriceProductsQuery({ page: "-2", size: "7", search: "x".repeat(51) })).toEqual({ search: undefined, page: 1, size: 25 });
    expect(readPriceProductsQuery({ page: ["2", "9"], search: "" })).toEqual({ search: undefined, page: 2, size: 25 });
  });
});
