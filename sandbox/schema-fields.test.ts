// The list fields of the wire schemas, pinned. If this fails after a zod upgrade, `z.toJSONSchema`
// now writes something schema-fields.ts does not read the same way (a format name, the form of a
// nullable, a reference): fix the adapter, not these expectations. If it fails after a schema
// change, the lists' filterable fields changed: update the expectations on purpose.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { orderSchema } from "@marketplace/api/schemas/order";
import { priceSchema } from "@marketplace/api/schemas/price";
import { skuCreateSchema } from "@marketplace/api/schemas/sku";
import { schemaFields, type SchemaField } from "./schema-fields";

/** One line per field: `path kind`, `[]` when it goes through an array, enum values in parentheses. */
const line = (field: SchemaField) =>
  `${field.path} ${field.kind}${field.multi ? "[]" : ""}${field.enumValues ? ` (${field.enumValues.join("|")})` : ""}`;
const lines = (schema: z.ZodType) => schemaFields(schema).map(line);

function kindCounts(schema: z.ZodType): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const field of schemaFields(schema)) {
    const key = `${field.kind}${field.multi ? "[]" : ""}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

describe("fields of the wire schemas", () => {
  it("price (spec: Resources → Price): every field", () => {
    expect(lines(priceSchema)).toEqual([
      "id string",
      "sku string",
      "type enum (list|sell)",
      "value number",
      "currency string",
      "normalizer number",
      "created_at datetime",
    ]);
  });

  it("SKU (spec: Resources → SKU): every field; free-form objects, records and unions are not fields", () => {
    expect(lines(skuCreateSchema)).toEqual([
      "code string",
      "variation_key string",
      "condition enum (new|used|remanufactured)",
      "brand string",
      "tags string[]",
      "available boolean",
      "origin enum (national|imported)",
      "datasheet.reference string",
      "dimensions.name enum[] (product|package)",
      "dimensions.height.unit enum[] (cm|m)",
      "dimensions.width.unit enum[] (cm|m)",
      "dimensions.length.unit enum[] (cm|m)",
      "dimensions.weight.unit enum[] (g|kg)",
      "identifiers.type enum[] (EAN|ISBN|UPC|NCM)",
      "identifiers.value string[]",
      "attributes.variant.name string[]",
      "attributes.variant.value string[]",
      "attributes.optional.name string[]",
      "attributes.optional.value string[]",
      "medias.name string[]",
      "medias.type string[]",
      "medias.reference string[]",
    ]);
  });

  it("order (spec: Resources → Order): 122 fields, by kind", () => {
    expect(schemaFields(orderSchema)).toHaveLength(122);
    expect(kindCounts(orderSchema)).toEqual({
      string: 9,
      number: 10,
      datetime: 4,
      date: 1,
      enum: 2,
      "string[]": 62,
      "number[]": 25,
      "datetime[]": 6,
      "enum[]": 1,
      "boolean[]": 2,
    });
  });

  it("order: representative fields, nested, nullable and through arrays", () => {
    const fields = new Set(lines(orderSchema));
    for (const expected of [
      "id string",
      "status enum (new|approved|cancelled|finished)",
      "created_at datetime",
      "approved_at datetime", // nullable
      "customer.birth_date date",
      "customer.customer_type enum (cpf|cnpj)",
      "customer.phones.number string[]",
      "amounts.total number",
      "amounts.comission.type string",
      "payments.installments number[]",
      "deliveries.status string[]",
      "deliveries.items.info.sku string[]",
      "deliveries.items.info.images string[]",
      "deliveries.items.amounts.comission.value number[]",
      "deliveries.shipping.posting_date datetime[]", // nullable, inside an array
      "deliveries.shipping.recipient.customer_type enum[] (cpf|cnpj)",
      "deliveries.shipping.pickup_details.latitude number[]",
      "deliveries.shipping.handling_time.workday boolean[]",
    ]) {
      expect(fields).toContain(expected);
    }
    // Objects themselves and free-form records are not fields.
    const paths = schemaFields(orderSchema).map((field) => field.path);
    expect(paths).not.toContain("amounts");
    expect(paths).not.toContain("deliveries.items.info.extras");
  });

  it("marks which steps of a path go through an array", () => {
    const byPath = new Map(schemaFields(orderSchema).map((field) => [field.path, field]));
    expect(byPath.get("deliveries.items.info.sku")?.steps).toEqual([
      { key: "deliveries", array: true },
      { key: "items", array: true },
      { key: "info", array: false },
      { key: "sku", array: false },
    ]);
    expect(byPath.get("customer.name")?.steps).toEqual([
      { key: "customer", array: false },
      { key: "name", array: false },
    ]);
    expect(schemaFields(skuCreateSchema).find((field) => field.path === "tags")?.steps).toEqual([{ key: "tags", array: true }]);
  });
});

describe("how schema constructs read", () => {
  it("unwraps optional, nullable, default and readonly; reads the input side of pipes and transforms", () => {
    const schema = z.object({
      a: z.string().optional(),
      b: z.number().int().nullable(),
      c: z.iso.datetime({ offset: true }).nullable().optional(),
      d: z.number().default(100),
      e: z.boolean().readonly(),
      f: z.string().trim().pipe(z.email()),
      g: z.string().transform((value) => value.length),
      h: z.enum(["x", "y"]).nullable(),
      i: z.iso.date(),
    });
    expect(lines(schema)).toEqual([
      "a string",
      "b number",
      "c datetime",
      "d number",
      "e boolean",
      "f string",
      "g string",
      "h enum (x|y)",
      "i date",
    ]);
  });

  it("reads literals as one-value enums, numeric enums as strings", () => {
    const schema = z.object({ a: z.literal("Bearer"), b: z.literal(true), c: z.enum({ one: 1, two: 2 }) });
    expect(lines(schema)).toEqual(["a enum (Bearer)", "b enum (true)", "c enum (1|2)"]);
  });

  it("leaves out unions, records, tuples, free-form and unrepresentable values", () => {
    const schema = z.object({
      union: z.union([z.number(), z.string()]),
      literals: z.union([z.literal(0), z.literal(-1)]),
      record: z.record(z.string(), z.string()),
      tuple: z.tuple([z.string(), z.number()]),
      unknown: z.unknown(),
      date: z.date(),
      kept: z.string(),
    });
    expect(lines(schema)).toEqual(["kept string"]);
  });

  it("flattens arrays of arrays and stops at recursion", () => {
    interface Category {
      name: string;
      children: Category[];
    }
    const category: z.ZodType<Category> = z.lazy(() => z.object({ name: z.string(), children: z.array(category) }));
    const schema = z.object({ grid: z.array(z.array(z.number())), root: category });
    const fields = lines(schema);
    expect(fields).toContain("grid number[]");
    expect(fields).toContain("root.name string");
  });
});
