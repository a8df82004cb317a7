// The spec's generic list rules (Endpoints → Generic list rules; Limits), checked against a list's
// fields and run in memory over the shared grammar (decision 0006 says why, and how it caches).
// Strict by default: where the spec names an endpoint's allowed forms, anything else is refused.
import type { z } from "zod";
import {
  DEFAULT_LIMIT,
  DEFAULT_OFFSET,
  MAX_LIMIT,
  PAGE_MINIMUM,
  formatListLink,
  isValidCount,
  operatorMeaning,
  readCount,
  readFilterName,
  readSortCriterion,
  splitInValues,
  splitSort,
  type FilterOperator,
  type PageParameter,
  type SortDirection,
} from "@marketplace/api/list-grammar";
import type { AppliedFilter, AppliedSort, ListEnvelope, ListOperator } from "@marketplace/api/schemas/list";
import { SandboxHttpError } from "./errors";
import { schemaFields, type FieldKind, type FieldStep } from "./schema-fields";

export interface FieldInfo {
  path: string;
  kind: FieldKind;
  enumValues?: readonly string[];
  /** True when the path goes through an array: the getter then returns every reached value. */
  multi: boolean;
  get: (record: unknown) => unknown;
}

export type FieldCatalogue = ReadonlyMap<string, FieldInfo>;

// ---------------------------------------------------------------------------------------------
// Field catalogue from a zod schema: every scalar leaf becomes a filterable field
// (schema-fields.ts), read through a getter made once per field.

function makeGetter(steps: readonly FieldStep[]): (record: unknown) => unknown {
  if (!steps.some((step) => step.array)) {
    const keys = steps.map((step) => step.key);
    if (keys.length === 1) {
      const [a] = keys as [string];
      return (record) => (record as Record<string, unknown> | null)?.[a];
    }
    if (keys.length === 2) {
      const [a, b] = keys as [string, string];
      return (record) => (record as Record<string, Record<string, unknown> | null> | null)?.[a]?.[b];
    }
    return (record) => {
      let value: unknown = record;
      for (const key of keys) {
        if (value === null || typeof value !== "object") return undefined;
        value = (value as Record<string, unknown>)[key];
      }
      return value;
    };
  }
  return (record) => {
    const out: unknown[] = [];
    const walk = (value: unknown, index: number): void => {
      if (index === steps.length) {
        if (value !== undefined && value !== null) out.push(value);
        return;
      }
      if (value === null || typeof value !== "object") return;
      const step = steps[index] as FieldStep;
      const next = (value as Record<string, unknown>)[step.key];
      if (step.array) {
        if (Array.isArray(next)) for (const element of next) walk(element, index + 1);
      } else walk(next, index + 1);
    };
    walk(record, 0);
    return out;
  };
}

export function fieldCatalogueFromSchema(schema: z.ZodType): FieldCatalogue {
  const fields = new Map<string, FieldInfo>();
  for (const { steps, ...field } of schemaFields(schema)) fields.set(field.path, { ...field, get: makeGetter(steps) });
  return fields;
}

// ---------------------------------------------------------------------------------------------
// Parsing: the grammar's readings, checked against the catalogue, worded as 400 invalid_query

export interface SortCriterion {
  field: FieldInfo;
  direction: SortDirection;
}

export interface Filter {
  field: FieldInfo;
  operator: ListOperator;
  value: string | string[];
  /** Whether one value of the field satisfies the filter. */
  match: (value: unknown) => boolean;
  /** For `eq` and `__in`: the values a record's field must equal (one of), as parsed. */
  equalsOneOf?: ReadonlySet<string | number | boolean>;
}

/**
 * What the spec names for one endpoint beyond the generic rules, e.g. 7. List prices "Sortable
 * field: created_at"; 9. List orders `_sort` "One of created_at:asc, …" and `updated_at__ge`/`__le`.
 */
export interface EndpointListRules {
  /** How each `_sort` criterion may be written (a bare field only where it is listed bare). */
  sortCriteria: readonly string[];
  /** Fields whose range the endpoint spells `__ge`/`__le`; anywhere else only `__gte`/`__lte` exist. */
  geLeFields: readonly string[];
}

export interface ListSpec {
  /** Path of the endpoint, used to build `meta.links`. */
  path: string;
  fields: FieldCatalogue;
  defaultSort: { field: string; direction: SortDirection }[];
  /** The source's records are kept in ascending order of this field: sorting on it is free. */
  naturalOrder?: string;
  /** Held unless lenient; a list without rules takes every form of the generic rules (and `__eq`). */
  rules?: EndpointListRules;
}

export interface ListOptions {
  /** SANDBOX_LENIENT: ignore `spec.rules` and accept `__eq`. */
  lenient?: boolean;
}

const LENIENT_HINT = "SANDBOX_LENIENT=1 accepts it";

export interface ListQuery {
  limit: number;
  offset: number;
  sort: SortCriterion[];
  filters: Filter[];
  /** Parameters other than `_limit`/`_offset`, in the order given, for links. */
  carried: [string, string][];
}

function invalid(parameter: string, message: string): SandboxHttpError {
  return new SandboxHttpError(400, "invalid_query", `Query parameter ${parameter}: ${message}`, { parameter });
}

function parseCount(parameter: PageParameter, raw: string): number {
  const value = readCount(raw);
  if (value === null || !isValidCount(parameter, value)) {
    throw invalid(parameter, `must be an integer of at least ${PAGE_MINIMUM[parameter]}`);
  }
  return value;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** Parses one filter operand by the field's kind; datetimes become canonical ISO strings. */
function parseOperand(parameter: string, field: FieldInfo, raw: string): string | number | boolean {
  switch (field.kind) {
    case "number": {
      if (!/^-?\d+(\.\d+)?$/.test(raw)) throw invalid(parameter, `${JSON.stringify(raw)} is not a number`);
      return Number(raw);
    }
    case "boolean":
      if (raw !== "true" && raw !== "false") throw invalid(parameter, "must be true or false");
      return raw === "true";
    case "datetime": {
      const ms = ISO_DATE.test(raw) || ISO_DATETIME.test(raw) ? Date.parse(raw) : Number.NaN;
      if (Number.isNaN(ms)) throw invalid(parameter, `${JSON.stringify(raw)} is not an ISO 8601 date or datetime`);
      return new Date(ms).toISOString();
    }
    case "date":
      if (!ISO_DATE.test(raw) || Number.isNaN(Date.parse(raw))) throw invalid(parameter, `${JSON.stringify(raw)} is not a date YYYY-MM-DD`);
      return raw;
    case "enum": {
      // The catalogue's own string: equal literals are one interned string, compared by pointer.
      const canonical = field.enumValues?.find((value) => value === raw);
      if (canonical === undefined) throw invalid(parameter, `must be one of ${field.enumValues?.join(", ")}`);
      return canonical;
    }
    default:
      return raw;
  }
}

// Partial matches ignore case and accents ("joao" finds "João"); folded strings are memoised
// because record values repeat a lot (names, cities) and folding is the costly part of a scan.
const foldMemo = new Map<string, string>();
export function fold(value: string): string {
  let folded = foldMemo.get(value);
  if (folded === undefined) {
    folded = value
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase();
    if (foldMemo.size > 500_000) foldMemo.clear();
    foldMemo.set(value, folded);
  }
  return folded;
}

function compileFilter(parameter: string, field: FieldInfo, operator: ListOperator, raw: string): Filter {
  let match: (value: unknown) => boolean;
  let reported: string | string[] = raw;
  let equalsOneOf: Set<string | number | boolean> | undefined;
  if (operator === "like") {
    if (field.kind === "number" || field.kind === "boolean") throw invalid(parameter, `__like applies to text fields, not ${field.kind}`);
    if (raw === "" || raw.includes("\u0000")) throw invalid(parameter, "must be a non-empty text");
    const needle = fold(raw);
    match = (value) => typeof value === "string" && fold(value).includes(needle);
  } else if (operator === "in") {
    const parts = splitInValues(raw);
    if (raw === "" || parts.some((part) => part === "")) throw invalid(parameter, "must be a comma-separated list of values");
    const set = new Set(parts.map((part) => parseOperand(parameter, field, part)));
    reported = parts;
    match = (value) => set.has(value as string | number | boolean);
    equalsOneOf = set;
  } else if (operator === "eq") {
    const operand = parseOperand(parameter, field, raw);
    match = (value) => value === operand;
    equalsOneOf = new Set([operand]);
  } else {
    if (field.kind === "boolean") throw invalid(parameter, `__${operator} does not apply to a boolean field`);
    const operand = parseOperand(parameter, field, raw);
    match =
      operator === "gt"
        ? (value) => value !== null && value !== undefined && (value as string | number) > operand
        : operator === "gte"
          ? (value) => value !== null && value !== undefined && (value as string | number) >= operand
          : operator === "lt"
            ? (value) => value !== null && value !== undefined && (value as string | number) < operand
            : (value) => value !== null && value !== undefined && (value as string | number) <= operand;
  }
  return equalsOneOf ? { field, operator, value: reported, match, equalsOneOf } : { field, operator, value: reported, match };
}

function parseSort(raw: string, spec: ListSpec, rules: EndpointListRules | null): SortCriterion[] {
  const criteria: SortCriterion[] = [];
  for (const part of splitSort(raw)) {
    const reading = readSortCriterion(part);
    if (!reading.ok) {
      throw invalid(
        "_sort",
        reading.problem === "malformed"
          ? `${JSON.stringify(part)} is not field[:asc|:desc]`
          : `direction of ${reading.field} must be asc or desc`,
      );
    }
    const { field: name, direction = "asc" } = reading.criterion;
    const field = spec.fields.get(name);
    if (!field) throw invalid("_sort", `unknown field ${name}`);
    if (field.multi) throw invalid("_sort", `${name} holds several values per record and cannot be sorted on`);
    if (rules) {
      if (!rules.sortCriteria.includes(part)) {
        throw invalid(
          "_sort",
          `${JSON.stringify(part)} is not one of the criteria this list takes: ${rules.sortCriteria.join(", ")} (${LENIENT_HINT})`,
        );
      }
      if (criteria.some((criterion) => criterion.field === field)) throw invalid("_sort", `${name} is given twice (${LENIENT_HINT})`);
    }
    criteria.push({ field, direction });
  }
  return criteria;
}

/** The form of an operator the spec does not write for this field, or null when it does. */
function offSpecOperator(key: string, name: { field: string; operator: FilterOperator }, rules: EndpointListRules): string | null {
  if (name.operator === "eq" && key !== name.field)
    return `the spec writes an exact match as ${name.field}=value, never __eq (${LENIENT_HINT})`;
  if ((name.operator === "ge" || name.operator === "le") && !rules.geLeFields.includes(name.field)) {
    const where = rules.geLeFields.length === 0 ? "this list has none" : `this list spells them only on ${rules.geLeFields.join(", ")}`;
    return `__${name.operator} is not a form of the generic rules (${where}): use __${name.operator === "ge" ? "gte" : "lte"} (${LENIENT_HINT})`;
  }
  return null;
}

export function parseListQuery(params: URLSearchParams, spec: ListSpec, options: ListOptions = {}): ListQuery {
  const rules = options.lenient ? null : (spec.rules ?? null);
  const seen = new Set<string>();
  let limit = DEFAULT_LIMIT;
  let offset = DEFAULT_OFFSET;
  let sort: SortCriterion[] | null = null;
  const filters: Filter[] = [];
  const carried: [string, string][] = [];
  for (const [key, value] of params) {
    if (seen.has(key)) throw invalid(key, "is given more than once");
    seen.add(key);
    if (key === "_limit") {
      limit = Math.min(parseCount(key, value), MAX_LIMIT);
      continue;
    }
    if (key === "_offset") {
      offset = parseCount(key, value);
      continue;
    }
    carried.push([key, value]);
    if (key === "_sort") {
      sort = parseSort(value, spec, rules);
      continue;
    }
    // With an unknown suffix, the whole name is taken for the field (and then named in the error).
    const name = readFilterName(key);
    const fieldName = name.operator === null ? key : name.field;
    const field = spec.fields.get(fieldName);
    if (!field) {
      const knownField = name.operator === null && spec.fields.has(name.field);
      throw invalid(key, knownField ? `unknown operator __${name.suffix}` : `unknown field ${fieldName}`);
    }
    if (rules && name.operator !== null) {
      const problem = offSpecOperator(key, name, rules);
      if (problem !== null) throw invalid(key, problem);
    }
    filters.push(compileFilter(key, field, name.operator === null ? "eq" : operatorMeaning(name.operator), value));
  }
  const effectiveSort =
    sort ??
    spec.defaultSort.map(({ field, direction }) => {
      const info = spec.fields.get(field);
      if (!info) throw new Error(`default sort field ${field} is not in the catalogue`);
      return { field: info, direction };
    });
  return { limit, offset, sort: effectiveSort, filters, carried };
}

// ---------------------------------------------------------------------------------------------
// Running: records of a big list are scattered over the heap, so a query scans per-version cached
// columns, views and bitmaps instead, and touches only the records of its page.

export interface ListSource<T> {
  items: readonly T[];
  version: number;
}

interface SourceCache {
  version: number;
  columns: Map<string, unknown[]>;
  foldedText: Map<string, { text: string; starts: Int32Array }>;
  views: Map<string, Int32Array>;
  ranks: Map<string, Int32Array>;
  filters: Map<string, Matches>;
  /** Per single-valued field: the position (natural order) of the record holding each value, or the positions when several do. */
  positions: Map<string, Map<unknown, number | number[]>>;
}

const sourceCaches = new WeakMap<object, SourceCache>();

function cacheFor(source: ListSource<unknown>): SourceCache {
  let cache = sourceCaches.get(source);
  if (!cache || cache.version !== source.version) {
    cache = {
      version: source.version,
      columns: new Map(),
      foldedText: new Map(),
      views: new Map(),
      ranks: new Map(),
      filters: new Map(),
      positions: new Map(),
    };
    sourceCaches.set(source, cache);
  }
  return cache;
}

function column(source: ListSource<unknown>, cache: SourceCache, field: FieldInfo): unknown[] {
  let values = cache.columns.get(field.path);
  if (!values) {
    values = source.items.map((item) => field.get(item));
    cache.columns.set(field.path, values);
  }
  return values;
}

/** So that `eq` and `__in` (the dashboard's processing asks `id__in` with 50 ids) touch only their matches. */
function valuePositions(source: ListSource<unknown>, cache: SourceCache, field: FieldInfo): Map<unknown, number | number[]> {
  let positions = cache.positions.get(field.path);
  if (!positions) {
    // A number while one record holds the value (ids: no array per record), an array from the second.
    positions = new Map();
    const values = column(source, cache, field);
    for (let i = 0; i < values.length; i++) {
      const at = positions.get(values[i]);
      if (at === undefined) positions.set(values[i], i);
      else if (typeof at === "number") positions.set(values[i], [at, i]);
      else at.push(i);
    }
    cache.positions.set(field.path, positions);
  }
  return positions;
}

/** Every folded value of a single-valued text field joined by NUL, with each record's start offset. */
function foldedText(source: ListSource<unknown>, cache: SourceCache, field: FieldInfo): { text: string; starts: Int32Array } {
  let entry = cache.foldedText.get(field.path);
  if (!entry) {
    const values = column(source, cache, field);
    const starts = new Int32Array(values.length);
    const parts: string[] = new Array<string>(values.length);
    let offset = DEFAULT_OFFSET;
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      const folded = typeof value === "string" ? fold(value) : "";
      starts[i] = offset;
      parts[i] = folded;
      offset += folded.length + 1;
    }
    entry = { text: parts.join("\u0000"), starts };
    cache.foldedText.set(field.path, entry);
  }
  return entry;
}

/** Marks the records whose folded value contains `needle`: one indexOf pass over the joined text. */
function likeBitmap(source: ListSource<unknown>, cache: SourceCache, field: FieldInfo, needle: string): Uint8Array {
  const { text, starts } = foldedText(source, cache, field);
  const bitmap = new Uint8Array(starts.length);
  let position = text.indexOf(needle);
  while (position !== -1) {
    // Binary search for the record whose text contains `position`.
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if ((starts[middle] as number) <= position) low = middle;
      else high = middle - 1;
    }
    bitmap[low] = 1;
    position = text.indexOf(needle, low + 1 < starts.length ? (starts[low + 1] as number) : text.length);
  }
  return bitmap;
}

function compareKeys(a: unknown, b: unknown): number {
  // Missing values sort first in ascending order.
  const aMissing = a === null || a === undefined;
  const bMissing = b === null || b === undefined;
  if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? -1 : 1;
  return (a as string | number) < (b as string | number) ? -1 : (a as string | number) > (b as string | number) ? 1 : 0;
}

/** Indices into `source.items` in the query's order; stable, ties keep the natural order. */
function sortedView(source: ListSource<unknown>, cache: SourceCache, sort: readonly SortCriterion[], spec: ListSpec): Int32Array {
  const key = sort.map((criterion) => `${criterion.field.path}:${criterion.direction}`).join(",");
  let view = cache.views.get(key);
  if (view) return view;
  const n = source.items.length;
  view = new Int32Array(n);
  const [first] = sort;
  if (sort.length === 1 && first && first.field.path === spec.naturalOrder) {
    for (let i = 0; i < n; i++) view[i] = first.direction === "asc" ? i : n - 1 - i;
  } else {
    const keys = sort.map((criterion) => column(source, cache, criterion.field));
    const signs = sort.map((criterion) => (criterion.direction === "asc" ? 1 : -1));
    const order = Array.from({ length: n }, (_, index) => index);
    order.sort((a, b) => {
      for (let i = 0; i < keys.length; i++) {
        const values = keys[i] as unknown[];
        const result = compareKeys(values[a], values[b]);
        if (result !== 0) return result * (signs[i] as number);
      }
      return a - b;
    });
    view.set(order);
  }
  cache.views.set(key, view);
  return view;
}

interface Matches {
  bitmap: Uint8Array;
  count: number;
}

/** One sequential pass over the field's column (natural order): 1 where the record matches. Cached per source version. */
function filterMatches(source: ListSource<unknown>, cache: SourceCache, filter: Filter): Matches {
  const key = `${filter.field.path}\u0000${filter.operator}\u0000${String(filter.value)}`;
  const cached = cache.filters.get(key);
  if (cached) return cached;
  let bitmap: Uint8Array;
  if (filter.operator === "like" && !filter.field.multi && typeof filter.value === "string") {
    bitmap = likeBitmap(source, cache, filter.field, fold(filter.value));
  } else if (filter.equalsOneOf && !filter.field.multi) {
    const positions = valuePositions(source, cache, filter.field);
    bitmap = new Uint8Array(source.items.length);
    for (const value of filter.equalsOneOf) {
      const at = positions.get(value);
      if (typeof at === "number") bitmap[at] = 1;
      else for (const index of at ?? []) bitmap[index] = 1;
    }
  } else {
    const values = column(source, cache, filter.field);
    bitmap = new Uint8Array(values.length);
    const { match } = filter;
    if (filter.field.multi) {
      for (let i = 0; i < values.length; i++) if ((values[i] as unknown[]).some(match)) bitmap[i] = 1;
    } else {
      for (let i = 0; i < values.length; i++) if (match(values[i])) bitmap[i] = 1;
    }
  }
  let count = 0;
  for (let i = 0; i < bitmap.length; i++) count += bitmap[i] as number;
  const matches = { bitmap, count };
  if (cache.filters.size >= MAX_CACHED_FILTERS) {
    const oldest = cache.filters.keys().next().value;
    if (oldest !== undefined) cache.filters.delete(oldest);
  }
  cache.filters.set(key, matches);
  return matches;
}

const MAX_CACHED_FILTERS = 32;

/** rank[index] = position of the record in the view. */
function viewRank(cache: SourceCache, viewKey: string, view: Int32Array): Int32Array {
  let rank = cache.ranks.get(viewKey);
  if (!rank) {
    rank = new Int32Array(view.length);
    for (let k = 0; k < view.length; k++) rank[view[k] as number] = k;
    cache.ranks.set(viewKey, rank);
  }
  return rank;
}

export function runListQuery<T>(source: ListSource<T>, query: ListQuery, spec: ListSpec): { page: T[]; total: number } {
  const cache = cacheFor(source);
  const viewKey = query.sort.map((criterion) => `${criterion.field.path}:${criterion.direction}`).join(",");
  const view = sortedView(source, cache, query.sort, spec);
  const { offset, limit } = query;
  const items = source.items;
  if (query.filters.length === 0) {
    return { page: Array.from(view.subarray(offset, offset + limit), (index) => items[index] as T), total: view.length };
  }
  // Filters combine with AND (list rule 4). Cached bitmaps are shared: combine into a new one.
  const all = query.filters.map((filter) => filterMatches(source, cache, filter));
  let matches = all[0] as Matches;
  if (all.length > 1) {
    const bitmap = new Uint8Array(items.length);
    let count = 0;
    for (let i = 0; i < bitmap.length; i++) {
      let ok = 1;
      for (const other of all) ok &= other.bitmap[i] as number;
      bitmap[i] = ok;
      count += ok;
    }
    matches = { bitmap, count };
  }
  const { bitmap, count } = matches;
  const end = offset + limit;
  if (count * 8 < items.length) {
    // Few matches: gather them and order them by their rank in the view instead of walking it.
    const rank = viewRank(cache, viewKey, view);
    const found = new Int32Array(count);
    for (let i = 0, j = 0; i < bitmap.length; i++) if (bitmap[i] === 1) found[j++] = i;
    found.sort((a, b) => (rank[a] as number) - (rank[b] as number));
    return { page: Array.from(found.subarray(offset, end), (index) => items[index] as T), total: count };
  }
  const page: T[] = [];
  let position = 0;
  for (let k = 0; k < view.length && position < end; k++) {
    const index = view[k] as number;
    if (bitmap[index] !== 1) continue;
    if (position >= offset) page.push(items[index] as T);
    position++;
  }
  return { page, total: count };
}

export function buildListEnvelope<T>(spec: ListSpec, query: ListQuery, page: T[], total: number): ListEnvelope<T> {
  const { limit, offset, carried } = query;
  const filters: AppliedFilter[] = query.filters.map((filter) => ({
    field: filter.field.path,
    operator: filter.operator,
    value: filter.value,
  }));
  const sort: AppliedSort[] = query.sort.map((criterion) => ({ field: criterion.field.path, direction: criterion.direction }));
  return {
    meta: {
      page: { limit, offset, count: page.length, max_limit: MAX_LIMIT },
      links: {
        previous: offset > 0 ? formatListLink(spec.path, carried, { limit, offset: Math.max(0, offset - limit) }) : null,
        self: formatListLink(spec.path, carried, { limit, offset }),
        next: offset + page.length < total ? formatListLink(spec.path, carried, { limit, offset: offset + limit }) : null,
      },
      filters,
      sort,
      total,
    },
    results: page,
  };
}

/** Parse, run and wrap in one call. */
export function listRecords<T>(source: ListSource<T>, params: URLSearchParams, spec: ListSpec, options: ListOptions = {}): ListEnvelope<T> {
  const query = parseListQuery(params, spec, options);
  const { page, total } = runListQuery(source, query, spec);
  return buildListEnvelope(spec, query, page, total);
}
