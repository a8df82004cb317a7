// The browser gets this shape of an order, never the platform's whole order.
import type { Order } from "@marketplace/api/schemas/order";
import { itemCountOf } from "@/lib/orders/items";
import { orderNet } from "@/lib/orders/net";
import { shipByOf } from "@/lib/orders/ship-by";
import type { TablePage } from "@/lib/tables/table-page";

export interface OrderRow {
  id: string;
  /** The short reference (decision 0018); null only if it could not be given. */
  reference: number | null;
  status: Order["status"];
  createdAt: string;
  updatedAt: string;
  /** Empty for a role that does not see customers (decision 0010). */
  customerName: string;
  total: { value: number; currency: string; normalizer: number };
  /** Null when it cannot be told (lib/orders/net.ts). */
  net: { value: number; currency: string; normalizer: number } | null;
  deliveries: number;
  items: number;
  shipBy: string | null;
}

export type OrdersPage = TablePage<OrderRow>;

export function toOrderRow(order: Order, reference: number | null, seesCustomers: boolean): OrderRow {
  const net = orderNet(order.amounts);
  return {
    id: order.id,
    reference,
    status: order.status,
    createdAt: order.created_at,
    updatedAt: order.updated_at,
    customerName: seesCustomers ? order.customer.name : "",
    total: { value: order.amounts.total, currency: order.amounts.currency, normalizer: order.amounts.normalizer },
    net: net && { value: net.net, currency: net.currency, normalizer: net.normalizer },
    deliveries: order.deliveries.length,
    items: itemCountOf(order),
    shipBy: shipByOf(order),
  };
}
