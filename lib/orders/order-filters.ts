// The orders table's state as it appears in the page URL and in /api/orders: filters, sort and
// paging, declared once (lib/tables/table-params.ts), and its platform query (spec: 9. List
// orders; Generic list rules).
import { ordersQuery } from "@/lib/marketplace/list-query";
import type { OrderSortField } from "@/lib/marketplace/list-query";
import { objectIdSchema } from "@/lib/marketplace/schemas/common";
import { orderStatusSchema } from "@/lib/marketplace/schemas/order";
import { choicesFilter, defineTableParams, instantFilter, textFilter } from "@/lib/tables/table-params";
import type { StateOf } from "@/lib/tables/table-params";

export const ordersTable = defineTableParams({
  filters: {
    status: choicesFilter("Status", orderStatusSchema.options),
    id: textFilter("Order id", objectIdSchema, { mono: true }),
    customer: textFilter("Customer name"),
    from: instantFilter("Updated from"),
    to: instantFilter("Updated to"),
  },
  sorts: ["created_at:desc", "created_at:asc", "updated_at:desc", "updated_at:asc"],
  sizes: [25, 50, 100, 200],
  check: (state) =>
    state.from && state.to && new Date(state.from) > new Date(state.to)
      ? { filter: "to", message: "The start of the updated-at range is after its end" }
      : null,
});

export type OrderFilters = StateOf<typeof ordersTable>;

/** The platform's query for endpoint 9 (spec: 9. List orders; Generic list rules). */
export function toPlatformOrdersQuery(filters: OrderFilters): URLSearchParams {
  const [field, direction] = filters.sort.split(":") as [OrderSortField, "asc" | "desc"];
  const statuses = filters.status ?? [];
  return ordersQuery({
    limit: filters.size,
    offset: (filters.page - 1) * filters.size,
    sort: { field, direction },
    ...(statuses.length === 1 ? { status: statuses[0] } : statuses.length > 1 ? { statuses } : {}),
    ...(filters.id ? { id: filters.id } : {}),
    ...(filters.from ? { updatedFrom: new Date(filters.from) } : {}),
    ...(filters.to ? { updatedTo: new Date(filters.to) } : {}),
    ...(filters.customer ? { customerName: filters.customer } : {}),
  });
}
