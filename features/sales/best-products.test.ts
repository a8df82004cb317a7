import { describe, expect, it } from "vitest";
import { bestProducts, withMargins } from "./best-products";

const sold = (sku: string, units: number, revenue: number, withoutRevenue = 0) => ({ sku, name: sku, units, revenue, withoutRevenue });

describe("best products", () => {
  it("takes the commission at the shop's rate and each unit's cost from the revenue", () => {
    const [a, b, c] = withMargins(
      [sold("A", 2, 10_000), sold("B", 1, 5_000), sold("C", 1, 900, 1)],
      new Map([
        ["A", 3_000],
        ["C", 100],
      ]),
      1_250,
    );
    expect(a!.margin).toBe(10_000 - 1_250 - 2 * 3_000);
    // No cost, or part of the revenue unknown: no margin rather than a wrong one.
    expect(b!.margin).toBeNull();
    expect(c!.margin).toBeNull();
  });

  it("ranks by revenue, units or margin, those without a margin last", () => {
    const products = withMargins(
      [sold("A", 1, 9_000), sold("B", 5, 5_000), sold("C", 2, 6_000)],
      new Map([
        ["B", 100],
        ["C", 2_000],
      ]),
      null,
    );
    expect(bestProducts(products, "revenue").map((product) => product.sku)).toEqual(["A", "C", "B"]);
    expect(bestProducts(products, "units").map((product) => product.sku)).toEqual(["B", "C", "A"]);
    expect(bestProducts(products, "margin").map((product) => product.sku)).toEqual(["B", "C", "A"]);
    expect(bestProducts(products, "revenue", 2)).toHaveLength(2);
  });
});
