// Spec: Resources → SKU, SKU import response; Limits. Size limits count characters.
import { z } from "zod";
import { formatIssuePath } from "./field-path";

/** Language keys "ISO 639-1/2 style, form pt_BR". */
export const languageCodeSchema = z.string().regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, "must be a language code such as pt_BR");

/** "pt_BR is the one mandatory language" of titles, descriptions and attribute displays. */
export const MANDATORY_LANGUAGE = "pt_BR";

/** In characters; forms show them too. */
export const SKU_LIMITS = {
  code: 50,
  title: 150,
  variationKey: 50,
  brand: 70,
  tag: 100,
  simplifiedDescription: 1000,
  mediaName: 50,
  dimensionValue: 10,
} as const;

export const skuConditionSchema = z.enum(["new", "used", "remanufactured"]);
export const skuOriginSchema = z.enum(["national", "imported"]);
export const dimensionNameSchema = z.enum(["product", "package"]);
export const lengthUnitSchema = z.enum(["cm", "m"]);
export const weightUnitSchema = z.enum(["g", "kg"]);
export const identifierTypeSchema = z.enum(["EAN", "ISBN", "UPC", "NCM"]);

const httpUrlSchema = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });

/** GS1: weights 3 and 1 alternate leftwards from the digit next to the check digit. */
export function hasValidGs1CheckDigit(digits: string): boolean {
  if (!/^\d+$/.test(digits) || digits.length < 2) return false;
  let sum = 0;
  for (let i = digits.length - 2, weight = 3; i >= 0; i--, weight = 4 - weight) {
    sum += Number(digits[i]) * weight;
  }
  return (10 - (sum % 10)) % 10 === Number(digits[digits.length - 1]);
}

const EAN_LENGTHS = new Set([8, 12, 13, 14]);

export function isValidEan(value: string): boolean {
  return /^\d+$/.test(value) && EAN_LENGTHS.has(value.length) && hasValidGs1CheckDigit(value);
}

/** "float, 1 to 10 characters": a number or a decimal string, the limit on its text. */
export const dimensionValueSchema = z.union([
  z
    .number()
    .nonnegative()
    .refine((value) => String(value).length <= SKU_LIMITS.dimensionValue, `must be at most ${SKU_LIMITS.dimensionValue} characters`),
  z
    .string()
    .min(1, `must be 1 to ${SKU_LIMITS.dimensionValue} characters`)
    .max(SKU_LIMITS.dimensionValue, `must be 1 to ${SKU_LIMITS.dimensionValue} characters`)
    .regex(/^\d+(\.\d+)?$/, "must be a decimal number"),
]);

const lengthMeasureSchema = z.object({ value: dimensionValueSchema, unit: lengthUnitSchema });
const weightMeasureSchema = z.object({ value: dimensionValueSchema, unit: weightUnitSchema });

export const skuDimensionSchema = z.object({
  name: dimensionNameSchema,
  height: lengthMeasureSchema,
  width: lengthMeasureSchema,
  length: lengthMeasureSchema,
  weight: weightMeasureSchema,
});

export const skuIdentifierSchema = z
  .object({
    type: identifierTypeSchema.optional(),
    value: z.string().optional(),
  })
  .superRefine((identifier, ctx) => {
    if (identifier.type !== "EAN" || identifier.value === undefined) return;
    if (!/^\d+$/.test(identifier.value) || !EAN_LENGTHS.has(identifier.value.length)) {
      ctx.addIssue({ code: "custom", path: ["value"], message: "an EAN must have 8, 12, 13 or 14 digits" });
    } else if (!hasValidGs1CheckDigit(identifier.value)) {
      ctx.addIssue({ code: "custom", path: ["value"], message: "the EAN check digit is wrong" });
    }
  });

const attributeDisplaySchema = z.record(
  languageCodeSchema,
  z.object({ name: z.string().optional(), value: z.string().optional(), simplified_value: z.string().optional() }),
);

export const skuAttributeSchema = z.object({
  name: z.string().min(1),
  value: z.string().min(1),
  display: attributeDisplaySchema.optional(),
});

function requirePtBr(keys: string[], ctx: z.RefinementCtx, path: (string | number)[], what: string): void {
  if (keys.length > 0 && !keys.includes(MANDATORY_LANGUAGE)) {
    ctx.addIssue({ code: "custom", path, message: `${what} must include language ${MANDATORY_LANGUAGE}` });
  }
}

export const skuAttributesSchema = z
  .object({ variant: z.array(skuAttributeSchema).optional(), optional: z.array(skuAttributeSchema).optional() })
  .superRefine((attributes, ctx) => {
    // "pt_BR is mandatory among languages used in attributes".
    for (const group of ["variant", "optional"] as const) {
      attributes[group]?.forEach((item, index) => {
        if (item.display) requirePtBr(Object.keys(item.display), ctx, [group, index, "display"], "display");
      });
    }
  });

export const skuDescriptionSchema = z
  .record(
    languageCodeSchema,
    z.object({
      verbose_value: z.string().min(1).optional(),
      simplified_value: z.string().max(SKU_LIMITS.simplifiedDescription).optional(),
    }),
  )
  .superRefine((description, ctx) => requirePtBr(Object.keys(description), ctx, [], "description"));

export const skuMediaSchema = z.object({
  name: z.string().min(1).max(SKU_LIMITS.mediaName).optional(),
  type: z.string().min(1).optional(),
  reference: httpUrlSchema.optional(),
});

export const skuCreateSchema = z.object({
  code: z.string().min(1).max(SKU_LIMITS.code),
  title: z.record(languageCodeSchema, z.string().min(1).max(SKU_LIMITS.title)).superRefine((title, ctx) => {
    if (!(MANDATORY_LANGUAGE in title)) {
      ctx.addIssue({ code: "custom", path: [MANDATORY_LANGUAGE], message: `title in ${MANDATORY_LANGUAGE} is required` });
    }
  }),
  variation_key: z.string().max(SKU_LIMITS.variationKey),
  condition: skuConditionSchema,
  brand: z.string().min(1).max(SKU_LIMITS.brand),
  tags: z.array(z.string().min(1).max(SKU_LIMITS.tag)),
  available: z.boolean(),
  origin: skuOriginSchema,
  datasheet: z.object({ reference: httpUrlSchema.optional() }),
  dimensions: z
    .array(skuDimensionSchema)
    .refine((dimensions) => dimensions.some((dimension) => dimension.name === "package"), "must contain one item named package"),
  description: skuDescriptionSchema,
  identifiers: z.array(skuIdentifierSchema),
  attributes: skuAttributesSchema,
  medias: z.array(skuMediaSchema),
  extras: z.record(z.string(), z.unknown()),
});
export type SkuCreate = z.infer<typeof skuCreateSchema>;
export type SkuCreateInput = z.input<typeof skuCreateSchema>;

/** SKU import status codes (spec: Errors). */
export const SKU_STATUS = {
  imported: { statusCode: 0, statusMessage: "The sku was imported and will be processed" },
  unexpected: { statusCode: -1, statusMessage: "Unexpected error" },
  blocked: { statusCode: -2, statusMessage: "The request was blocked" },
  empty: { statusCode: -3, statusMessage: "There is no sku to import" },
  invalid: { statusCode: -4, statusMessage: "An sku had problems on import" },
  importDown: { statusCode: -5, statusMessage: "Import is down" },
  forbidden: { statusCode: -6, statusMessage: "Without permission" },
} as const;

export const skuStatusCodeSchema = z.union([
  z.literal(0),
  z.literal(-1),
  z.literal(-2),
  z.literal(-3),
  z.literal(-4),
  z.literal(-5),
  z.literal(-6),
]);

/** One reason of a synchronous validation failure; `field` is a path such as `dimensions[0].height.value`. */
export const importErrorSchema = z.object({ field: z.string(), message: z.string() });
export type ImportError = z.infer<typeof importErrorSchema>;

/** On failures the platform generated nothing: `id` and `data` are null, `sku` is null when unknown. */
export const skuImportResponseSchema = z.object({
  token: z.string(),
  id: z.string().nullable(),
  sku: z.string().nullable(),
  statusCode: skuStatusCodeSchema,
  statusMessage: z.string(),
  errors: z.array(importErrorSchema),
  data: skuCreateSchema.nullable(),
});
export type SkuImportResponse = z.infer<typeof skuImportResponseSchema>;

export { formatIssuePath };

export function issuesToImportErrors(error: z.ZodError): ImportError[] {
  return error.issues.map((issue) => ({ field: formatIssuePath(issue.path), message: issue.message }));
}
