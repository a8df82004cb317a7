// The New SKU form's validation messages, in the seller's words and the request's language
// (messages/<locale>/skus.json, "validation"). Pure: the form (in the browser) and the server
// action both word the shared schema's issues here.
//
// The schema (lib/marketplace/schemas/sku.ts) is the sandbox's too, which answers in English, so
// it keeps its English wordings; zod words the rest for developers ("Too small: expected string
// to have >=1 characters"). Both are translated after parsing, from the issue itself: by its
// wording where the schema gave one, else by its code and parameters (minimum, maximum, expected
// type, allowed values). A per-parse error map (`safeParse(value, { error })`) would not do:
// zod prefers a schema's own message to it, so the schema's English would stay. zod's built-in
// Portuguese (z.locales.pt) is European and for developers, not for a Brazilian seller.
import type { useTranslations } from "next-intl";
import type { z } from "zod";
import { MANDATORY_LANGUAGE, SKU_LIMITS } from "@/lib/marketplace/schemas/sku";

/** The "skus.validation" catalogue: `useTranslations("skus.validation")` or `await getTranslations("skus.validation")`. */
export type SkuValidationWords = ReturnType<typeof useTranslations<"skus.validation">>;

/**
 * Every message lib/marketplace/schemas/sku.ts words itself, written with the same constants, and
 * its catalogue message. A rule added there with its own wording needs its line here (else the
 * seller reads the generic "is not valid"); lib/skus/validation-messages.test.ts triggers each.
 */
const SCHEMA_WORDINGS = new Map<string, (t: SkuValidationWords) => string>([
  [`must be a language code such as ${MANDATORY_LANGUAGE}`, (t) => t("languageCode", { example: MANDATORY_LANGUAGE })],
  ["must be an http(s) URL", (t) => t("httpUrl")],
  [`must be at most ${SKU_LIMITS.dimensionValue} characters`, (t) => t("tooLong", { maximum: SKU_LIMITS.dimensionValue })],
  [`must be 1 to ${SKU_LIMITS.dimensionValue} characters`, (t) => t("lengthBetween", { minimum: 1, maximum: SKU_LIMITS.dimensionValue })],
  ["must be a decimal number", (t) => t("decimal")],
  ["an EAN must have 8, 12, 13 or 14 digits", (t) => t("eanLength")],
  ["the EAN check digit is wrong", (t) => t("eanCheckDigit")],
  [`title in ${MANDATORY_LANGUAGE} is required`, (t) => t("titleNeedsLanguage", { language: MANDATORY_LANGUAGE })],
  [`description must include language ${MANDATORY_LANGUAGE}`, (t) => t("descriptionNeedsLanguage", { language: MANDATORY_LANGUAGE })],
  [`display must include language ${MANDATORY_LANGUAGE}`, (t) => t("displayNeedsLanguage", { language: MANDATORY_LANGUAGE })],
  ["must contain one item named package", (t) => t("packageDimension")],
]);

/** zod's bounds may be bigints; the messages only show them. */
const bound = (value: number | bigint) => Number(value);
const inclusive = (issue: { inclusive?: boolean }) => (issue.inclusive === false ? "no" : "yes");

/** One issue of the shared schema, as the seller reads it: the rule itself, not zod's wording. */
export function sellerMessage(issue: z.core.$ZodIssue, t: SkuValidationWords): string {
  const worded = SCHEMA_WORDINGS.get(issue.message);
  if (worded) return worded(t);
  switch (issue.code) {
    case "too_small": {
      const minimum = bound(issue.minimum);
      if (issue.origin === "string") return minimum === 1 ? t("required") : t("tooShort", { minimum });
      if (issue.origin === "array") return t("tooFewItems", { minimum });
      return t("tooSmall", { minimum, inclusive: inclusive(issue) });
    }
    case "too_big": {
      const maximum = bound(issue.maximum);
      if (issue.origin === "string") return t("tooLong", { maximum });
      if (issue.origin === "array") return t("tooManyItems", { maximum });
      return t("tooLarge", { maximum, inclusive: inclusive(issue) });
    }
    case "invalid_value":
      return t("oneOf", { values: issue.values.map(String).join(", ") });
    case "invalid_key":
      // A language key of title, description or display: what is wrong is the key itself.
      return issue.issues[0] ? sellerMessage(issue.issues[0], t) : t("invalid");
    case "invalid_type":
      return t("type", { expected: issue.expected });
    default:
      // A format, a union or a refinement the schema did not word: nothing more precise to say.
      return t("invalid");
  }
}
