import type { OrderSummary } from "@marketplace/api/schemas/order";

// What an order sold, per SKU code, as the order mirror keeps it for the sales page's best products
// (issue 42): units and revenue (unit price × quantity, in centavos of reais).

export interface SoldItem {
  sku: string;
  name: string;
  quantity: number;
  /** Centavos; null when a unit price is missing or not in reais. */
  revenue: number | null;
}

/** Rounded half away from zero, as the prices' margins are (features/prices/margin.ts). */
function centavos(value: number, normalizer: number): number {
  return Math.sign(value) * Math.round((Math.abs(value) * 100) / normalizer);
}

export function soldItemsOf(order: Pick<OrderSummary, "deliveries">): SoldItem[] {
  const bySku = new Map<string, SoldItem>();
  for (const delivery of order.deliveries) {
    for (const item of delivery.items) {
      if (!item.info) continue;
      const price = item.unit_price;
      const revenue = price && price.currency === "BRL" ? centavos(price.value * item.quantity, price.normalizer) : null;
      const known = bySku.get(item.info.sku);
      if (!known) bySku.set(item.info.sku, { sku: item.info.sku, name: item.info.name, quantity: item.quantity, revenue });
      else {
        known.quantity += item.quantity;
        known.revenue = known.revenue === null || revenue === null ? null : known.revenue + revenue;
      }
    }
  }
  return [...bySku.values()];
}
