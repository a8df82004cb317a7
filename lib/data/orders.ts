import "server-only";
import { withPlatform } from "@/lib/data/platform";
import type { PlatformResult } from "@/lib/data/platform";
import type { CurrentSeller } from "@/lib/data/sellers";
import type { Order } from "@/lib/marketplace/schemas/order";
import { toPlatformOrdersQuery } from "@/lib/orders/order-filters";
import type { OrderFilters } from "@/lib/orders/order-filters";
import { toOrderRow } from "@/lib/orders/order-rows";
import type { OrdersPage } from "@/lib/orders/order-rows";

export async function listOrdersForSeller(seller: CurrentSeller, filters: OrderFilters): Promise<PlatformResult<OrdersPage>> {
  const result = await withPlatform(seller, "listOrders", (client) => client.listOrders(toPlatformOrdersQuery(filters)));
  if (!result.ok) return result;
  const page = result.data;
  return {
    ok: true,
    data: { rows: page.items.map(toOrderRow), page: filters.page, size: filters.size, total: page.total ?? null, hasNext: page.next !== null },
  };
}

export async function getOrderForSeller(seller: CurrentSeller, id: string): Promise<PlatformResult<Order | null>> {
  const result = await withPlatform(seller, "getOrder", (client) => client.getOrder(id));
  // Another seller's order answers 404 at the platform: to this seller it does not exist.
  if (!result.ok && result.problem.kind === "error" && result.problem.status === 404) return { ok: true, data: null };
  return result;
}
