// The grammar of list queries (spec: Endpoints → Generic list rules; 7. List prices; 9. List
// orders; Limits), written once for both sides: the dashboard writes queries and reads
// `meta.links` with it (list-query.ts), the sandbox reads queries and writes links with it
// (sandbox/list-query.ts). Pure, no Node APIs: browser code imports it too.
//
// Two kinds of function. `read…` functions say what a piece of text is, or what is wrong with
// it, without throwing, so that each side words its own errors (the sandbox answers 400
// `invalid_query` naming the parameter). `format…` and `parse…` functions are the dashboard's
// strict forms: they throw an Error on anything the platform could misread.
import type { ListOperator } from "./schemas/list";

// ---------------------------------------------------------------------------------------------
// Page: `_limit` and `_offset` (point 1; Limits)

export type PageParameter = "_limit" | "_offset";

export const DEFAULT_LIMIT = 50;
export const DEFAULT_OFFSET = 0;

/**
 * The largest page. Each list response reports its own in `meta.page.max_limit`; Limits: "a
 * demonstration of the rules assumes default 50 and maximum 200". What the platform does with a
 * larger `_limit` is not shown; the sandbox clamps it.
 */
export const MAX_LIMIT = 200;

/** A page holds at least one record; `_offset` is zero-based. */
export const PAGE_MINIMUM: Readonly<Record<PageParameter, number>> = { _limit: 1, _offset: 0 };

/** A `_limit`/`_offset` value as written: decimal digits only (no sign, fraction or exponent), else null. */
export function readCount(text: string): number | null {
  return /^\d+$/.test(text) ? Number(text) : null;
}

/** Whether `value` is a valid `_limit` (a positive integer) or `_offset` (a non-negative integer). */
export function isValidCount(parameter: PageParameter, value: number): boolean {
  return Number.isSafeInteger(value) && value >= PAGE_MINIMUM[parameter];
}

function assertCount(parameter: PageParameter, value: number): void {
  if (!isValidCount(parameter, value)) {
    const [name, expected] = parameter === "_limit" ? ["limit", "a positive integer"] : ["offset", "a non-negative integer"];
    throw new Error(`Invalid list ${name} ${value}: expected ${expected}`);
  }
}

/** Reads a `_limit`/`_offset` value; throws an Error when it is not a valid count. */
export function parseCount(parameter: PageParameter, text: string): number {
  const value = readCount(text);
  if (value === null) throw new Error(`Invalid ${parameter} ${JSON.stringify(text)}: expected an integer`);
  assertCount(parameter, value);
  return value;
}

// ---------------------------------------------------------------------------------------------
// Field names (point 3)

// Segments of lower-case letters and digits joined by single underscores, and segments joined
// by dots ("field name in lower case; nested fields use the dotted path"). A leading underscore
// would collide with `_limit`/`_offset`/`_sort`, and a double underscore with the `__operator`
// suffix the platform splits on, so neither is allowed.
const FIELD_PATTERN = /^[a-z0-9]+(?:_[a-z0-9]+)*(?:\.[a-z0-9]+(?:_[a-z0-9]+)*)*$/;

/**
 * Whether the dashboard may write `field` as a filter or sort field. The sandbox does not use
 * this: it knows its fields (derived from the wire schemas) and refuses any other name.
 */
export function isFieldName(field: string): boolean {
  return FIELD_PATTERN.test(field);
}

function assertFieldName(field: string, where: "filter" | "sort"): void {
  if (!isFieldName(field)) {
    throw new Error(
      `Invalid ${where} field ${JSON.stringify(field)}: use lower-case [a-z0-9_] segments joined by dots, such as "customer.name"`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Filters: `field`, `field__operator` (point 3)

/**
 * The seven operators of the generic rules, plus `ge`/`le`: endpoint 9 spells its date range
 * `updated_at__ge` / `updated_at__le` rather than `__gte` / `__lte`.
 */
export type FilterOperator = ListOperator | "ge" | "le";

/** Every operator suffix and the operator of the generic rules it means (the one a response reports). */
const OPERATOR_MEANINGS: Readonly<Record<FilterOperator, ListOperator>> = {
  eq: "eq",
  like: "like",
  in: "in",
  gt: "gt",
  gte: "gte",
  ge: "gte",
  lt: "lt",
  lte: "lte",
  le: "lte",
};

export const FILTER_OPERATORS = Object.keys(OPERATOR_MEANINGS) as readonly FilterOperator[];

/**
 * Whether `suffix` is an operator. `Object.hasOwn`, not `in`: a suffix such as `__constructor`
 * or `__toString` must not find Object.prototype's members and pass for an operator.
 */
export function isFilterOperator(suffix: string): suffix is FilterOperator {
  return Object.hasOwn(OPERATOR_MEANINGS, suffix);
}

/** `ge` → `gte`, `le` → `lte`; every other operator means itself. */
export function operatorMeaning(operator: FilterOperator): ListOperator {
  return OPERATOR_MEANINGS[operator];
}

const OPERATOR_SEPARATOR = "__";

export type FilterNameReading =
  | { field: string; operator: FilterOperator }
  /** `field__suffix` whose suffix is no operator. */
  | { field: string; operator: null; suffix: string };

/**
 * Splits a filter parameter's name at its last `__`: `customer.name__like` → field
 * `customer.name`, operator `like`; a name without a suffix (or starting with `__`) is `eq`.
 * Field names are not checked here.
 */
export function readFilterName(name: string): FilterNameReading {
  const separator = name.lastIndexOf(OPERATOR_SEPARATOR);
  if (separator <= 0) return { field: name, operator: "eq" };
  const field = name.slice(0, separator);
  const suffix = name.slice(separator + OPERATOR_SEPARATOR.length);
  return isFilterOperator(suffix) ? { field, operator: suffix } : { field, operator: null, suffix };
}

/** The parameter name of a filter: the bare field for `eq`, `field__operator` otherwise. */
export function formatFilterName(field: string, operator: FilterOperator): string {
  return operator === "eq" ? field : `${field}${OPERATOR_SEPARATOR}${operator}`;
}

export type FilterValue = string | number | boolean | Date;

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

// `__in` values are comma separated and the spec offers no escape, so a comma inside a value
// would silently become two values.
const IN_SEPARATOR = ",";

/** The values of an `__in` filter, as written (empty values included). */
export function splitInValues(text: string): string[] {
  return text.split(IN_SEPARATOR);
}

// ---------------------------------------------------------------------------------------------
// Sorting: `_sort=field[:asc|:desc][,field...]` (point 2)

export type SortDirection = "asc" | "desc";

export interface SortCriterion<F extends string = string> {
  field: F;
  /** Ascending when omitted (Generic list rules, point 2). */
  direction?: SortDirection;
}

export type SortCriterionReading =
  | { ok: true; criterion: SortCriterion }
  /** `malformed`: no field name, or more than one `:`; `direction`: neither asc nor desc. */
  | { ok: false; field: string; problem: "malformed" | "direction" };

/** The criteria of a `_sort` value, as written, left to right. */
export function splitSort(value: string): string[] {
  return value.split(",");
}

/** Reads one criterion (`created_at`, `created_at:desc`). Field names are not checked here. */
export function readSortCriterion(text: string): SortCriterionReading {
  const [field = "", direction, ...rest] = text.split(":");
  if (field === "" || rest.length > 0) return { ok: false, field, problem: "malformed" };
  if (direction === undefined) return { ok: true, criterion: { field } };
  if (direction !== "asc" && direction !== "desc") return { ok: false, field, problem: "direction" };
  return { ok: true, criterion: { field, direction } };
}

/**
 * Writes `_sort`, always with a direction: the bare form means asc (point 2), but endpoint 9
 * lists only the four `field:direction` spellings as valid values.
 *
 * @throws Error on an invalid field name or the same field twice.
 */
export function formatSort(criteria: readonly SortCriterion[]): string {
  const seen = new Set<string>();
  return criteria
    .map(({ field, direction }) => {
      assertFieldName(field, "sort");
      if (seen.has(field)) throw new Error(`Sort field ${field} is given twice`);
      seen.add(field);
      return `${field}:${direction ?? "asc"}`;
    })
    .join(",");
}

/** Reads `_sort`; a criterion without direction comes back without one. */
export function parseSort(value: string): SortCriterion[] {
  return splitSort(value).map((text) => {
    const reading = readSortCriterion(text);
    assertFieldName(reading.ok ? reading.criterion.field : reading.field, "sort");
    if (!reading.ok) throw new Error(`Invalid _sort criterion ${JSON.stringify(text)}: expected field[:asc|:desc]`);
    return reading.criterion;
  });
}

// ---------------------------------------------------------------------------------------------
// Whole queries

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

/**
 * Writes the query of a list request, e.g.
 * `formatListQuery({ limit: 50, offset: 100, sort: [{ field: "created_at", direction: "desc" }],
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
export function formatListQuery<F extends string>(query: ListQuery<F>): URLSearchParams {
  const params = new URLSearchParams();

  for (const filter of query.filters ?? []) {
    assertFieldName(filter.field, "filter");
    const name = formatFilterName(filter.field, filter.op);
    if (params.has(name)) throw new Error(`Filter ${name} is given twice; combine the values or use __in`);
    if (filter.op === "in") {
      if (filter.value.length === 0) throw new Error(`Filter ${name} needs at least one value`);
      const values = filter.value.map(formatFilterValue);
      const withComma = values.find((value) => value.includes(IN_SEPARATOR));
      if (withComma !== undefined) throw new Error(`Filter ${name} value ${JSON.stringify(withComma)} contains a comma`);
      params.append(name, values.join(IN_SEPARATOR));
    } else {
      params.append(name, formatFilterValue(filter.value));
    }
  }

  if (query.sort && query.sort.length > 0) params.set("_sort", formatSort(query.sort));

  if (query.limit !== undefined) {
    assertCount("_limit", query.limit);
    params.set("_limit", String(query.limit));
  }
  if (query.offset !== undefined) {
    assertCount("_offset", query.offset);
    params.set("_offset", String(query.offset));
  }
  return params;
}

/**
 * Reads list parameters back into a `ListQuery` (values come back as strings, `__in` values
 * split on commas), so that `formatListQuery(parseListQuery(params))` reproduces them.
 * An explicit `field__eq` is read as `eq`. Unknown `_` parameters are refused.
 */
export function parseListQuery(params: URLSearchParams): ListQuery {
  const query: { limit?: number; offset?: number; sort?: SortCriterion[]; filters: ListFilter[] } = { filters: [] };
  for (const [key, value] of params) {
    if (key === "_limit" || key === "_offset") {
      query[key === "_limit" ? "limit" : "offset"] = parseCount(key, value);
    } else if (key === "_sort") {
      query.sort = parseSort(value);
    } else {
      const name = readFilterName(key);
      if (name.operator === null) throw new Error(`Invalid list parameter ${key}: unknown operator __${name.suffix}`);
      assertFieldName(name.field, "filter");
      const { field, operator: op } = name;
      query.filters.push(op === "in" ? { field, op, value: splitInValues(value) } : { field, op, value });
    }
  }
  return query;
}

// ---------------------------------------------------------------------------------------------
// Links of `meta.links` (point 5; endpoint 9)

/** A link of `meta.links`, read. */
export interface ListLink {
  /** The path before `?` (e.g. "/v1.0/marketplace/orders"), or null for a bare query string. */
  path: string | null;
  offset: number;
  limit: number;
  /** Every other parameter (filters, `_sort`), as given, to request the same list. */
  params: URLSearchParams;
}

/**
 * Writes a link of `meta.links`: the path, the list's other parameters as given, then `_limit`
 * and `_offset` (e.g. "/v1.0/marketplace/orders?status=new&_limit=50&_offset=100").
 */
export function formatListLink(
  path: string,
  params: Iterable<readonly [string, string]>,
  page: { limit: number; offset: number },
): string {
  const search = new URLSearchParams([...params].map(([key, value]) => [key, value]));
  search.set("_limit", String(page.limit));
  search.set("_offset", String(page.offset));
  return `${path}?${search.toString()}`;
}

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
    offset: offsetText === null ? DEFAULT_OFFSET : parseCount("_offset", offsetText),
    limit: limitText === null ? DEFAULT_LIMIT : parseCount("_limit", limitText),
    params,
  };
}
