import "server-only";
import { mirroredOrderIdsByShipBy } from "@/lib/data/order-mirror";
import { withPlatform } from "@/lib/data/platform";
import type { CurrentSeller } from "@/lib/data/sellers";
import { ordersQuery } from "@/lib/marketplace/list-query";
import type { Order } from "@/lib/marketplace/schemas/order";
import { toPlatformOrdersQuery } from "@/lib/orders/order-filters";
import type { OrderFilters } from "@/lib/orders/order-filters";
import { deadlineRange } from "@/lib/orders/ship-by";
import { describeProblem } from "@/lib/platform-problem";
import type { PlatformResult } from "@/lib/platform-problem";

// The orders export's source: every order of the current filter, one platform page at a time, at
// the largest page size the platform reports (spec: Generic list rules, max_limit), waiting out a
// rate limit (429, Retry-After) instead of failing. The route handler pulls the next page only
// when the browser has taken the last, so the server holds one page at a time.

/** The first page asks for this many; later pages for the max_limit the platform reports. */
const FIRST_PAGE_LIMIT = 50;
const IDS_PER_REQUEST = 50;
const MIRROR_IDS_PER_READ = 1_000;
const RATE_LIMIT_ATTEMPTS = 6;
const MAX_RATE_LIMIT_WAIT_MS = 60_000;

export class ExportError extends Error {}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One platform call, asked again after a rate limit's wait; any other problem ends the export. */
async function patiently<T>(call: () => Promise<PlatformResult<T>>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const result = await call();
    if (result.ok) return result.data;
    const { problem } = result;
    const rateLimited = problem.kind === "error" && problem.status === 429;
    if (!rateLimited || attempt >= RATE_LIMIT_ATTEMPTS) throw new ExportError(describeProblem(problem, "export your orders"));
    await wait(Math.min(MAX_RATE_LIMIT_WAIT_MS, problem.retryAfterMs ?? 1_000 * 2 ** attempt));
  }
}

/** The orders of `filters` (their paging ignored), page after page. */
export async function* exportOrderPages(seller: CurrentSeller, filters: OrderFilters): AsyncGenerator<Order[]> {
  if (filters.deadline) {
    yield* exportByShipBy(seller, filters, filters.deadline);
    return;
  }
  let limit = FIRST_PAGE_LIMIT;
  let offset = 0;
  for (;;) {
    const query = toPlatformOrdersQuery(filters);
    query.set("_limit", String(limit));
    query.set("_offset", String(offset));
    const page = await patiently(() => withPlatform(seller, "listOrders", (client) => client.listOrders(query)));
    if (page.items.length > 0) yield page.items;
    if (!page.next || page.items.length === 0) return;
    offset += page.items.length;
    limit = page.maxLimit;
  }
}

/** "To ship today" and "late": the mirror says which orders (lib/data/orders.ts), the platform what they are. */
async function* exportByShipBy(seller: CurrentSeller, filters: OrderFilters, deadline: "today" | "late"): AsyncGenerator<Order[]> {
  const [field, direction] = filters.sort.split(":") as ["created_at" | "updated_at", "asc" | "desc"];
  const range = deadlineRange(deadline, new Date());
  for (let offset = 0; ; offset += MIRROR_IDS_PER_READ) {
    const { ids } = await mirroredOrderIdsByShipBy(seller.id, {
      range,
      statuses: filters.status,
      customer: filters.customer,
      id: filters.id,
      updatedFrom: filters.from,
      updatedTo: filters.to,
      sort: { field, direction },
      offset,
      limit: MIRROR_IDS_PER_READ,
    });
    for (let start = 0; start < ids.length; start += IDS_PER_REQUEST) {
      const chunk = ids.slice(start, start + IDS_PER_REQUEST);
      const page = await patiently(() => withPlatform(seller, "listOrders", (client) => client.listOrders(ordersQuery({ ids: chunk, limit: chunk.length }))));
      const byId = new Map(page.items.map((order) => [order.id, order]));
      const orders = chunk.flatMap((id) => byId.get(id) ?? []);
      if (orders.length > 0) yield orders;
    }
    if (ids.length < MIRROR_IDS_PER_READ) return;
  }
}
