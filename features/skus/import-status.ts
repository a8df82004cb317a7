// Spec: Errors → SKU import status codes; and where each `errors[].field` shows up in the form.
import type { useTranslations } from "next-intl";
import { formatFieldPath } from "@marketplace/api/schemas/field-path";
import { languageCodeSchema } from "@marketplace/api/schemas/sku";
import type { ImportError, SKU_STATUS } from "@marketplace/api/schemas/sku";
import type { FieldErrors, SkuFormState } from "./sku-form-state";

export type SkuStatusCode = (typeof SKU_STATUS)[keyof typeof SKU_STATUS]["statusCode"];

export type ImportOutcomeWords = ReturnType<typeof useTranslations<"skus.outcome">>;

export interface ImportStatusText {
  title: string;
  /** After the spec's "Meaning" column. */
  meaning: string;
  action: string;
  tone: "success" | "info" | "warning" | "error";
  /** Whether sending the same SKU again later can succeed. */
  retry: boolean;
}

export type ImportOutcomeKind = keyof typeof SKU_STATUS | "alreadyExists" | "unknown" | "notSent" | "notTaken";

type Verdict = Pick<ImportStatusText, "tone" | "retry">;

// statusCode 0 still means moderation may reject the SKU later (spec).
const STATUS_VERDICTS: Record<SkuStatusCode, Verdict & { kind: keyof typeof SKU_STATUS }> = {
  0: { kind: "imported", tone: "success", retry: false },
  [-1]: { kind: "unexpected", tone: "error", retry: true },
  [-2]: { kind: "blocked", tone: "warning", retry: true },
  [-3]: { kind: "empty", tone: "error", retry: true },
  [-4]: { kind: "invalid", tone: "error", retry: false },
  [-5]: { kind: "importDown", tone: "warning", retry: true },
  [-6]: { kind: "forbidden", tone: "error", retry: false },
};

/** Named in statusCode -6's advice (spec: Scopes). */
const PORTFOLIO_SCOPES = { write: "portfolio:write", read: "portfolio:read" };

export function importOutcomeText(
  kind: Exclude<ImportOutcomeKind, "notTaken">,
  verdict: Verdict,
  t: ImportOutcomeWords,
  values: { statusCode?: number } = {},
): ImportStatusText {
  const words = { ...PORTFOLIO_SCOPES, statusCode: values.statusCode ?? "" };
  return { title: t(`${kind}.title`, words), meaning: t(`${kind}.meaning`, words), action: t(`${kind}.action`, words), ...verdict };
}

/** `alreadyExisted`: the HTTP 200 answer, "the product was not updated" (spec: Endpoint 4). */
export function explainImportStatus(
  statusCode: number,
  t: ImportOutcomeWords,
  options: { alreadyExisted?: boolean } = {},
): ImportStatusText {
  if (statusCode === 0 && options.alreadyExisted) return importOutcomeText("alreadyExists", { tone: "info", retry: false }, t);
  const known = STATUS_VERDICTS[statusCode as SkuStatusCode] as (typeof STATUS_VERDICTS)[SkuStatusCode] | undefined;
  if (known) return importOutcomeText(known.kind, { tone: known.tone, retry: known.retry }, t);
  // Undocumented: named, not guessed at.
  return importOutcomeText("unknown", { tone: "error", retry: true }, t, { statusCode });
}

export type PathSegment = string | number;

/** `dimensions[0].height.value` → ["dimensions", 0, "height", "value"]. */
export function parseFieldPath(field: string): PathSegment[] {
  const segments: PathSegment[] = [];
  for (const part of field.split(".")) {
    const match = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
    if (!match) {
      segments.push(part);
      continue;
    }
    // A blank language is the key "", so an empty key is kept; an empty name before indices is not.
    if (match[1] !== undefined && (match[1] !== "" || !match[2])) segments.push(match[1]);
    for (const index of (match[2] ?? "").matchAll(/\[(\d+)\]/g)) segments.push(Number(index[1]));
  }
  return segments;
}

/** The inverse of `parseFieldPath`: one path writer for the project. */
export { formatFieldPath };

/** The row's value field, or its language field when the key itself is what is wrong. */
function languageRow(
  rows: readonly { language: string }[],
  listPath: string,
  language: PathSegment | undefined,
  rest: PathSegment[],
  valueField: string | null,
): string {
  if (language === undefined) return listPath;
  const index = rows.findIndex((row) => row.language.trim() === String(language));
  if (index < 0) return listPath;
  const row = `${listPath}[${index}]`;
  if (!languageCodeSchema.safeParse(String(language)).success) return `${row}.language`;
  if (rest.length > 0) return `${row}.${formatFieldPath(rest)}`;
  return valueField ? `${row}.${valueField}` : `${row}.language`;
}

/** `title.pt_BR` → `titles[0].value`; paths the form has no field for come back unchanged. */
export function importFieldToFormPath(field: string, state: SkuFormState): string {
  const [head, ...rest] = parseFieldPath(field);
  switch (head) {
    case "title":
      return languageRow(state.titles, "titles", rest[0], rest.slice(1), "value");
    case "description":
      return languageRow(state.descriptions, "descriptions", rest[0], rest.slice(1), null);
    case "extras":
      // One text area holds the whole object.
      return "extras";
    case "tags":
      return typeof rest[0] === "number" && rest.length === 1 ? `tags[${rest[0]}].value` : field;
    case "attributes": {
      const [group, index, part, language, ...tail] = rest;
      if ((group !== "variant" && group !== "optional") || typeof index !== "number" || part !== "display") return field;
      const displayPath = `attributes.${group}[${index}].display`;
      const rows = state.attributes[group][index]?.display ?? [];
      return languageRow(rows, displayPath, language, tail, null);
    }
    default:
      return field;
  }
}

export function mapImportErrors(errors: readonly ImportError[], state: SkuFormState): FieldErrors {
  const mapped: FieldErrors = {};
  for (const error of errors) {
    const path = importFieldToFormPath(error.field, state);
    const messages = (mapped[path] ??= []);
    if (!messages.includes(error.message)) messages.push(error.message);
  }
  return mapped;
}
