// What the seller reads after sending a SKU (spec: Errors → SKU import status codes; Endpoint 4),
// and where each of the platform's `errors[].field` paths shows up in the New SKU form. Pure.
import { formatFieldPath } from "@/lib/marketplace/schemas/field-path";
import { languageCodeSchema } from "@/lib/marketplace/schemas/sku";
import type { ImportError, SKU_STATUS } from "@/lib/marketplace/schemas/sku";
import type { FieldErrors, SkuFormState } from "./sku-form";

export type SkuStatusCode = (typeof SKU_STATUS)[keyof typeof SKU_STATUS]["statusCode"];

export interface ImportStatusText {
  /** The heading: what happened, in the seller's words. */
  title: string;
  /** What it means, after the spec's "Meaning" column. */
  meaning: string;
  /** What to do next. */
  action: string;
  tone: "success" | "info" | "warning" | "error";
  /** Whether sending the same SKU again later can succeed. */
  retry: boolean;
}

export const PORTFOLIO_SCOPES_TEXT = "portfolio:write and portfolio:read";

const STATUS_TEXT: Record<SkuStatusCode, ImportStatusText> = {
  0: {
    title: "SKU imported",
    // "Synchronous validation passed; later asynchronous validation (moderation and others) may still reject it."
    meaning: "The marketplace accepted the SKU and will process it. Its later checks (moderation and others) can still reject it.",
    action: "Nothing more to do now. The catalogue marks the SKU as confirmed when the marketplace's portfolio.sku notification arrives.",
    tone: "success",
    retry: false,
  },
  [-1]: {
    title: "The marketplace had an unexpected error",
    meaning: "The marketplace failed while importing; the SKU was not imported.",
    action: "Send it again in a moment; your entries are kept. If it keeps failing, contact marketplace support with the import token below.",
    tone: "error",
    retry: true,
  },
  [-2]: {
    title: "Too many requests: temporarily blocked",
    meaning: "The marketplace blocks a seller for a while after too many requests; the SKU was not imported.",
    action: "Wait a minute, then send it again; your entries are kept.",
    tone: "warning",
    retry: true,
  },
  [-3]: {
    title: "There was no SKU to import",
    meaning: "The marketplace received an empty request, so it imported nothing.",
    action: "Fill in the form and send it again. If it was filled in, reload the page and try once more.",
    tone: "error",
    retry: true,
  },
  [-4]: {
    title: "The SKU failed validation: nothing was imported",
    meaning: "The marketplace checked the SKU, found problems and cancelled the import.",
    action: "Correct the fields marked below and send the SKU again.",
    tone: "error",
    retry: false,
  },
  [-5]: {
    title: "SKU import is down",
    meaning: "The marketplace has switched its import service off for now; the SKU was not imported.",
    action: "Try again later; your entries are kept.",
    tone: "warning",
    retry: true,
  },
  [-6]: {
    title: "No permission to create SKUs",
    meaning: "The marketplace connection lacks the permission to create SKUs.",
    action: `Reconnect and grant ${PORTFOLIO_SCOPES_TEXT}.`,
    tone: "error",
    retry: false,
  },
};

/**
 * HTTP 200 with statusCode 0: "an automatic redirect took place and the product was not
 * updated" (spec: Endpoint 4). The platform already has this very SKU; SKUs are immutable.
 */
export const ALREADY_EXISTS_TEXT: ImportStatusText = {
  title: "This SKU already exists: nothing was created",
  meaning: "The marketplace already has a SKU identical to this one, so it created nothing and answered with the existing SKU's id.",
  action: "SKUs cannot be changed. To publish a change, edit at least one field and send it as a new SKU.",
  tone: "info",
  retry: false,
};

/** The text for an import response; `alreadyExisted` for the HTTP 200 answer. */
export function explainImportStatus(statusCode: number, options: { alreadyExisted?: boolean } = {}): ImportStatusText {
  if (statusCode === 0 && options.alreadyExisted) return ALREADY_EXISTS_TEXT;
  const known = STATUS_TEXT[statusCode as SkuStatusCode] as ImportStatusText | undefined;
  return (
    known ?? {
      title: `The marketplace answered with status code ${statusCode}`,
      meaning: "This status code is not among those the marketplace documents; the SKU was probably not imported.",
      action: "Check the catalogue before sending the SKU again.",
      tone: "error",
      retry: true,
    }
  );
}

// ---------------------------------------------------------------------------------------------
// Field paths

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
    // An empty key is kept (a language left blank is the key ""), an empty name before
    // indices is not.
    if (match[1] !== undefined && (match[1] !== "" || !match[2])) segments.push(match[1]);
    for (const index of (match[2] ?? "").matchAll(/\[(\d+)\]/g)) segments.push(Number(index[1]));
  }
  return segments;
}

/** The inverse of `parseFieldPath` is the one path writer of lib/marketplace/schemas/field-path.ts. */
export { formatFieldPath };

/**
 * A language key of the body points at the row of the form that holds it: the value field when
 * the key is a valid language, the language field when the key itself is what is wrong.
 */
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

/**
 * Maps a path of the SKU body, as the platform names it in `errors[].field` (e.g.
 * `title.pt_BR`, `attributes.variant[0].display.en_US.name`), to the form field showing it.
 * Paths the form has no field for (`body`, `authorization`, `query.x`) come back unchanged.
 */
export function importFieldToFormPath(field: string, state: SkuFormState): string {
  const [head, ...rest] = parseFieldPath(field);
  switch (head) {
    case "title":
      return languageRow(state.titles, "titles", rest[0], rest.slice(1), "value");
    case "description":
      return languageRow(state.descriptions, "descriptions", rest[0], rest.slice(1), null);
    case "extras":
      // One JSON text area holds the whole object.
      return "extras";
    case "tags":
      // A tag is a row of the form, its text the row's value.
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

/** The platform's (or the schema's) errors, grouped by form field path. */
export function mapImportErrors(errors: readonly ImportError[], state: SkuFormState): FieldErrors {
  const mapped: FieldErrors = {};
  for (const error of errors) {
    const path = importFieldToFormPath(error.field, state);
    const messages = (mapped[path] ??= []);
    if (!messages.includes(error.message)) messages.push(error.message);
  }
  return mapped;
}
