// Typed queries of endpoints 7 and 9; the spelling itself is list-grammar.ts, shared with the sandbox.
import { formatListQuery, type ListFilter, type ListQuery, type SortCriterion } from "./list-grammar";
import type { OrderStatus } from "./schemas/order";
import type { PriceType } from "./schemas/price";
import { objectIdSchema } from "./schemas/common";

export type { FilterOperator, FilterValue, ListFilter, ListLink, ListQuery, SortCriterion, SortDirection } from "./list-grammar";
export { formatFilterValue, parseListLink } from "./list-grammar";

/** See `formatListQuery` for the order and what is refused. */
export function buildListQuery<F extends string>(query: ListQuery<F>): URLSearchParams {
  return formatListQuery(query);
}

export type OrderSortField = "created_at" | "updated_at";

/** The filters and order endpoint 9 documents, plus `status__in` and `customer.name__like`. */
export interface OrdersQuery {
  limit?: number;
  offset?: number;
  /** One criterion: spec 9 lists only `created_at|updated_at` × `asc|desc`. */
  sort?: SortCriterion<OrderSortField>;
  status?: OrderStatus;
  statuses?: readonly OrderStatus[];
  id?: string;
  /** The generic `id__in`, which endpoint 9 does not list. */
  ids?: readonly string[];
  updatedFrom?: Date;
  updatedTo?: Date;
  customerName?: string;
}

/** Throws when an id is not an ObjectId or the range is reversed. */
export function ordersQuery(query: OrdersQuery = {}): URLSearchParams {
  const filters: ListFilter<string>[] = [];
  if (query.status !== undefined) filters.push({ field: "status", op: "eq", value: query.status });
  if (query.statuses !== undefined) filters.push({ field: "status", op: "in", value: query.statuses });
  if (query.id !== undefined) {
    if (!objectIdSchema.safeParse(query.id).success) {
      throw new Error(`Invalid order id ${JSON.stringify(query.id)}: expected an ObjectId (24 hexadecimal characters)`);
    }
    filters.push({ field: "id", op: "eq", value: query.id });
  }
  if (query.ids !== undefined) {
    const invalid = query.ids.find((id) => !objectIdSchema.safeParse(id).success);
    if (invalid !== undefined)
      throw new Error(`Invalid order id ${JSON.stringify(invalid)}: expected an ObjectId (24 hexadecimal characters)`);
    filters.push({ field: "id", op: "in", value: query.ids });
  }
  if (query.updatedFrom && query.updatedTo && query.updatedFrom.getTime() > query.updatedTo.getTime()) {
    throw new Error("Invalid order query: updatedFrom is after updatedTo");
  }
  if (query.updatedFrom !== undefined) filters.push({ field: "updated_at", op: "ge", value: query.updatedFrom });
  if (query.updatedTo !== undefined) filters.push({ field: "updated_at", op: "le", value: query.updatedTo });
  if (query.customerName !== undefined) filters.push({ field: "customer.name", op: "like", value: query.customerName });
  return buildListQuery({
    limit: query.limit,
    offset: query.offset,
    sort: query.sort ? [query.sort] : undefined,
    filters,
  });
}

export interface PricesQuery {
  limit?: number;
  offset?: number;
  /** Spec 7: `created_at` is the only sortable field. */
  sort?: SortCriterion<"created_at">;
  sku?: string;
  type?: PriceType;
}

export function pricesQuery(query: PricesQuery = {}): URLSearchParams {
  const filters: ListFilter<string>[] = [];
  if (query.sku !== undefined) filters.push({ field: "sku", op: "eq", value: query.sku });
  if (query.type !== undefined) filters.push({ field: "type", op: "eq", value: query.type });
  return buildListQuery({
    limit: query.limit,
    offset: query.offset,
    sort: query.sort ? [query.sort] : undefined,
    filters,
  });
}
