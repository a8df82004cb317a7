// A table's state as data: its filters (each with the label the filter form shows and how the
// URL carries it), its sorts and its page sizes, declared once. From that one declaration come
// the zod schema that reads the state from a URL (the page, the route handler and the table all
// use it), the URL form of a state, the filter form (components/ui/table-filters.tsx) and its
// "Clear". Adding a filter to a table is one line here and one line in its platform mapping.
// Decision 0007 says why this and not nuqs. Plain module: server and browser both use it.
import { z } from "zod";

const emptyToUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);

interface FilterBase<Schema extends z.ZodType> {
  label: string;
  /** Reads the filter from its URL parameter (a string, or undefined when absent). */
  schema: Schema;
}

/** Free text; `schema` checks the trimmed text (e.g. an object id). */
export interface TextFilter extends FilterBase<z.ZodType<string | undefined>> {
  kind: "text";
  mono?: boolean;
  placeholder?: string;
}
/** One of a few values, chosen in a drop-down; `emptyLabel` is the "any" choice. */
export interface SelectFilter<T extends string = string> extends FilterBase<z.ZodType<T | undefined>> {
  kind: "select";
  options: readonly T[];
  emptyLabel: string;
}
/** Several of a few values at once, comma-separated in the URL (`status=new,approved`). */
export interface ChoicesFilter<T extends string = string> extends FilterBase<z.ZodType<T[] | undefined>> {
  kind: "choices";
  options: readonly T[];
}
/** An instant, edited as local date and time (São Paulo), carried as ISO 8601 with its offset. */
export interface InstantFilter extends FilterBase<z.ZodType<string | undefined>> {
  kind: "instant";
}

export type FilterDefinition = TextFilter | SelectFilter | ChoicesFilter | InstantFilter;

export function textFilter(label: string, text: z.ZodType<string> = z.string().trim().min(1).max(100), options: { mono?: boolean; placeholder?: string } = {}): TextFilter {
  return { kind: "text", label, schema: z.preprocess(emptyToUndefined, text.optional()), ...options };
}

export function selectFilter<const T extends string>(label: string, options: readonly T[], emptyLabel = "Any"): SelectFilter<T> {
  return { kind: "select", label, options, emptyLabel, schema: z.preprocess(emptyToUndefined, z.enum(options as readonly [T, ...T[]]).optional()) };
}

export function choicesFilter<const T extends string>(label: string, options: readonly T[]): ChoicesFilter<T> {
  return {
    kind: "choices",
    label,
    options,
    schema: z.preprocess(
      (value) => (typeof value === "string" && value !== "" ? [...new Set(value.split(","))] : undefined),
      z.array(z.enum(options as readonly [T, ...T[]])).optional(),
    ),
  };
}

/** `local`: an instant without an offset is accepted too (read as São Paulo time by its user). */
export function instantFilter(label: string, options: { local?: boolean } = {}): InstantFilter {
  return { kind: "instant", label, schema: z.preprocess(emptyToUndefined, z.iso.datetime({ offset: true, local: options.local ?? false }).optional()) };
}

type FilterValue<F extends FilterDefinition> = z.output<F["schema"]>;

/** The state type of a table declared with defineTableParams. */
export type StateOf<T> = T extends TableParams<infer Filters, infer Sort> ? TableState<Filters, Sort> : never;

/** A table's state: its filters' values, and the sort, page and size. */
export type TableState<Filters extends Record<string, FilterDefinition>, Sort extends string> = {
  -readonly [K in keyof Filters]?: FilterValue<Filters[K]>;
} & ([Sort] extends [never] ? unknown : { sort: Sort }) & { page: number; size: number };

export interface TableParamsConfig<Filters extends Record<string, FilterDefinition>, Sort extends string> {
  filters: Filters;
  /** The sorts the table offers, `field:direction`; the first is the default. None: one fixed order. */
  sorts?: readonly [Sort, ...Sort[]];
  /** The page sizes offered; the first is the default. */
  sizes: readonly [number, ...number[]];
  /** The deepest page (the platform's offsets have limits too). */
  maxPage?: number;
  /** Rules across filters, e.g. a range's start before its end: a message on a filter. */
  check?: (state: TableState<Filters, Sort>) => { filter: keyof Filters & string; message: string } | null;
}

export interface TableParams<Filters extends Record<string, FilterDefinition>, Sort extends string> {
  filters: Filters;
  filterKeys: (keyof Filters & string)[];
  sizes: readonly number[];
  defaultSort: Sort | undefined;
  defaultSize: number;
  schema: z.ZodType<TableState<Filters, Sort>>;
  /** The state in a URL's parameters (an error names the first bad parameter). */
  parse: (params: URLSearchParams) => z.ZodSafeParseResult<TableState<Filters, Sort>>;
  /** The URL form of a state, defaults left out so links stay short and stable. */
  toSearchParams: (state: Partial<TableState<Filters, Sort>>) => URLSearchParams;
  /** The state of a URL that says nothing: no filter, first page. */
  initial: TableState<Filters, Sort>;
}

export function defineTableParams<const Filters extends Record<string, FilterDefinition>, const Sort extends string = never>(
  config: TableParamsConfig<Filters, Sort>,
): TableParams<Filters, Sort> {
  const defaultSort = config.sorts?.[0];
  const [defaultSize] = config.sizes;
  const filterKeys = Object.keys(config.filters) as (keyof Filters & string)[];
  const shape: Record<string, z.ZodType> = {};
  for (const key of filterKeys) shape[key] = config.filters[key]!.schema;
  const sizeText = config.sizes.join(", ");
  if (config.sorts) {
    shape.sort = z.preprocess(emptyToUndefined, z.enum(config.sorts as unknown as readonly [string, ...string[]]).default(config.sorts[0]));
  }
  const object = z.object({
    ...shape,
    page: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(config.maxPage ?? 1_000_000).default(1)),
    size: z.preprocess(
      emptyToUndefined,
      z.coerce
        .number()
        .refine((value) => config.sizes.includes(value), `must be ${sizeText}`)
        .default(defaultSize),
    ),
  });
  const check = config.check;
  const schema = (
    check
      ? object.superRefine((state, ctx) => {
          const problem = check(state as TableState<Filters, Sort>);
          if (problem) ctx.addIssue({ code: "custom", message: problem.message, path: [problem.filter] });
        })
      : object
  ) as unknown as z.ZodType<TableState<Filters, Sort>>;

  const toSearchParams = (state: Partial<TableState<Filters, Sort>>) => {
    const params = new URLSearchParams();
    for (const key of filterKeys) {
      const value = state[key] as string | string[] | undefined;
      if (Array.isArray(value)) {
        if (value.length > 0) params.set(key, value.join(","));
      } else if (value) params.set(key, value);
    }
    const sort = (state as { sort?: string }).sort;
    if (sort && sort !== defaultSort) params.set("sort", sort);
    if (state.page && state.page > 1) params.set("page", String(state.page));
    if (state.size && state.size !== defaultSize) params.set("size", String(state.size));
    return params;
  };

  const parse = (params: URLSearchParams) => schema.safeParse(Object.fromEntries(params));
  const initial = schema.parse({});

  return { filters: config.filters, filterKeys, sizes: config.sizes, defaultSort, defaultSize, schema, parse, toSearchParams, initial };
}
