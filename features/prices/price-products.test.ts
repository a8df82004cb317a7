import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Price } from "@marketplace/api/schemas/price";
import {
  applyPercent,
  discountOf,
  foldForSearch,
  groupPricesByProduct,
  guardPlan,
  parsePercent,
  planBulkChange,
  searchProducts,
} from "./price-products";
import type { PlannedChange, PriceProduct } from "./price-products";

const price = (sku: string, type: "list" | "sell", value: number, createdAt = "2026-11-01T00:00:00.000Z", normalizer = 100): Price =>
  ({ id: `${sku}-${type}-${createdAt}`, sku, type, value, currency: "BRL", normalizer, extras: {}, created_at: createdAt }) as Price;

describe("groupPricesByProduct", () => {
  it("pairs each SKU's list and sell prices, ordered by SKU, the newest price of a type winning", () => {
    const products = groupPricesByProduct([
      price("B-2", "sell", 4990),
      price("A-1", "list", 5988),
      price("A-1", "sell", 4990),
      price("B-2", "sell", 3990, "2026-11-02T00:00:00.000Z"),
    ]);
    expect(products.map((product) => [product.sku, product.list?.value ?? null, product.sell?.value ?? null])).toEqual([
      ["A-1", 5988, 4990],
      ["B-2", null, 3990],
    ]);
  });
});

describe("searchProducts", () => {
  const named = (sku: string, name: string | null): PriceProduct => ({ sku, name, list: null, sell: null });
  const products = [named("CAM-001", "Camiseta Básica Algodão P"), named("TEN-001", "Tênis Corrida Leve 38"), named("XYZ-9", null)];
  const skusFound = (search: string) => searchProducts(products, search).map((product) => product.sku);

  it("finds a product by part of its name, whatever the letter case and accents", () => {
    expect(skusFound("camiseta")).toEqual(["CAM-001"]);
    expect(skusFound("ALGODAO")).toEqual(["CAM-001"]);
    expect(skusFound("tenis")).toEqual(["TEN-001"]);
    expect(skusFound("Tênis corrida")).toEqual(["TEN-001"]);
  });

  it("finds a product by part of its code, named or not, and everything for an empty search", () => {
    expect(skusFound("cam-0")).toEqual(["CAM-001"]);
    expect(skusFound("xyz")).toEqual(["XYZ-9"]);
    expect(skusFound("  ")).toEqual(["CAM-001", "TEN-001", "XYZ-9"]);
    expect(skusFound("meia")).toEqual([]);
  });

  it("folds text the same way on both sides", () => {
    expect(foldForSearch("Açaí ÉPICO")).toBe("acai epico");
  });
});

describe("discountOf", () => {
  const product = (list: number | null, sell: number | null, sellNormalizer = 100): PriceProduct => ({
    sku: "X",
    name: null,
    list: list === null ? null : { id: "l", value: list, currency: "BRL", normalizer: 100, createdAt: "" },
    sell: sell === null ? null : { id: "s", value: sell, currency: "BRL", normalizer: sellNormalizer, createdAt: "" },
  });

  it("is the share of the list price taken off: de R$ 59,88 por R$ 49,90 is 16,67 %", () => {
    expect(discountOf(product(5988, 4990))).toBeCloseTo(0.1667, 4);
  });

  it("compares prices of different precisions by their amounts", () => {
    expect(discountOf(product(10000, 90000, 1000))).toBeCloseTo(0.1, 6);
  });

  it("shows none without both prices, or when the sell price is not below the list price", () => {
    expect(discountOf(product(null, 4990))).toBeNull();
    expect(discountOf(product(5988, null))).toBeNull();
    expect(discountOf(product(4990, 4990))).toBeNull();
    expect(discountOf(product(4990, 5988))).toBeNull();
  });
});

describe("parsePercent", () => {
  it("reads signs, comma or point decimals and a trailing %", () => {
    expect(parsePercent("-10")).toEqual({ ok: true, hundredths: -1000 });
    expect(parsePercent("−7,5 %")).toEqual({ ok: true, hundredths: -750 });
    expect(parsePercent("+12.25")).toEqual({ ok: true, hundredths: 1225 });
  });

  it("refuses what is not a percentage, and changes that would zero a price or multiply it absurdly", () => {
    expect(parsePercent("ten")).toEqual({ ok: false, problem: "percent_invalid" });
    expect(parsePercent("1,234")).toEqual({ ok: false, problem: "percent_invalid" });
    expect(parsePercent("-100")).toEqual({ ok: false, problem: "percent_out_of_range" });
    expect(parsePercent("1001")).toEqual({ ok: false, problem: "percent_out_of_range" });
  });
});

describe("applyPercent", () => {
  it("rounds half away from zero at the price's precision", () => {
    expect(applyPercent(4990, -1000)).toBe(4491); // 49,90 − 10 % = 44,91
    expect(applyPercent(5, -1000)).toBe(5); // 0,045 rounds to 0,05
    expect(applyPercent(15, -1000)).toBe(14); // 0,135 → 0,14
  });

  it("is exact for any price: never further than half a cent from value × (1 + p)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 40 }), fc.integer({ min: -9999, max: 100_000 }), (value, hundredths) => {
        const result = BigInt(applyPercent(value, hundredths));
        const exact = BigInt(value) * BigInt(10_000 + hundredths); // × 10^4
        const distance = result * 10_000n - exact;
        return distance * 2n <= 10_000n && distance * 2n >= -10_000n;
      }),
    );
  });
});

describe("planBulkChange", () => {
  const products = groupPricesByProduct([
    price("A-1", "list", 5988),
    price("A-1", "sell", 4990),
    price("B-2", "sell", 1000),
    price("C-3", "list", 100),
  ]);

  it("previews old → new for each chosen price, by a percentage", () => {
    const planned = planBulkChange(products, { mode: "percent", percent: "-10", target: "sell" }, "pt-BR");
    expect(planned.map((row) => [row.sku, row.type, row.kind, row.kind === "invalid" ? row.problem : row.value])).toEqual([
      ["A-1", "sell", "changed", 4491],
      ["B-2", "sell", "changed", 900],
      ["C-3", "sell", "invalid", "no_price"],
    ]);
  });

  it("sets both prices to a typed amount in the seller's notation, creating a missing one", () => {
    const planned = planBulkChange(products.slice(0, 2), { mode: "value", amount: "1.234,50", target: "both" }, "pt-BR");
    expect(planned.map((row) => [row.sku, row.type, row.kind, row.kind === "invalid" ? row.problem : row.amount])).toEqual([
      ["A-1", "list", "changed", "1234.50"],
      ["A-1", "sell", "changed", "1234.50"],
      ["B-2", "list", "new", "1234.50"],
      ["B-2", "sell", "changed", "1234.50"],
    ]);
    expect(planBulkChange(products.slice(0, 1), { mode: "value", amount: "1,234.50", target: "sell" }, "en")[0]).toMatchObject({
      value: 123450,
    });
  });

  it("marks a change that leaves a price as it is, and refuses one that would make it zero", () => {
    expect(planBulkChange(products.slice(0, 1), { mode: "value", amount: "49,90", target: "sell" }, "pt-BR")[0]).toMatchObject({
      kind: "unchanged",
    });
    expect(planBulkChange(products.slice(0, 1), { mode: "value", amount: "0", target: "sell" }, "pt-BR")[0]).toMatchObject({
      kind: "invalid",
      problem: "not_positive",
    });
    expect(planBulkChange(products.slice(2), { mode: "percent", percent: "-99,9", target: "list" }, "pt-BR")[0]).toMatchObject({
      kind: "invalid",
      problem: "not_positive",
    });
    expect(planBulkChange(products.slice(0, 1), { mode: "value", amount: "abc", target: "sell" }, "pt-BR")[0]).toMatchObject({
      kind: "invalid",
      problem: "invalid",
    });
  });
});

describe("planBulkChange with the cents rounded", () => {
  const products = groupPricesByProduct([
    price("A-1", "list", 5988),
    price("A-1", "sell", 4990),
    price("B-2", "list", 35988),
    price("B-2", "sell", 29990),
  ]);
  const values = (planned: PlannedChange[]) => planned.map((row) => (row.kind === "invalid" ? row.problem : row.value));

  it("ends −10 % in ,90 or ,99 instead of R$ 44,91 and R$ 269,91", () => {
    const change = { mode: "percent", percent: "-10", target: "sell" } as const;
    expect(values(planBulkChange(products, change, "pt-BR"))).toEqual([4491, 26991]);
    expect(values(planBulkChange(products, { ...change, rounding: "90" }, "pt-BR"))).toEqual([4490, 26990]);
    expect(values(planBulkChange(products, { ...change, rounding: "99" }, "pt-BR"))).toEqual([4499, 26999]);
    expect(planBulkChange(products, { ...change, rounding: "90" }, "pt-BR")[0]).toMatchObject({ kind: "changed", amount: "44.90" });
  });

  it("rounds the list and sell prices alike, the sell price staying at or under the list price", () => {
    const planned = planBulkChange(products, { mode: "percent", percent: "-10", target: "both", rounding: "90" }, "pt-BR");
    expect(planned.map((row) => [row.sku, row.type, row.kind === "invalid" ? row.problem : row.value])).toEqual([
      ["A-1", "list", 5390],
      ["A-1", "sell", 4490],
      ["B-2", "list", 32390],
      ["B-2", "sell", 26990],
    ]);
  });

  it("rounds a typed amount too, and marks a price the rounding leaves as it was unchanged", () => {
    expect(values(planBulkChange(products.slice(0, 1), { mode: "value", amount: "50", target: "sell", rounding: "90" }, "pt-BR"))).toEqual([
      4990,
    ]);
    expect(planBulkChange(products.slice(0, 1), { mode: "value", amount: "50", target: "sell", rounding: "90" }, "pt-BR")[0]).toMatchObject(
      {
        kind: "unchanged",
      },
    );
  });
});

describe("guardPlan", () => {
  const heldOf = (change: PlannedChange) => (change.kind === "invalid" ? undefined : change.held);
  const product = (sku: string, list: number | null, sell: number | null, cost: number | null): PriceProduct => ({
    sku,
    name: null,
    list: list === null ? null : { id: `${sku}-l`, value: list, currency: "BRL", normalizer: 100, createdAt: "2026-11-01T00:00:00.000Z" },
    sell: sell === null ? null : { id: `${sku}-s`, value: sell, currency: "BRL", normalizer: 100, createdAt: "2026-11-01T00:00:00.000Z" },
    cost,
  });

  it("holds a −40 % change of sell prices below cost and beyond ±30 %, and lets a small one through", () => {
    const products = [product("CAM-001", 5988, 4990, 3500), product("TEN-001", 35988, 29990, null)];
    const held = guardPlan(products, planBulkChange(products, { mode: "percent", percent: "-40", target: "sell" }, "pt-BR"), 30);
    expect(held.map((change) => [change.sku, heldOf(change)?.map((reason) => reason.code) ?? []])).toEqual([
      ["CAM-001", ["belowCost", "moveTooLarge"]],
      ["TEN-001", ["moveTooLarge"]],
    ]);
    const small = guardPlan(products, planBulkChange(products, { mode: "percent", percent: "-10", target: "both" }, "pt-BR"), 30);
    expect(small.every((change) => heldOf(change) === undefined)).toBe(true);
  });

  it("judges a new price only on the cost, and leaves unchanged and invalid rows alone", () => {
    const products = [product("A", null, null, 1000), product("B", 1000, 1000, 5000)];
    const plan = guardPlan(products, planBulkChange(products, { mode: "value", amount: "9,00", target: "sell" }, "pt-BR"), 30);
    expect(plan[0]).toMatchObject({ kind: "new", held: [{ code: "belowCost", cost: 1000 }] });
    const percent = guardPlan(products, planBulkChange(products, { mode: "percent", percent: "0", target: "sell" }, "pt-BR"), 30);
    expect(percent.map((change) => [change.kind, heldOf(change)])).toEqual([
      ["invalid", undefined],
      ["unchanged", undefined],
    ]);
  });
});
