// Spec: Resources → General conventions.
import { z } from "zod";

export const objectIdSchema = z.string().regex(/^[0-9a-f]{24}$/, "must be an ObjectId (24 hex characters)");

/** Timestamps are ISO 8601 in UTC; orders carry milliseconds. */
export const timestampSchema = z.iso.datetime({ offset: true });

/**
 * ISO 4217 List One (2025), withdrawn codes left out. Fixed, not `Intl.supportedValuesOf`, whose
 * answer differs between runtimes: the server and the browser must agree on what is valid.
 */
export const ISO_4217_CODES = [
  "AED", "AFN", "ALL", "AMD", "AOA", "ARS", "AUD", "AWG", "AZN",
  "BAM", "BBD", "BDT", "BGN", "BHD", "BIF", "BMD", "BND", "BOB", "BOV", "BRL", "BSD", "BTN", "BWP", "BYN", "BZD",
  "CAD", "CDF", "CHE", "CHF", "CHW", "CLF", "CLP", "CNY", "COP", "COU", "CRC", "CUP", "CVE", "CZK",
  "DJF", "DKK", "DOP", "DZD",
  "EGP", "ERN", "ETB", "EUR",
  "FJD", "FKP",
  "GBP", "GEL", "GHS", "GIP", "GMD", "GNF", "GTQ", "GYD",
  "HKD", "HNL", "HTG", "HUF",
  "IDR", "ILS", "INR", "IQD", "IRR", "ISK",
  "JMD", "JOD", "JPY",
  "KES", "KGS", "KHR", "KMF", "KPW", "KRW", "KWD", "KYD", "KZT",
  "LAK", "LBP", "LKR", "LRD", "LSL", "LYD",
  "MAD", "MDL", "MGA", "MKD", "MMK", "MNT", "MOP", "MRU", "MUR", "MVR", "MWK", "MXN", "MXV", "MYR", "MZN",
  "NAD", "NGN", "NIO", "NOK", "NPR", "NZD",
  "OMR",
  "PAB", "PEN", "PGK", "PHP", "PKR", "PLN", "PYG",
  "QAR",
  "RON", "RSD", "RUB", "RWF",
  "SAR", "SBD", "SCR", "SDG", "SEK", "SGD", "SHP", "SLE", "SOS", "SRD", "SSP", "STN", "SVC", "SYP", "SZL",
  "THB", "TJS", "TMT", "TND", "TOP", "TRY", "TTD", "TWD", "TZS",
  "UAH", "UGX", "USD", "USN", "UYI", "UYU", "UYW", "UZS",
  "VED", "VES", "VND", "VUV",
  "WST",
  "XAF", "XAG", "XAU", "XBA", "XBB", "XBC", "XBD", "XCD", "XCG", "XDR", "XOF", "XPD", "XPF", "XPT", "XSU", "XTS", "XUA", "XXX",
  "YER",
  "ZAR", "ZMW", "ZWG",
] as const;

/** A pattern, not a refinement, so the check survives into the generated JSON Schema and OpenAPI. */
export const currencySchema = z.string().regex(new RegExp(`^(?:${ISO_4217_CODES.join("|")})$`), "must be an ISO-4217 code such as BRL");

/** `normalizer`: divisor to currency units (default 100). */
export const moneySchema = z.object({
  currency: currencySchema,
  normalizer: z.number().int().positive(),
  value: z.number().int(),
});
export type Money = z.infer<typeof moneySchema>;

/** Never javascript:, data:… from the platform. */
export const webUrlSchema = z.url({ protocol: /^https?$/ });

export function safeWebUrl(value: string | null | undefined): string | null {
  return value && webUrlSchema.safeParse(value).success ? value : null;
}
