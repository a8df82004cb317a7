// Shared wire conventions (spec: Resources → General conventions).
import { z } from "zod";

/** Platform identifiers are ObjectId strings: 24 hexadecimal characters. */
export const objectIdSchema = z.string().regex(/^[0-9a-f]{24}$/, "must be an ObjectId (24 hex characters)");

/** Timestamps are ISO 8601 in UTC; orders carry milliseconds. */
export const timestampSchema = z.iso.datetime({ offset: true });

/**
 * ISO 4217 List One (current alphabetic codes, as published in 2025): funds and X-codes included,
 * withdrawn codes (HRK, ANG, CUC, SLL, ZWL…) not. A fixed list rather than
 * `Intl.supportedValuesOf("currency")`, whose answer differs between runtimes and ICU versions
 * (and lists some withdrawn codes); the server and the browser must agree on what is valid.
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

/**
 * An ISO-4217 code (spec: General conventions; Price `currency`). A pattern of the codes rather than
 * a refinement, so the check survives into the JSON Schema (and OpenAPI) generated from it, and
 * the type stays `string`.
 */
export const currencySchema = z.string().regex(new RegExp(`^(?:${ISO_4217_CODES.join("|")})$`), "must be an ISO-4217 code such as BRL");

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
