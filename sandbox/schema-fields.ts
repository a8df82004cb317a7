// The fields of a wire schema a list can filter and sort on, read through `z.toJSONSchema`, not zod's
// internal definitions, which change between versions without notice (decision 0006).
import { z } from "zod";

type JsonSchema = z.core.JSONSchema.JSONSchema;
type JsonSchemaOrBoolean = z.core.JSONSchema._JSONSchema;

export type FieldKind = "string" | "number" | "boolean" | "datetime" | "date" | "enum";

/** One key of a field's path; `array` when the key holds an array whose elements the path goes on into. */
export interface FieldStep {
  key: string;
  array: boolean;
}

export interface SchemaField {
  /** Dotted path, array steps included without index (`deliveries.items.info.sku`). */
  path: string;
  steps: readonly FieldStep[];
  kind: FieldKind;
  /** The allowed values of an enum (or of a literal) field, as strings. */
  enumValues?: readonly string[];
  /** True when the path goes through an array: a record then has any number of values. */
  multi: boolean;
}

/**
 * Every scalar leaf of `schema`, in the schema's order: strings (ISO datetimes and dates apart),
 * numbers, booleans, enums and literals, with nullable and optional ones unwrapped. Records,
 * unions, tuples and free-form values are not fields: their keys or forms are open.
 *
 * The input side of the schema is read (`io: "input"`): what a pipe or transform accepts, as a
 * query value is compared with the stored record, not with a transformed one.
 */
export function schemaFields(schema: z.ZodType): SchemaField[] {
  const root = z.toJSONSchema(schema, { io: "input", unrepresentable: "any", reused: "inline", cycles: "ref" }) as JsonSchema;
  const fields = new Map<string, SchemaField>();

  const add = (steps: FieldStep[], kind: FieldKind, enumValues?: readonly string[]) => {
    const path = steps.map((step) => step.key).join(".");
    fields.set(path, { path, steps, kind, multi: steps.some((step) => step.array), ...(enumValues ? { enumValues } : {}) });
  };

  const visit = (node: JsonSchemaOrBoolean | undefined, steps: FieldStep[], seen: ReadonlySet<string>): void => {
    if (node === undefined || typeof node === "boolean") return;
    if (node.$ref !== undefined) {
      // Only a recursive schema makes references here (`reused: "inline"`); a path that comes
      // back to where it was has no end, so it is not followed twice.
      if (seen.has(node.$ref)) return;
      visit(resolveReference(root, node.$ref), steps, new Set([...seen, node.$ref]));
      return;
    }
    const nullable = withoutNull(node);
    if (nullable !== node) {
      visit(nullable, steps, seen);
      return;
    }
    if (node.const !== undefined) {
      add(steps, "enum", [String(node.const)]);
      return;
    }
    if (node.enum !== undefined) {
      add(steps, "enum", node.enum.map(String));
      return;
    }
    switch (node.type) {
      case "object":
        for (const [key, child] of Object.entries(node.properties ?? {})) visit(child, [...steps, { key, array: false }], seen);
        return;
      case "array": {
        const last = steps[steps.length - 1];
        // A tuple (`prefixItems`) has a form per position, not one element form.
        if (last && node.prefixItems === undefined && node.items !== undefined && !Array.isArray(node.items)) {
          visit(node.items, [...steps.slice(0, -1), { key: last.key, array: true }], seen);
        }
        return;
      }
      case "string":
        add(steps, node.format === "date-time" ? "datetime" : node.format === "date" ? "date" : "string");
        return;
      case "number":
      case "integer":
        add(steps, "number");
        return;
      case "boolean":
        add(steps, "boolean");
        return;
      default:
        // Unions (anyOf, several types), null, and what JSON Schema cannot express ({}).
        return;
    }
  };

  visit(root, [], new Set());
  return [...fields.values()];
}

/**
 * The schema without its null alternative: `X.nullable()` is `anyOf: [X, {type: "null"}]`, or
 * `type: [t, "null"]` for a plain type. Any other union comes back unchanged.
 */
function withoutNull(node: JsonSchema): JsonSchema {
  if (node.anyOf !== undefined) {
    const others = node.anyOf.filter((option) => !(option.type === "null" && Object.keys(option).length === 1));
    if (others.length === 1 && others.length < node.anyOf.length) return others[0] as JsonSchema;
    return node;
  }
  if (Array.isArray(node.type)) {
    const others = node.type.filter((type) => type !== "null");
    if (others.length === 1 && others.length < node.type.length) return { ...node, type: others[0] };
  }
  return node;
}

/** `#` or `#/$defs/Name`, the references zod writes. */
function resolveReference(root: JsonSchema, reference: string): JsonSchema | undefined {
  if (reference === "#") return root;
  const name = /^#\/\$defs\/(.+)$/.exec(reference)?.[1];
  return name === undefined ? undefined : root.$defs?.[name];
}
