// Query strings of list requests (spec: Endpoints → Generic list rules; 7. List prices;
// 9. List orders; Limits). Call sites describe a page, its order and its filters with types; this
// module spells them the platform's way and refuses what the platform could misread. The
// spelling itself (operators, `_sort`, counts, links) is list-grammar.ts, shared with the sandbox.
import { formatListQuery, type ListFilter, type ListQuery, type SortCriterion } from "./list-grammar";
import type { OrderStatus } from "./schemas/order";
import type { PriceType } from "./schemas/price";
import { objectIdSchema } from "./schemas/common";

export type {
  FilterOperator,
  FilterValue,
  ListFilter,
  ListLink,
  ListQuery,
  SortCriterion,
  SortDirection,
} from "./list-grammar";
export { formatFilterValue, parseListLink } from "./list-grammar";

/**
 * Builds the query of a list request (see `formatListQuery` for the order, the encoding and what
 * is refused), e.g. `buildListQuery({ limit: 50, offset: 100, sort: [{ field: "created_at",
 * direction: "desc" }], filters: [{ field: "status", op: "in", value: ["new", "approved"] }] })`
 * → `status__in=new%2Capproved&_sort=created_at%3Adesc&_limit=50&_offset=100`.
 */
export function buildListQuery<F extends string>(query: ListQuery<F>): URLSearchParams {
  return formatListQuery(query);
}

// ---------------------------------------------------------------------------------------------
// Endpoint helpers

export type OrderSortField = "created_at" | "updated_at";

/** The filters and order endpoint 9 documents, plus `status__in` and `customer.name__like`. */
export interface OrdersQuery {
  limit?: number;
  offset?: number;
  /** One criterion: `_sort` takes one of `created_at|updated_at` × `asc|desc` (spec: 9). */
  sort?: SortCriterion<OrderSortField>;
  /** `status`: exact status. */
  status?: OrderStatus;
  /** `status__in`: any of these statuses. */
  statuses?: readonly OrderStatus[];
  /** `id`: one order, by ObjectId. */
  id?: string;
  /** `id__in`: these orders (generic list rules: `field__in=v1,v2`), by ObjectId. */
  ids?: readonly string[];
  /** `updated_at__ge`: orders updated from this instant on. */
  updatedFrom?: Date;
  /** `updated_at__le`: orders updated up to this instant. */
  updatedTo?: Date;
  /** `customer.name__like`: partial match on the customer's name. */
  customerName?: string;
}

/**
 * Query of endpoint 9 (List orders), e.g.
 * `ordersQuery({ statuses: ["new", "approved"], updatedFrom: since, sort: { field: "updated_at", direction: "desc" }, limit: 50 })`.
 *
 * @throws Error when `id` is not an ObjectId, the range is reversed, or as `buildListQuery`.
 */
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
    if (invalid !== undefined) throw new Error(`Invalid order id ${JSON.stringify(invalid)}: expected an ObjectId (24 hexadecimal characters)`);
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

/** Filters and order of endpoint 7 (List prices). */
export interface PricesQuery {
  limit?: number;
  offset?: number;
  /** `_sort`: `created_at` is the only sortable field (spec: 7). */
  sort?: SortCriterion<"created_at">;
  /** `sku`: prices of that SKU. */
  sku?: string;
  /** `type`: `list` or `sell`. */
  type?: PriceType;
}

/** Query of endpoint 7 (List prices), e.g. `pricesQuery({ sku: "ABC-1", type: "sell" })`. */
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
