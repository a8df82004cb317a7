// Spec: Generic list rules, Limits. Shared by the dashboard and the sandbox, and pure: browser code
// imports it. `read…` never throws, so each side words its own errors; `format…`/`parse…` throw on
// anything the platform could misread.
import type { ListOperator } from "./schemas/list";

export type PageParameter = "_limit" | "_offset";

export const DEFAULT_LIMIT = 50;
export const DEFAULT_OFFSET = 0;

/** Limits' example maximum; each response reports its own `max_limit`. The sandbox clamps larger ones. */
export const MAX_LIMIT = 200;

export const PAGE_MINIMUM: Readonly<Record<PageParameter, number>> = { _limit: 1, _offset: 0 };

/** Decimal digits only (no sign, fraction or exponent), else null. */
export function readCount(text: string): number | null {
  return /^\d+$/.test(text) ? Number(text) : null;
}

export function isValidCount(parameter: PageParameter, value: number): boolean {
  return Number.isSafeInteger(value) && value >= PAGE_MINIMUM[parameter];
}

function assertCount(parameter: PageParameter, value: number): void {
  if (!isValidCount(parameter, value)) {
    const [name, expected] = parameter === "_limit" ? ["limit", "a positive integer"] : ["offset", "a non-negative integer"];
    throw new Error(`Invalid list ${name} ${value}: expected ${expected}`);
  }
}

export function parseCount(parameter: PageParameter, text: string): number {
  const value = readCount(text);
  if (value === null) throw new Error(`Invalid ${parameter} ${JSON.stringify(text)}: expected an integer`);
  assertCount(parameter, value);
  return value;
}

// Point 3: lower case, dotted paths. No leading or double underscore: they would collide with
// `_limit`/`_sort` and with the `__operator` suffix the platform splits on.
const FIELD_PATTERN = /^[a-z0-9]+(?:_[a-z0-9]+)*(?:\.[a-z0-9]+(?:_[a-z0-9]+)*)*$/;

/** The dashboard's check; the sandbox knows its fields from the wire schemas and refuses others. */
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

/** The generic rules' seven, plus `ge`/`le`: endpoint 9 spells its date range `updated_at__ge`/`__le`. */
export type FilterOperator = ListOperator | "ge" | "le";

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

/** `Object.hasOwn`, not `in`: `__constructor` must not pass for an operator. */
export function isFilterOperator(suffix: string): suffix is FilterOperator {
  return Object.hasOwn(OPERATOR_MEANINGS, suffix);
}

export function operatorMeaning(operator: FilterOperator): ListOperator {
  return OPERATOR_MEANINGS[operator];
}

const OPERATOR_SEPARATOR = "__";

export type FilterNameReading =
  | { field: string; operator: FilterOperator }
  /** `field__suffix` whose suffix is no operator. */
  | { field: string; operator: null; suffix: string };

/** Splits at the last `__`; no suffix (or a leading `__`) is `eq`. Field names are not checked here. */
export function readFilterName(name: string): FilterNameReading {
  const separator = name.lastIndexOf(OPERATOR_SEPARATOR);
  if (separator <= 0) return { field: name, operator: "eq" };
  const field = name.slice(0, separator);
  const suffix = name.slice(separator + OPERATOR_SEPARATOR.length);
  return isFilterOperator(suffix) ? { field, operator: suffix } : { field, operator: null, suffix };
}

export function formatFilterName(field: string, operator: FilterOperator): string {
  return operator === "eq" ? field : `${field}${OPERATOR_SEPARATOR}${operator}`;
}

export type FilterValue = string | number | boolean | Date;

/** Dates as ISO 8601 in UTC with milliseconds, like the order timestamps. */
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

// The spec offers no escape, so a comma inside an `__in` value would silently become two values.
const IN_SEPARATOR = ",";

export function splitInValues(text: string): string[] {
  return text.split(IN_SEPARATOR);
}

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

export function splitSort(value: string): string[] {
  return value.split(",");
}

/** Field names are not checked here. */
export function readSortCriterion(text: string): SortCriterionReading {
  const [field = "", direction, ...rest] = text.split(":");
  if (field === "" || rest.length > 0) return { ok: false, field, problem: "malformed" };
  if (direction === undefined) return { ok: true, criterion: { field } };
  if (direction !== "asc" && direction !== "desc") return { ok: false, field, problem: "direction" };
  return { ok: true, criterion: { field, direction } };
}

/** Always with a direction: endpoint 9 lists only `field:direction` spellings as valid. Throws on a repeated field. */
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

export function parseSort(value: string): SortCriterion[] {
  return splitSort(value).map((text) => {
    const reading = readSortCriterion(text);
    assertFieldName(reading.ok ? reading.criterion.field : reading.field, "sort");
    if (!reading.ok) throw new Error(`Invalid _sort criterion ${JSON.stringify(text)}: expected field[:asc|:desc]`);
    return reading.criterion;
  });
}

export type ListFilter<F extends string = string> =
  { field: F; op: Exclude<FilterOperator, "in">; value: FilterValue } | { field: F; op: "in"; value: readonly FilterValue[] };

export interface ListQuery<F extends string = string> {
  limit?: number;
  offset?: number;
  sort?: readonly SortCriterion<F>[];
  /** Combined with AND (Generic list rules, point 4). */
  filters?: readonly ListFilter<F>[];
}

/**
 * In a stable order, so the string can serve as a cache key. Throws on anything the platform could
 * misread, including a repeated filter (the platform rejects repeated parameters).
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

/** `formatListQuery(parseListQuery(params))` reproduces `params`; values come back as strings. */
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

export interface ListLink {
  /** The path before `?` (e.g. "/v1.0/marketplace/orders"), or null for a bare query string. */
  path: string | null;
  offset: number;
  limit: number;
  params: URLSearchParams;
}

export function formatListLink(path: string, params: Iterable<readonly [string, string]>, page: { limit: number; offset: number }): string {
  const search = new URLSearchParams([...params].map(([key, value]) => [key, value]));
  search.set("_limit", String(page.limit));
  search.set("_offset", String(page.offset));
  return `${path}?${search.toString()}`;
}

/** Spec 9: "relative query strings or paths"; absolute URLs too. Missing counts take Limits' defaults. */
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
