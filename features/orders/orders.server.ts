import "server-only";
import { withPlatform } from "@/lib/platform/platform.server";
import type { PlatformResult } from "@/lib/platform/platform.server";
import type { CurrentShop } from "@/lib/shops/shops.server";
import type { Order } from "@marketplace/api/schemas/order";
import { toPlatformOrdersQuery } from "@/features/orders/order-filters";
import type { OrderFilters } from "@/features/orders/order-filters";
import { mirroredOrderIdsByShipBy } from "@/lib/orders/order-mirror.server";
import type { MirrorDeadlineQuery } from "@/lib/orders/order-mirror.server";
import { ordersQuery } from "@marketplace/api/list-query";
import { toOrderRow } from "@/features/orders/order-rows";
import { deadlineRange } from "@/lib/orders/ship-by";
import { countedPage } from "@/lib/tables/table-page";
import type { OrdersPage } from "@/features/orders/order-rows";
import { orderIdByReference, readReferences } from "@/lib/orders/order-references.server";
import { parseOrderReference } from "@/lib/words/order-reference";
import { can } from "@/lib/people/roles";
import type { Role } from "@/lib/people/roles";

/**
 * A role that does not see customers (decision 0010) gets rows without the buyer's name, and its
 * customer filter is dropped: a name search would tell whether someone bought.
 */
export async function listOrdersForShop(
  shop: CurrentShop,
  asked: OrderFilters,
  { role }: { role: Role },
): Promise<PlatformResult<OrdersPage>> {
  const seesCustomers = can(role, "orders.customerData");
  const filters = await withOrderId(shop, seesCustomers ? asked : { ...asked, customer: undefined });
  if (filters === null) return { ok: true, data: countedPage([], 0, asked) };
  if (filters.deadline) return listOrdersByShipBy(shop, filters, filters.deadline, seesCustomers);
  const result = await withPlatform(shop, "listOrders", (client) => client.listOrders(toPlatformOrdersQuery(filters)));
  if (!result.ok) return result;
  const page = result.data;
  return {
    ok: true,
    data: {
      rows: await toRows(shop, page.items, seesCustomers),
      page: filters.page,
      size: filters.size,
      total: page.total ?? null,
      hasNext: page.next !== null,
    },
  };
}

/** The "order" filter takes a short reference ("#1042") or the platform's id; null when no order has that reference. */
async function withOrderId(shop: CurrentShop, filters: OrderFilters): Promise<OrderFilters | null> {
  const reference = filters.id ? parseOrderReference(filters.id) : null;
  if (reference === null) return filters;
  const id = await orderIdByReference(shop.id, reference);
  return id === null ? null : { ...filters, id };
}

async function toRows(shop: CurrentShop, orders: readonly Order[], seesCustomers: boolean) {
  const references = await readReferences(
    shop.id,
    orders.map((order) => order.id),
  );
  return orders.map((order) => toOrderRow(order, references.get(order.id) ?? null, seesCustomers));
}

/** The order with its short reference; null when the platform has no such order for this seller. */
export async function getReferencedOrder(
  shop: CurrentShop,
  id: string,
): Promise<PlatformResult<{ order: Order; reference: number | null } | null>> {
  const result = await getOrderForShop(shop, id);
  if (!result.ok || result.data === null) return result as PlatformResult<null>;
  const references = await readReferences(shop.id, [id]);
  return { ok: true, data: { order: result.data, reference: references.get(id) ?? null } };
}

export async function getOrderForShop(shop: CurrentShop, id: string): Promise<PlatformResult<Order | null>> {
  const result = await withPlatform(shop, "getOrder", (client) => client.getOrder(id));
  // Another seller's order answers 404 at the platform: to this seller it does not exist.
  if (!result.ok && result.problem.kind === "error" && result.problem.status === 404) return { ok: true, data: null };
  return result;
}

/** Orders are asked of the platform by id this many at a time (the spec's example max_limit). */
export const IDS_PER_REQUEST = 50;

/** "Today" ends at midnight in `timeZone`, the seller's. */
export function shipByQuery(
  filters: OrderFilters,
  deadline: "today" | "late",
  page: { offset: number; limit: number },
  timeZone: string,
  now = new Date(),
): MirrorDeadlineQuery {
  const [field, direction] = filters.sort.split(":") as ["created_at" | "updated_at", "asc" | "desc"];
  return {
    range: deadlineRange(deadline, now, timeZone),
    statuses: filters.status,
    customer: filters.customer,
    id: filters.id,
    updatedFrom: filters.from,
    updatedTo: filters.to,
    sort: { field, direction },
    ...page,
  };
}

/** These orders as the platform has them now, in the ids' order; one it no longer returns is left out. */
export async function ordersByIds(
  shop: CurrentShop,
  ids: readonly string[],
  options: { rateLimitAttempts?: number } = {},
): Promise<PlatformResult<Order[]>> {
  const orders = new Map<string, Order>();
  for (let start = 0; start < ids.length; start += IDS_PER_REQUEST) {
    const chunk = ids.slice(start, start + IDS_PER_REQUEST);
    const result = await withPlatform(
      shop,
      "listOrders",
      (client) => client.listOrders(ordersQuery({ ids: chunk, limit: chunk.length })),
      options,
    );
    if (!result.ok) return result;
    for (const order of result.data.items) orders.set(order.id, order);
  }
  return { ok: true, data: ids.flatMap((id) => orders.get(id) ?? []) };
}

/**
 * The platform filters each field of a delivery separately (generic list rules), so "an open
 * delivery past its limit" cannot be asked of it: the mirror says which orders, the platform what they are now.
 */
async function listOrdersByShipBy(
  shop: CurrentShop,
  filters: OrderFilters,
  deadline: "today" | "late",
  seesCustomers: boolean,
): Promise<PlatformResult<OrdersPage>> {
  const { ids, total } = await mirroredOrderIdsByShipBy(
    shop.id,
    shipByQuery(filters, deadline, { offset: (filters.page - 1) * filters.size, limit: filters.size }, shop.timeZone),
  );
  const orders = await ordersByIds(shop, ids);
  if (!orders.ok) return orders;
  return { ok: true, data: countedPage(await toRows(shop, orders.data, seesCustomers), total, filters) };
}
