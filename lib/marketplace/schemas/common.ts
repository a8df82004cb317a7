// Shared wire conventions (spec: Resources → General conventions).
import { z } from "zod";

/** Platform identifiers are ObjectId strings: 24 hexadecimal characters. */
export const objectIdSchema = z.string().regex(/^[0-9a-f]{24}$/, "must be an ObjectId (24 hex characters)");

/** Timestamps are ISO 8601 in UTC; orders carry milliseconds. */
export const timestampSchema = z.iso.datetime({ offset: true });

export const currencySchema = z.string().regex(/^[A-Z]{3}$/, "must be an ISO-4217 code such as BRL");

/** Money: an integer `value`, a currency and a `normalizer` (divisor to currency units; default 100). */
export const moneySchema = z.object({
  currency: currencySchema,
  normalizer: z.number().int().positive(),
  value: z.number().int(),
});
export type Money = z.infer<typeof moneySchema>;

/** An http(s) URL: what a link or an image from the platform may point at (never javascript:, data:…). */
export const webUrlSchema = z.url({ protocol: /^https?$/ });

/** The URL when it is a web address, null otherwise: for rendering platform data as a link or image. */
export function safeWebUrl(value: string | null | undefined): string | null {
  return value && webUrlSchema.safeParse(value).success ? value : null;
}
