import { describe, expect, it } from "vitest";
import { soldItemsOf } from "./order-items";

const item = (sku: string, quantity: number, value?: number, currency = "BRL", normalizer = 100) => ({
  quantity,
  info: { sku, name: `Produto ${sku}` },
  ...(value === undefined ? {} : { unit_price: { value, currency, normalizer } }),
});

describe("soldItemsOf", () => {
  it("adds up a code's units and revenue across deliveries, in centavos of reais", () => {
    const order = {
      deliveries: [{ items: [item("A", 2, 1990), item("B", 1, 5000, "BRL", 1000)] }, { items: [item("A", 1, 1990)] }],
    } as never;
    expect(soldItemsOf(order)).toEqual([
      { sku: "A", name: "Produto A", quantity: 3, revenue: 5970 },
      { sku: "B", name: "Produto B", quantity: 1, revenue: 500 },
    ]);
  });

  it("counts units without a revenue when a price is missing or in another currency", () => {
    const order = { deliveries: [{ items: [item("A", 2), item("B", 1, 900, "USD"), item("B", 1, 900)] }] } as never;
    expect(soldItemsOf(order)).toEqual([
      { sku: "A", name: "Produto A", quantity: 2, revenue: null },
      { sku: "B", name: "Produto B", quantity: 2, revenue: null },
    ]);
  });
});
