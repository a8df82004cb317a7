// A shop's best sellers: units per SKU over the orders placed since a moment, cancelled ones left
// out. Ties go to the code that sorts first, so the same orders always give the same list.

export interface SoldOrder {
  status: string;
  created_at: string;
  deliveries: readonly { items: readonly { quantity: number; info?: { sku: string } | undefined }[] }[];
}

/** A type, not an interface: it is stored as JSON, which Prisma types with an index signature. */
export type UnitsSold = { sku: string; units: number };

export const BEST_SELLERS_DAYS = 30;

/** The first instant of the window that ends at `now`. */
export function bestSellersSince(now: Date): Date {
  return new Date(now.getTime() - BEST_SELLERS_DAYS * 86_400_000);
}

export function bestSellersOf(orders: Iterable<SoldOrder>, since: Date, limit: number): UnitsSold[] {
  const units = new Map<string, number>();
  for (const order of orders) {
    if (order.status === "cancelled" || Date.parse(order.created_at) < since.getTime()) continue;
    for (const delivery of order.deliveries) {
      for (const item of delivery.items) {
        const sku = item.info?.sku;
        if (!sku || item.quantity <= 0) continue;
        units.set(sku, (units.get(sku) ?? 0) + item.quantity);
      }
    }
  }
  return [...units]
    .map(([sku, count]) => ({ sku, units: count }))
    .sort((a, b) => b.units - a.units || (a.sku < b.sku ? -1 : a.sku > b.sku ? 1 : 0))
    .slice(0, limit);
}
