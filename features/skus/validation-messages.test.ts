import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { sampleSku } from "@marketplace/api/schemas/fixtures";
import { skuCreateSchema } from "@marketplace/api/schemas/sku";
import { catalogues } from "@/messages";
import type { Messages } from "@/messages";
import { sellerMessage } from "./validation-messages";
import type { SkuValidationWords } from "./validation-messages";

const words = (locale: "en" | "pt-BR") =>
  createTranslator({ locale, messages: catalogues[locale] as Messages, namespace: "skus.validation" }) as unknown as SkuValidationWords;
const en = words("en");
const pt = words("pt-BR");

/** The one issue a schema raises for a value. */
function issueOf(schema: z.ZodType, value: unknown): z.core.$ZodIssue {
  const parsed = schema.safeParse(value);
  if (parsed.success || parsed.error.issues.length !== 1) throw new Error(`expected one issue, got ${JSON.stringify(parsed)}`);
  return parsed.error.issues[0]!;
}

const base = sampleSku("MSG-001");
const dimension = base.dimensions[0]!;

// One SKU breaking each rule the shared schema words itself (packages/marketplace/src/schemas/sku.ts).
const SCHEMA_WORDED: [string, unknown, string][] = [
  ["a malformed language key", { ...base, title: { ...base.title, english: "x" } }, "deve ser um código de idioma como pt_BR"],
  ["a datasheet URL that is not http(s)", { ...base, datasheet: { reference: "ftp://example.com/x.pdf" } }, "deve ser uma URL http(s)"],
  [
    "a dimension number too long",
    { ...base, dimensions: [{ ...dimension, height: { value: 12345678.901, unit: "cm" } }] },
    "deve ter no máximo 10 caracteres",
  ],
  [
    "a dimension text too long",
    { ...base, dimensions: [{ ...dimension, height: { value: "12345678901", unit: "cm" } }] },
    "deve ter de 1 a 10 caracteres",
  ],
  [
    "a dimension text not decimal",
    { ...base, dimensions: [{ ...dimension, height: { value: "abc", unit: "cm" } }] },
    "deve ser um número decimal, com ponto (como 30.5)",
  ],
  ["an EAN of 5 digits", { ...base, identifiers: [{ type: "EAN", value: "12345" }] }, "um EAN deve ter 8, 12, 13 ou 14 dígitos"],
  [
    "an EAN with a wrong check digit",
    { ...base, identifiers: [{ type: "EAN", value: "7891000315508" }] },
    "o dígito verificador do EAN está incorreto",
  ],
  ["no pt_BR title", { ...base, title: { en_US: "Shirt" } }, "o título em pt_BR é obrigatório"],
  ["no pt_BR description", { ...base, description: { en_US: { simplified_value: "" } } }, "a descrição deve incluir o idioma pt_BR"],
  [
    "no pt_BR display",
    { ...base, attributes: { variant: [{ name: "Size", value: "M", display: { en_US: { name: "Size" } } }] } },
    "a exibição deve incluir o idioma pt_BR",
  ],
  [
    "no package dimension",
    { ...base, dimensions: [{ ...dimension, name: "product" }] },
    "deve incluir as dimensões da embalagem (package)",
  ],
];

describe("sellerMessage", () => {
  it.each(SCHEMA_WORDED)("keeps the schema's English and says it in Portuguese: %s", (_rule, sku, portuguese) => {
    const issue = issueOf(skuCreateSchema, sku);
    const schemaWords = issue.code === "invalid_key" ? issue.issues[0]!.message : issue.message;
    expect(sellerMessage(issue, en)).toBe(schemaWords);
    expect(sellerMessage(issue, pt)).toBe(portuguese);
  });

  it("words zod's own issues by their code and parameters, in either language", () => {
    const cases: [z.ZodType, unknown, string, string][] = [
      [z.string().min(1), "", "is required", "campo obrigatório"],
      [z.string().min(3), "ab", "must be at least 3 characters", "deve ter pelo menos 3 caracteres"],
      [z.string().max(50), "x".repeat(51), "must be at most 50 characters", "deve ter no máximo 50 caracteres"],
      [z.array(z.string()).min(2), ["a"], "must have at least 2 item(s)", "deve ter pelo menos 2 itens"],
      [z.number().nonnegative(), -1, "must be at least 0", "deve ser no mínimo 0"],
      [z.number().positive(), 0, "must be more than 0", "deve ser maior que 0"],
      [z.enum(["new", "used"]), "old", "must be one of: new, used", "deve ser uma destas opções: new, used"],
      [z.record(z.string(), z.unknown()), "x", "must be an object", "deve ser um objeto"],
      [z.boolean(), "yes", "must be a boolean", "deve ser verdadeiro ou falso"],
      [z.union([z.number(), z.string()]), true, "is not valid", "não é válido"],
    ];
    for (const [schema, value, english, portuguese] of cases) {
      const issue = issueOf(schema, value);
      expect(sellerMessage(issue, en), issue.message).toBe(english);
      expect(sellerMessage(issue, pt), issue.message).toBe(portuguese);
    }
  });

  it("reads a wrong language key by what is wrong with the key", () => {
    const issue = issueOf(z.record(z.string().min(2), z.string()), { x: "value" });
    expect(issue.code).toBe("invalid_key");
    expect(sellerMessage(issue, pt)).toBe("deve ter pelo menos 2 caracteres");
  });
});
