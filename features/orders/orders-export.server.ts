import "server-only";
import { mirroredOrderIdsByShipBy } from "@/lib/orders/order-mirror.server";
import { ordersByIds, IDS_PER_REQUEST, shipByQuery } from "@/features/orders/orders.server";
import { everyPage, withPlatform } from "@/lib/platform/platform.server";
import type { CurrentShop } from "@/lib/shops/shops.server";
import type { Order } from "@marketplace/api/schemas/order";
import { toPlatformOrdersQuery } from "@/features/orders/order-filters";
import type { OrderFilters } from "@/features/orders/order-filters";
import { describeProblem } from "@/lib/platform-problem";
import type { PlatformResult, ProblemWords } from "@/lib/platform-problem";

// Pages are read as the browser pulls the stream, after the route has returned: a problem's words
// come from the route, taken while the request was alive. A rate limit is waited out, not fatal.

const MIRROR_IDS_PER_READ = 1_000;
/** A rate limit is waited out (Retry-After, else 2, 4, 8… s), six calls in all. */
const PATIENT = { rateLimitAttempts: 6 };

export class ExportError extends Error {}

/** One platform call, made with PATIENT: any problem but a rate limit ends the export. */
async function patiently<T>(call: () => Promise<PlatformResult<T>>, problems: ProblemWords): Promise<T> {
  const result = await call();
  if (!result.ok) throw new ExportError(describeProblem(result.problem, problems, "exportOrders"));
  return result.data;
}

export async function* exportOrderPages(shop: CurrentShop, filters: OrderFilters, problems: ProblemWords): AsyncGenerator<Order[]> {
  if (filters.deadline) {
    yield* exportByShipBy(shop, filters, filters.deadline, problems);
    return;
  }
  yield* everyPage((limit, offset) => {
    const query = toPlatformOrdersQuery(filters);
    query.set("_limit", String(limit));
    query.set("_offset", String(offset));
    return patiently(() => withPlatform(shop, "listOrders", (client) => client.listOrders(query), PATIENT), problems);
  });
}

/** The mirror says which orders, the platform what they are (see listOrdersByShipBy). */
async function* exportByShipBy(
  shop: CurrentShop,
  filters: OrderFilters,
  deadline: "today" | "late",
  problems: ProblemWords,
): AsyncGenerator<Order[]> {
  const now = new Date();
  for (let offset = 0; ; offset += MIRROR_IDS_PER_READ) {
    const { ids } = await mirroredOrderIdsByShipBy(
      shop.id,
      shipByQuery(filters, deadline, { offset, limit: MIRROR_IDS_PER_READ }, shop.timeZone, now),
    );
    for (let start = 0; start < ids.length; start += IDS_PER_REQUEST) {
      const orders = await patiently(() => ordersByIds(shop, ids.slice(start, start + IDS_PER_REQUEST), PATIENT), problems);
      if (orders.length > 0) yield orders;
    }
    if (ids.length < MIRROR_IDS_PER_READ) return;
  }
}
