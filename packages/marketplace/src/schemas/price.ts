// Prices (spec: Resources → Price, Price create response; Endpoints 5–7).
import { z } from "zod";
import { PRICE_TYPES } from "../values";
import { currencySchema, objectIdSchema, timestampSchema } from "./common";
import { importErrorSchema } from "./sku";

export const priceTypeSchema = z.enum(PRICE_TYPES);
export type PriceType = z.infer<typeof priceTypeSchema>;

/** Every field is required, but `normalizer` has a documented default of 100. */
export const priceCreateSchema = z.object({
  type: priceTypeSchema,
  sku: z.string().min(1).max(50),
  value: z.number().int().nonnegative(),
  currency: currencySchema,
  normalizer: z.number().int().positive().default(100),
  extras: z.record(z.string(), z.unknown()),
});
export type PriceCreate = z.infer<typeof priceCreateSchema>;
export type PriceCreateInput = z.input<typeof priceCreateSchema>;

export const priceSchema = z.object({
  id: objectIdSchema,
  sku: z.string(),
  type: priceTypeSchema,
  value: z.number().int(),
  currency: currencySchema,
  normalizer: z.number().int().positive(),
  extras: z.record(z.string(), z.unknown()),
  created_at: timestampSchema,
});
export type Price = z.infer<typeof priceSchema>;

/** The spec does not show a `priceHistory` item; the sandbox lists every price set, oldest first. */
export const priceHistoryItemSchema = z.object({
  value: z.number().int(),
  currency: currencySchema,
  normalizer: z.number().int().positive(),
  created_at: timestampSchema,
});
export type PriceHistoryItem = z.infer<typeof priceHistoryItemSchema>;

export const priceWithHistorySchema = priceSchema.extend({ priceHistory: z.array(priceHistoryItemSchema) });
export type PriceWithHistory = z.infer<typeof priceWithHistorySchema>;

export const PRICE_STATUS = {
  imported: { statusCode: 0, statusMessage: "The price was imported and processed" },
  unexpected: { statusCode: -1, statusMessage: "Unexpected error" },
  blocked: { statusCode: -2, statusMessage: "The request was blocked" },
  empty: { statusCode: -3, statusMessage: "There is no price to import" },
  invalid: { statusCode: -4, statusMessage: "A price had problems on import" },
} as const;

export const priceCreateResponseSchema = z.object({
  token: z.string(),
  id: objectIdSchema.nullable(),
  statusCode: z.number().int(),
  statusMessage: z.string(),
  errors: z.array(importErrorSchema),
  data: priceSchema.nullable(),
});
export type PriceCreateResponse = z.infer<typeof priceCreateResponseSchema>;
