// The server's validation of a table's URL, so a bad parameter is named (400) and never reaches the platform.
import { z } from "zod";
import type { FilterDefinition, TableParams, TableState } from "@/lib/tables/table-params";

const emptyToUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);

function filterSchema(filter: FilterDefinition, text: z.ZodType<string> | undefined): z.ZodType {
  switch (filter.kind) {
    case "text":
      return z.preprocess(
        emptyToUndefined,
        (
          text ??
          z
            .string()
            .trim()
            .min(1)
            .max(filter.max ?? 100)
        ).optional(),
      );
    case "select":
      return z.preprocess(emptyToUndefined, z.enum(filter.options as readonly [string, ...string[]]).optional());
    case "choices":
      return z.preprocess(
        (value) => (typeof value === "string" && value !== "" ? [...new Set(value.split(","))] : undefined),
        z.array(z.enum(filter.options as readonly [string, ...string[]])).optional(),
      );
    case "instant":
      return z.preprocess(emptyToUndefined, z.iso.datetime({ offset: true, local: filter.local ?? false }).optional());
  }
}

export interface TableSchema<Filters extends Record<string, FilterDefinition>, Sort extends string> {
  schema: z.ZodType<TableState<Filters, Sort>>;
  parse: (params: URLSearchParams) => z.ZodSafeParseResult<TableState<Filters, Sort>>;
}

/** `texts`: a text filter's own rule (an object id); `check`: a rule across filters, reported on one. */
export function tableSchema<Filters extends Record<string, FilterDefinition>, Sort extends string>(
  table: TableParams<Filters, Sort>,
  options: {
    texts?: Partial<Record<keyof Filters, z.ZodType<string>>>;
    check?: (state: TableState<Filters, Sort>) => { filter: keyof Filters & string; message: string } | null;
  } = {},
): TableSchema<Filters, Sort> {
  const shape: Record<string, z.ZodType> = {};
  for (const key of table.filterKeys) shape[key] = filterSchema(table.filters[key]!, options.texts?.[key]);
  if (table.sorts) {
    const sorts = table.sorts as unknown as readonly [string, ...string[]];
    shape.sort = z.preprocess(emptyToUndefined, z.enum(sorts).default(sorts[0]));
  }
  const object = z.object({
    ...shape,
    page: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(table.maxPage).default(1)),
    size: z.preprocess(
      emptyToUndefined,
      z.coerce
        .number()
        .refine((value) => table.sizes.includes(value), `must be ${table.sizes.join(", ")}`)
        .default(table.defaultSize),
    ),
  });
  const { check } = options;
  const schema = (check
    ? object.superRefine((state, ctx) => {
        const problem = check(state as TableState<Filters, Sort>);
        if (problem) ctx.addIssue({ code: "custom", message: problem.message, path: [problem.filter] });
      })
    : object) as unknown as z.ZodType<TableState<Filters, Sort>>;
  return { schema, parse: (params) => schema.safeParse(Object.fromEntries(params)) };
}
