// Server side of the orders table: its URL schema and platform query (spec: 9. List orders).
import { ordersQuery } from "@marketplace/api/list-query";
import type { OrderSortField } from "@marketplace/api/list-query";
import { objectIdSchema } from "@marketplace/api/schemas/common";
import { ordersTable } from "@/features/orders/order-params";
import type { OrderFilters } from "@/features/orders/order-params";
import { tableSchema } from "@/lib/tables/table-schema";
import { parseOrderReference } from "@/lib/words/order-reference";
import { z } from "zod";

export { ordersTable };
export type { OrderFilters };

/** The order filter takes a short reference ("#1042", decision 0018) or the platform's id. */
const orderSearchSchema = z.string().refine((text) => parseOrderReference(text) !== null || objectIdSchema.safeParse(text).success, {
  message: "Must be an order number such as #1042 or the platform's 24-character order id",
});

export const ordersSchema = tableSchema(ordersTable, {
  texts: { id: orderSearchSchema },
  check: (state) =>
    state.from && state.to && new Date(state.from) > new Date(state.to)
      ? { filter: "to", message: "The start of the updated-at range is after its end" }
      : null,
});

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
