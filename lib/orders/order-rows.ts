// What the browser gets of an order in the orders table: the dashboard's own shape, mapped from
// the platform's (spec: Resources → Order), never the whole order. Plain module: the table
// (a client component) and lib/data both use it.
import type { Order } from "@/lib/marketplace/schemas/order";
import { orderNet } from "@/lib/orders/net";
import { shipByOf } from "@/lib/orders/ship-by";
import type { TablePage } from "@/lib/tables/table-page";

export interface OrderRow {
  id: string;
  status: Order["status"];
  createdAt: string;
  updatedAt: string;
  customerName: string;
  total: { value: number; currency: string; normalizer: number };
  /** What the seller receives, estimated (lib/orders/net.ts); null when it cannot be told. */
  net: { value: number; currency: string; normalizer: number } | null;
  deliveries: number;
  items: number;
  /** The earliest handling-time limit among deliveries still to post; null when nothing is left to ship. */
  shipBy: string | null;
}

export type OrdersPage = TablePage<OrderRow>;

/** How many units an order holds, over all its deliveries (the list, the mirror and the export count alike). */
export function itemCountOf(order: { deliveries: readonly { items: readonly { quantity: number }[] }[] }): number {
  return order.deliveries.reduce((sum, delivery) => sum + delivery.items.reduce((n, item) => n + item.quantity, 0), 0);
}

export function toOrderRow(order: Order): OrderRow {
  const net = orderNet(order.amounts);
  return {
    id: order.id,
    status: order.status,
    createdAt: order.created_at,
    updatedAt: order.updated_at,
    customerName: order.customer.name,
    total: { value: order.amounts.total, currency: order.amounts.currency, normalizer: order.amounts.normalizer },
    net: net && { value: net.net, currency: net.currency, normalizer: net.normalizer },
    deliveries: order.deliveries.length,
    items: itemCountOf(order),
    shipBy: shipByOf(order),
  };
}
