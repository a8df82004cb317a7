// Query strings of list requests (spec: Endpoints → Generic list rules; 7. List prices;
// 9. List orders; Limits). Call sites describe a page, its order and its filters with types; this
// module spells them the platform's way and refuses what the platform could misread.
import type { OrderStatus } from "./schemas/order";
import type { PriceType } from "./schemas/price";
import type { ListOperator } from "./schemas/list";
import { objectIdSchema } from "./schemas/common";

export type SortDirection = "asc" | "desc";

export interface SortCriterion<F extends string = string> {
  field: F;
  /** Ascending when omitted (Generic list rules, point 2). */
  direction?: SortDirection;
}

/**
 * The seven operators of the generic rules, plus `ge`/`le`: endpoint 9 spells its date range
 * `updated_at__ge` / `updated_at__le` rather than `__gte` / `__lte`.
 */
export type FilterOperator = ListOperator | "ge" | "le";

export type FilterValue = string | number | boolean | Date;

export type ListFilter<F extends string = string> =
  | { field: F; op: Exclude<FilterOperator, "in">; value: FilterValue }
  | { field: F; op: "in"; value: readonly FilterValue[] };

export interface ListQuery<F extends string = string> {
  /** `_limit`: page size. Left out, the platform uses 50 (Limits). */
  limit?: number;
  /** `_offset`: zero-based position of the first record. Left out, the platform uses 0. */
  offset?: number;
  /** `_sort`: criteria applied left to right. */
  sort?: readonly SortCriterion<F>[];
  /** Combined with AND (Generic list rules, point 4). */
  filters?: readonly ListFilter<F>[];
}

// Segments of lower-case letters and digits joined by single underscores, and segments joined
// by dots (point 3: "field name in lower case; nested fields use the dotted path"). A leading
// underscore would collide with `_limit`/`_offset`/`_sort`, and a double underscore with the
// `__operator` suffix the platform splits on, so neither is allowed.
const FIELD_PATTERN = /^[a-z0-9]+(?:_[a-z0-9]+)*(?:\.[a-z0-9]+(?:_[a-z0-9]+)*)*$/;

function assertFieldName(field: string, where: string): void {
  if (!FIELD_PATTERN.test(field)) {
    throw new Error(
      `Invalid ${where} field ${JSON.stringify(field)}: use lower-case [a-z0-9_] segments joined by dots, such as "customer.name"`,
    );
  }
}

function assertCount(name: "limit" | "offset", value: number, minimum: number): void {
  if (!Number.isSafeInteger(value) || value < minimum) {
    const expected = minimum === 0 ? "a non-negative integer" : "a positive integer";
    throw new Error(`Invalid list ${name} ${value}: expected ${expected}`);
  }
}

/** Wire form of one value: Dates as ISO 8601 in UTC with milliseconds, like the order timestamps. */
export function formatFilterValue(value: FilterValue): string {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new Error("Invalid filter value: the Date is invalid");
    return value.toISOString();
  }
  if (typeof value === "number") {
    const text = String(value);
    // `String(1e21)` is "1e+21": a platform comparing numbers may not read exponent notation.
    if (!Number.isFinite(value) || /e/i.test(text)) {
      throw new Error(`Invalid filter value ${text}: pass a finite number without exponent, or a string`);
    }
    return text;
  }
  return String(value);
}

function parameterName(field: string, op: FilterOperator): string {
  return op === "eq" ? field : `${field}__${op}`;
}

/**
 * Builds the query of a list request, e.g.
 * `buildListQuery({ limit: 50, offset: 100, sort: [{ field: "created_at", direction: "desc" }],
 * filters: [{ field: "status", op: "in", value: ["new", "approved"] }] })`
 * → `status__in=new%2Capproved&_sort=created_at%3Adesc&_limit=50&_offset=100`.
 *
 * Parameters come out in a stable order (filters as given, then `_sort`, `_limit`, `_offset`) so
 * the string can serve as a cache key. Encoding is `URLSearchParams`'s: space → `+`, and `+`,
 * `&`, `,`, `:` and non-ASCII percent-encoded, which the platform decodes back to the same text.
 *
 * @throws Error on an invalid field name, a limit that is not a positive integer, an offset that
 *   is not a non-negative integer, an empty `in` list or one whose values contain a comma, or the
 *   same field and operator twice (the platform rejects repeated parameters).
 */
export function buildListQuery<F extends string>(query: ListQuery<F>): URLSearchParams {
  const params = new URLSearchParams();

  for (const filter of query.filters ?? []) {
    assertFieldName(filter.field, "filter");
    const name = parameterName(filter.field, filter.op);
    if (params.has(name)) throw new Error(`Filter ${name} is given twice; combine the values or use __in`);
    if (filter.op === "in") {
      if (filter.value.length === 0) throw new Error(`Filter ${name} needs at least one value`);
      const values = filter.value.map(formatFilterValue);
      // The spec separates `__in` values with commas and offers no escape, so a comma inside a
      // value would silently become two values.
      const withComma = values.find((value) => value.includes(","));
      if (withComma !== undefined) throw new Error(`Filter ${name} value ${JSON.stringify(withComma)} contains a comma`);
      params.append(name, values.join(","));
    } else {
      params.append(name, formatFilterValue(filter.value));
    }
  }

  if (query.sort && query.sort.length > 0) {
    const seen = new Set<string>();
    const criteria = query.sort.map(({ field, direction }) => {
      assertFieldName(field, "sort");
      if (seen.has(field)) throw new Error(`Sort field ${field} is given twice`);
      seen.add(field);
      // Always explicit: the bare form means asc (point 2), but endpoint 9 lists only the four
      // `field:direction` spellings as valid values.
      return `${field}:${direction ?? "asc"}`;
    });
    params.set("_sort", criteria.join(","));
  }

  if (query.limit !== undefined) {
    assertCount("limit", query.limit, 1);
    params.set("_limit", String(query.limit));
  }
  if (query.offset !== undefined) {
    assertCount("offset", query.offset, 0);
    params.set("_offset", String(query.offset));
  }
  return params;
}

// ---------------------------------------------------------------------------------------------
// The inverse: reading list parameters back

const OPERATOR_SUFFIXES: ReadonlySet<string> = new Set<FilterOperator>(["like", "in", "gt", "gte", "lt", "lte", "ge", "le"]);

function parseCount(name: "_limit" | "_offset", text: string, minimum: number): number {
  if (!/^\d+$/.test(text)) throw new Error(`Invalid ${name} ${JSON.stringify(text)}: expected an integer`);
  const value = Number(text);
  assertCount(name === "_limit" ? "limit" : "offset", value, minimum);
  return value;
}

/**
 * Reads list parameters back into a `ListQuery` (values come back as strings, `__in` values
 * split on commas), so that `buildListQuery(parseListQuery(params))` reproduces them.
 * An explicit `field__eq` is read as `eq`. Unknown `_` parameters are refused.
 */
export function parseListQuery(params: URLSearchParams): ListQuery {
  const query: { limit?: number; offset?: number; sort?: SortCriterion[]; filters: ListFilter[] } = { filters: [] };
  for (const [key, value] of params) {
    if (key === "_limit") {
      query.limit = parseCount(key, value, 1);
    } else if (key === "_offset") {
      query.offset = parseCount(key, value, 0);
    } else if (key === "_sort") {
      query.sort = value.split(",").map((part) => {
        const [field = "", direction, ...extra] = part.split(":");
        assertFieldName(field, "sort");
        if (extra.length > 0 || (direction !== undefined && direction !== "asc" && direction !== "desc")) {
          throw new Error(`Invalid _sort criterion ${JSON.stringify(part)}: expected field[:asc|:desc]`);
        }
        return direction === undefined ? { field } : { field, direction };
      });
    } else {
      const separator = key.lastIndexOf("__");
      const suffix = separator > 0 ? key.slice(separator + 2) : "";
      const field = separator > 0 ? key.slice(0, separator) : key;
      if (separator > 0 && suffix !== "eq" && !OPERATOR_SUFFIXES.has(suffix)) {
        throw new Error(`Invalid list parameter ${key}: unknown operator __${suffix}`);
      }
      assertFieldName(field, "filter");
      const op = (separator > 0 ? suffix : "eq") as FilterOperator;
      query.filters.push(op === "in" ? { field, op, value: value.split(",") } : { field, op, value });
    }
  }
  return query;
}

/** A link of `meta.links`, read. */
export interface ListLink {
  /** The path before `?` (e.g. "/v1.0/marketplace/orders"), or null for a bare query string. */
  path: string | null;
  offset: number;
  limit: number;
  /** Every other parameter (filters, `_sort`), as given, to request the same list. */
  params: URLSearchParams;
}

const DEFAULT_LIMIT = 50;
const DEFAULT_OFFSET = 0;

/**
 * Reads `meta.links.previous`/`self`/`next`: "relative query strings or paths carrying _offset
 * and _limit" (spec: 9. List orders), e.g. "?_offset=50&_limit=50" or
 * "/v1.0/marketplace/orders?_offset=50&_limit=50". An absolute URL is read too. A missing
 * `_offset` or `_limit` takes its documented default (Limits: 0 and 50).
 *
 * @throws Error when `_offset` or `_limit` is present but not a valid integer.
 */
export function parseListLink(link: string): ListLink {
  const trimmed = link.trim();
  const queryAt = trimmed.indexOf("?");
  let pathPart: string;
  let search: string;
  if (queryAt >= 0) {
    pathPart = trimmed.slice(0, queryAt);
    search = trimmed.slice(queryAt + 1);
  } else if (trimmed.includes("=") && !trimmed.includes("/")) {
    // "_offset=50&_limit=50": a query string that lost its "?".
    pathPart = "";
    search = trimmed;
  } else {
    pathPart = trimmed;
    search = "";
  }
  const hashAt = search.indexOf("#");
  if (hashAt >= 0) search = search.slice(0, hashAt);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(pathPart)) pathPart = new URL(pathPart).pathname;

  const params = new URLSearchParams(search);
  const limitText = params.get("_limit");
  const offsetText = params.get("_offset");
  params.delete("_limit");
  params.delete("_offset");
  return {
    path: pathPart === "" ? null : pathPart,
    offset: offsetText === null ? DEFAULT_OFFSET : parseCount("_offset", offsetText, 0),
    limit: limitText === null ? DEFAULT_LIMIT : parseCount("_limit", limitText, 1),
    params,
  };
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
