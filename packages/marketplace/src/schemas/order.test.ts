import { describe, expect, it } from "vitest";
import { order } from "../spec-examples.fixtures";
import { orderSummarySchema } from "./order";

// The order summary keeps, of each item, the product's code and name (they name SKUs in the
// prices views); a name is only a label, so an item without one never costs the order its mirror.
describe("orderSummarySchema", () => {
  const withItemInfo = (info: unknown) => ({
    ...order,
    deliveries: order.deliveries.map((delivery) => ({ ...delivery, items: delivery.items.map((item) => ({ ...item, info })) })),
  });

  it("keeps each item's SKU code and product name", () => {
    const summary = orderSummarySchema.parse(order);
    expect(summary.deliveries[0]?.items[0]?.info).toEqual({ sku: "CAM-001", name: "Camiseta" });
  });

  it("still reads an order whose item has no info, or info without a name, leaving the item unnamed", () => {
    for (const info of [undefined, null, { sku: "CAM-001" }, { sku: 1, name: "Camiseta" }]) {
      const summary = orderSummarySchema.parse(withItemInfo(info));
      expect(summary.deliveries[0]?.items[0]).toEqual({ quantity: 2, info: undefined });
    }
  });
});
