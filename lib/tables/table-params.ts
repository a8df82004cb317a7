// A table's filters, sorts and sizes, declared once (decision 0007). No zod here: the browser
// imports this module and only reads URLs it wrote; the server validates with table-schema.ts.

/** A full message key, e.g. "orders.filters.status" (filter-labels.test.ts checks every language has it). */
export type MessageKey = string;

/** Free text; `max` characters at most (100 unless said). */
export interface TextFilter {
  kind: "text";
  label: MessageKey;
  max?: number;
  mono?: boolean;
  placeholder?: MessageKey;
}
/** `optionLabels`: the catalogue object with a word per value; without it values show as codes. */
export interface SelectFilter<T extends string = string> {
  kind: "select";
  label: MessageKey;
  options: readonly T[];
  emptyLabel: MessageKey;
  optionLabels?: MessageKey;
}
/** Comma-separated in the URL (`status=new,approved`). */
export interface ChoicesFilter<T extends string = string> {
  kind: "choices";
  label: MessageKey;
  options: readonly T[];
  optionLabels?: MessageKey;
}
/** Carried as ISO 8601 with its offset; `local` also accepts one without. */
export interface InstantFilter {
  kind: "instant";
  label: MessageKey;
  local?: boolean;
}

export type FilterDefinition = TextFilter | SelectFilter | ChoicesFilter | InstantFilter;

export const textFilter = (label: MessageKey, options: { max?: number; mono?: boolean; placeholder?: MessageKey } = {}): TextFilter => ({
  kind: "text",
  label,
  ...options,
});

export const selectFilter = <const T extends string>(
  label: MessageKey,
  options: readonly T[],
  { emptyLabel = "common.table.any", optionLabels }: { emptyLabel?: MessageKey; optionLabels?: MessageKey } = {},
): SelectFilter<T> => ({ kind: "select", label, options, emptyLabel, ...(optionLabels ? { optionLabels } : {}) });

export const choicesFilter = <const T extends string>(
  label: MessageKey,
  options: readonly T[],
  { optionLabels }: { optionLabels?: MessageKey } = {},
): ChoicesFilter<T> => ({
  kind: "choices",
  label,
  options,
  ...(optionLabels ? { optionLabels } : {}),
});

export const instantFilter = (label: MessageKey, options: { local?: boolean } = {}): InstantFilter => ({
  kind: "instant",
  label,
  ...options,
});

type FilterValue<F extends FilterDefinition> = F extends ChoicesFilter<infer T> ? T[] : F extends SelectFilter<infer T> ? T : string;

export type TableState<Filters extends Record<string, FilterDefinition>, Sort extends string> = {
  -readonly [K in keyof Filters]?: FilterValue<Filters[K]>;
} & ([Sort] extends [never] ? unknown : { sort: Sort }) & { page: number; size: number };

export type StateOf<T> = T extends TableParams<infer Filters, infer Sort> ? TableState<Filters, Sort> : never;

export interface TableParams<Filters extends Record<string, FilterDefinition>, Sort extends string> {
  filters: Filters;
  filterKeys: (keyof Filters & string)[];
  /** `field:direction`, the first the default; undefined: one fixed order. */
  sorts: readonly Sort[] | undefined;
  sizes: readonly [number, ...number[]];
  defaultSize: number;
  maxPage: number;
  /** Defaults left out, so links stay short and stable. */
  toSearchParams: (state: Partial<TableState<Filters, Sort>>) => URLSearchParams;
  /** A URL this table wrote, read back (the browser's own navigations; not a validation). */
  read: (params: URLSearchParams) => TableState<Filters, Sort>;
  initial: TableState<Filters, Sort>;
}

export function defineTableParams<const Filters extends Record<string, FilterDefinition>, const Sort extends string = never>(config: {
  filters: Filters;
  sorts?: readonly [Sort, ...Sort[]];
  sizes: readonly [number, ...number[]];
  /** The deepest page (the platform's offsets have limits too). */
  maxPage?: number;
}): TableParams<Filters, Sort> {
  const { filters, sorts, sizes } = config;
  const filterKeys = Object.keys(filters) as (keyof Filters & string)[];
  const defaultSort = sorts?.[0];
  const [defaultSize] = sizes;

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

  const read = (params: URLSearchParams) => {
    const state: Record<string, unknown> = {
      page: Number(params.get("page") ?? "1") || 1,
      size: Number(params.get("size") ?? defaultSize) || defaultSize,
    };
    if (defaultSort !== undefined) state.sort = params.get("sort") || defaultSort;
    for (const key of filterKeys) {
      const value = params.get(key);
      if (!value) continue;
      state[key] = filters[key]!.kind === "choices" ? [...new Set(value.split(","))] : value;
    }
    return state as TableState<Filters, Sort>;
  };

  return {
    filters,
    filterKeys,
    sorts,
    sizes,
    defaultSize,
    maxPage: config.maxPage ?? 1_000_000,
    toSearchParams,
    read,
    initial: read(new URLSearchParams()),
  };
}
