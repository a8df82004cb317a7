// The orders table's state as it appears in the page URL and in /api/orders: filters, sort and
// paging. One schema for the page, the route handler and the table (STYLE: table state in the URL).
import { z } from "zod";
import { ordersQuery } from "@/lib/marketplace/list-query";
import { objectIdSchema } from "@/lib/marketplace/schemas/common";
import { orderSortSchema, orderStatusSchema } from "@/lib/marketplace/schemas/order";

export const ORDER_PAGE_SIZES = [25, 50, 100, 200] as const;
export const ORDER_STATUSES = orderStatusSchema.options;
export const ORDER_SORTS = orderSortSchema.options;
export const DEFAULT_ORDER_SORT = "created_at:desc" satisfies (typeof ORDER_SORTS)[number];

const emptyToUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);

export const orderFiltersSchema = z
  .object({
    // Several statuses at once, comma separated in the URL: `status=new,approved`.
    status: z.preprocess(
      (value) => (typeof value === "string" && value !== "" ? [...new Set(value.split(","))] : undefined),
      z.array(orderStatusSchema).optional(),
    ),
    from: z.preprocess(emptyToUndefined, z.iso.datetime({ offset: true }).optional()),
    to: z.preprocess(emptyToUndefined, z.iso.datetime({ offset: true }).optional()),
    id: z.preprocess(emptyToUndefined, objectIdSchema.optional()),
    customer: z.preprocess(emptyToUndefined, z.string().trim().min(1).max(100).optional()),
    sort: z.preprocess(emptyToUndefined, orderSortSchema.default(DEFAULT_ORDER_SORT)),
    page: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(1_000_000).default(1)),
    size: z.preprocess(
      emptyToUndefined,
      z.coerce
        .number()
        .refine((value) => (ORDER_PAGE_SIZES as readonly number[]).includes(value), "must be 25, 50, 100 or 200")
        .default(25),
    ),
  })
  .refine((value) => !value.from || !value.to || new Date(value.from) <= new Date(value.to), {
    message: "The start of the updated-at range is after its end",
    path: ["to"],
  });

export type OrderFilters = z.infer<typeof orderFiltersSchema>;

export function orderFiltersFromSearchParams(params: URLSearchParams) {
  return orderFiltersSchema.safeParse(Object.fromEntries(params));
}

/** The URL form of the state, without defaults, so links stay short and stable. */
export function orderFiltersToSearchParams(filters: OrderFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.status?.length) params.set("status", filters.status.join(","));
  if (filters.from) params.set("from", filters.from);
  if (filters.to) params.set("to", filters.to);
  if (filters.id) params.set("id", filters.id);
  if (filters.customer) params.set("customer", filters.customer);
  if (filters.sort !== DEFAULT_ORDER_SORT) params.set("sort", filters.sort);
  if (filters.page > 1) params.set("page", String(filters.page));
  if (filters.size !== 25) params.set("size", String(filters.size));
  return params;
}

/** The platform's query for endpoint 9 (spec: 9. List orders; Generic list rules). */
export function toPlatformOrdersQuery(filters: OrderFilters): URLSearchParams {
  const [field, direction] = filters.sort.split(":") as ["created_at" | "updated_at", "asc" | "desc"];
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
