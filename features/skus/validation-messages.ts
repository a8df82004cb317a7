// The shared schema keeps English (the sandbox answers with it), so issues are worded after
// parsing: a per-parse error map loses to a schema's own message, and zod's Portuguese is European.
import type { useTranslations } from "next-intl";
import type { z } from "zod";
import { MANDATORY_LANGUAGE, SKU_LIMITS } from "@marketplace/api/schemas/sku";

export type SkuValidationWords = ReturnType<typeof useTranslations<"skus.validation">>;

/** A rule worded in the schema needs its line here, else the seller reads the generic "is not valid". */
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

const bound = (value: number | bigint) => Number(value);
const inclusive = (issue: { inclusive?: boolean }) => (issue.inclusive === false ? "no" : "yes");

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
      // A language key: what is wrong is the key itself.
      return issue.issues[0] ? sellerMessage(issue.issues[0], t) : t("invalid");
    case "invalid_type":
      return t("type", { expected: issue.expected });
    default:
      return t("invalid");
  }
}
