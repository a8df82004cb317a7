import "server-only";
import { withPlatform } from "@/lib/data/platform";
import type { PlatformResult } from "@/lib/data/platform";
import type { CurrentSeller } from "@/lib/data/sellers";
import type { Order } from "@/lib/marketplace/schemas/order";
import { toPlatformOrdersQuery } from "@/lib/orders/order-filters";
import type { OrderFilters } from "@/lib/orders/order-filters";

/** What the orders table shows of an order: the browser gets these fields, not whole orders. */
export interface OrderRow {
  id: string;
  status: Order["status"];
  createdAt: string;
  updatedAt: string;
  customerName: string;
  total: { value: number; currency: string; normalizer: number };
  deliveries: number;
  items: number;
}

export interface OrdersPage {
  rows: OrderRow[];
  page: number;
  size: number;
  total: number | null;
  hasNext: boolean;
}

function toRow(order: Order): OrderRow {
  return {
    id: order.id,
    status: order.status,
    createdAt: order.created_at,
    updatedAt: order.updated_at,
    customerName: order.customer.name,
    total: { value: order.amounts.total, currency: order.amounts.currency, normalizer: order.amounts.normalizer },
    deliveries: order.deliveries.length,
    items: order.deliveries.reduce((sum, delivery) => sum + delivery.items.reduce((n, item) => n + item.quantity, 0), 0),
  };
}

export async function listOrdersForSeller(seller: CurrentSeller, filters: OrderFilters): Promise<PlatformResult<OrdersPage>> {
  const result = await withPlatform(seller, "listOrders", (client) => client.listOrders(toPlatformOrdersQuery(filters)));
  if (!result.ok) return result;
  const page = result.data;
  return {
    ok: true,
    data: { rows: page.items.map(toRow), page: filters.page, size: filters.size, total: page.total ?? null, hasNext: page.next !== null },
  };
}

export async function getOrderForSeller(seller: CurrentSeller, id: string): Promise<PlatformResult<Order | null>> {
  const result = await withPlatform(seller, "getOrder", (client) => client.getOrder(id));
  // Another seller's order answers 404 at the platform: to this seller it does not exist.
  if (!result.ok && result.problem.kind === "error" && result.problem.status === 404) return { ok: true, data: null };
  return result;
}
