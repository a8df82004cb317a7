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
      const { unit_price } = order.deliveries[0]!.items[0]!;
      expect(summary.deliveries[0]?.items[0]).toEqual({
        quantity: 2,
        info: undefined,
        unit_price: { value: unit_price.value, currency: unit_price.currency, normalizer: unit_price.normalizer },
      });
    }
  });

  it("keeps each item's unit price for sales by product, and reads an order whose price is malformed without it", () => {
    const malformed = {
      ...order,
      deliveries: order.deliveries.map((delivery) => ({
        ...delivery,
        items: delivery.items.map((item) => ({ ...item, unit_price: { value: "12,90", currency: "BRL" } })),
      })),
    };
    expect(orderSummarySchema.parse(order).deliveries[0]?.items[0]?.unit_price).toEqual({
      value: order.deliveries[0]!.items[0]!.unit_price.value,
      currency: order.deliveries[0]!.items[0]!.unit_price.currency,
      normalizer: order.deliveries[0]!.items[0]!.unit_price.normalizer,
    });
    expect(orderSummarySchema.parse(malformed).deliveries[0]?.items[0]?.unit_price).toBeUndefined();
  });
});
