// The state mirrors the SKU body, so most error paths are the same in both. Objects keyed by
// language become rows with a `language` field, as the seller edits the key too.
import type { z } from "zod";
import { formatIssuePath, MANDATORY_LANGUAGE, skuCreateSchema } from "@marketplace/api/schemas/sku";
import type { ImportError, SkuCreate, SkuCreateInput } from "@marketplace/api/schemas/sku";
import { mapImportErrors } from "./import-status";
import { ATTRIBUTE_GROUPS } from "./sku-form-state";
import type { MeasureState, AttributeState, SkuFormState, FieldErrors } from "./sku-form-state";
import { sellerMessage } from "./validation-messages";
import type { SkuValidationWords } from "./validation-messages";

export { MANDATORY_LANGUAGE };
export type { SkuValidationWords };

const DECIMAL = /^\d+(\.\d+)?$/;

/** The spec types it as a float; anything else stays text for the schema to reject with its message. */
function dimensionValue(text: string): number | string {
  const trimmed = text.trim();
  return DECIMAL.test(trimmed) ? Number(trimmed) : trimmed;
}

const isBlank = (...values: string[]) => values.every((value) => value.trim() === "");

/** Left out when empty: "" would break its "min 1" rule (spec: SKU table). */
function optionalText<K extends string>(key: K, value: string): Partial<Record<K, string>> {
  return value === "" ? {} : ({ [key]: value } as Record<K, string>);
}

interface BodyResult {
  body: Record<string, unknown>;
  /** What the body cannot carry: a language given twice, extras that are not JSON. */
  errors: FieldErrors;
}

function addError(errors: FieldErrors, path: string, message: string) {
  (errors[path] ??= []).push(message);
}

/** A language given twice would silently lose a row, so it is an error. Blank rows are dropped. */
function languageRecord<Row extends { language: string }, Value>(
  rows: Row[],
  path: string,
  errors: FieldErrors,
  t: SkuValidationWords,
  isEmpty: (row: Row) => boolean,
  toValue: (row: Row) => Value,
): Record<string, Value> {
  const record: Record<string, Value> = {};
  const seen = new Set<string>();
  rows.forEach((row, index) => {
    const language = row.language.trim();
    if (language === "" && isEmpty(row)) return;
    if (seen.has(language)) {
      addError(errors, `${path}[${index}].language`, t("languageTwice", { language: language || t("emptyLanguage") }));
      return;
    }
    seen.add(language);
    record[language] = toValue(row);
  });
  return record;
}

function parseExtras(text: string, errors: FieldErrors, t: SkuValidationWords): unknown {
  if (text.trim() === "") return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      addError(errors, "extras", t("extrasNotObject"));
    }
    return value;
  } catch {
    addError(errors, "extras", t("extrasNotJson"));
    return text;
  }
}

/** Unvalidated (see `validateSku`). Rows keep their index, so the schema's paths point at the form's rows. */
export function formStateToSkuBody(state: SkuFormState, t: SkuValidationWords): BodyResult {
  const errors: FieldErrors = {};
  const attributes: Record<string, unknown> = {};
  for (const group of ATTRIBUTE_GROUPS) {
    const items = state.attributes[group];
    if (items.length === 0) continue;
    attributes[group] = items.map((item, index) => {
      const display = languageRecord(
        item.display,
        `attributes.${group}[${index}].display`,
        errors,
        t,
        (row) => isBlank(row.name, row.value, row.simplified_value),
        (row) => ({
          ...optionalText("name", row.name),
          ...optionalText("value", row.value),
          ...optionalText("simplified_value", row.simplified_value),
        }),
      );
      return { name: item.name, value: item.value, ...(Object.keys(display).length > 0 ? { display } : {}) };
    });
  }

  const body: Record<string, unknown> = {
    code: state.code,
    title: languageRecord(
      state.titles,
      "titles",
      errors,
      t,
      (row) => isBlank(row.value),
      (row) => row.value,
    ),
    variation_key: state.variation_key,
    condition: state.condition,
    brand: state.brand,
    tags: state.tags.map((tag) => tag.value),
    available: state.available,
    origin: state.origin,
    datasheet: optionalText("reference", state.datasheet.reference.trim()),
    dimensions: state.dimensions.map((dimension) => ({
      name: dimension.name,
      height: { value: dimensionValue(dimension.height.value), unit: dimension.height.unit },
      width: { value: dimensionValue(dimension.width.value), unit: dimension.width.unit },
      length: { value: dimensionValue(dimension.length.value), unit: dimension.length.unit },
      weight: { value: dimensionValue(dimension.weight.value), unit: dimension.weight.unit },
    })),
    description: languageRecord(
      state.descriptions,
      "descriptions",
      errors,
      t,
      (row) => isBlank(row.verbose_value, row.simplified_value),
      // "empty string when none" (spec: SKU table), so always sent.
      (row) => ({ ...optionalText("verbose_value", row.verbose_value), simplified_value: row.simplified_value }),
    ),
    identifiers: state.identifiers.map((identifier) => ({
      ...optionalText("type", identifier.type),
      ...optionalText("value", identifier.value.trim()),
    })),
    attributes,
    medias: state.medias.map((media) => ({
      ...optionalText("name", media.name),
      ...optionalText("type", media.type),
      ...optionalText("reference", media.reference.trim()),
    })),
    extras: parseExtras(state.extras, errors, t),
  };
  return { body, errors };
}

const measure = (input: { value: number | string; unit: string }): MeasureState => ({ value: String(input.value), unit: input.unit });

/** "New version from this SKU": SKUs are immutable (spec: SKU and price immutability). */
export function skuToFormState(sku: SkuCreateInput): SkuFormState {
  const titles = Object.entries(sku.title).map(([language, value]) => ({ language, value }));
  titles.sort((a, b) => Number(b.language === MANDATORY_LANGUAGE) - Number(a.language === MANDATORY_LANGUAGE));
  const attribute = (item: NonNullable<SkuCreateInput["attributes"]["variant"]>[number]): AttributeState => ({
    name: item.name,
    value: item.value,
    display: Object.entries(item.display ?? {}).map(([language, display]) => ({
      language,
      name: display.name ?? "",
      value: display.value ?? "",
      simplified_value: display.simplified_value ?? "",
    })),
  });
  const extras = sku.extras;
  return {
    code: sku.code,
    titles,
    variation_key: sku.variation_key,
    condition: sku.condition,
    brand: sku.brand,
    tags: sku.tags.map((value) => ({ value })),
    available: sku.available,
    origin: sku.origin,
    datasheet: { reference: sku.datasheet.reference ?? "" },
    dimensions: sku.dimensions.map((dimension) => ({
      name: dimension.name,
      height: measure(dimension.height),
      width: measure(dimension.width),
      length: measure(dimension.length),
      weight: measure(dimension.weight),
    })),
    descriptions: Object.entries(sku.description).map(([language, description]) => ({
      language,
      verbose_value: description.verbose_value ?? "",
      simplified_value: description.simplified_value ?? "",
    })),
    identifiers: sku.identifiers.map((identifier) => ({ type: identifier.type ?? "", value: identifier.value ?? "" })),
    attributes: { variant: (sku.attributes.variant ?? []).map(attribute), optional: (sku.attributes.optional ?? []).map(attribute) },
    medias: sku.medias.map((media) => ({ name: media.name ?? "", type: media.type ?? "", reference: media.reference ?? "" })),
    extras: Object.keys(extras).length === 0 ? "" : JSON.stringify(extras, null, 2),
  };
}

/** In the platform's `errors` form, worded for the seller. */
export function skuIssuesToImportErrors(error: z.ZodError, t: SkuValidationWords): ImportError[] {
  return error.issues.map((issue) => ({ field: formatIssuePath(issue.path), message: sellerMessage(issue, t) }));
}

export type SkuValidation = { ok: true; sku: SkuCreate; errors: FieldErrors } | { ok: false; errors: FieldErrors };

/** With the schema the sandbox and the server action use too; errors keyed by form path. */
export function validateSku(state: SkuFormState, t: SkuValidationWords): SkuValidation {
  const { body, errors } = formStateToSkuBody(state, t);
  const parsed = skuCreateSchema.safeParse(body);
  if (parsed.success && Object.keys(errors).length === 0) return { ok: true, sku: parsed.data, errors: {} };
  const schemaErrors = parsed.success ? {} : mapImportErrors(skuIssuesToImportErrors(parsed.error, t), state);
  // The form's own message wins: the schema only sees the consequence ("must be an object").
  return { ok: false, errors: { ...schemaErrors, ...errors } };
}
