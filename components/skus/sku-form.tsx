"use client";

import Link from "next/link";
import { createContext, startTransition, useActionState, useCallback, useContext, useMemo, useRef, useState } from "react";
import type { ReactNode } from "react";
import { ProblemNotice } from "@/components/platform/problem-notice";
import { createSkuAction } from "@/lib/actions/skus";
import type { CreateSkuState } from "@/lib/actions/skus";
import type { ImportError } from "@/lib/marketplace/schemas/sku";
import { explainImportStatus, importFieldToFormPath, mapImportErrors, parseFieldPath } from "@/lib/skus/import-status";
import type { ImportStatusText } from "@/lib/skus/import-status";
import {
  ATTRIBUTE_GROUPS,
  CONDITIONS,
  DIMENSION_NAMES,
  IDENTIFIER_TYPES,
  LENGTH_UNITS,
  MANDATORY_LANGUAGE,
  ORIGINS,
  WEIGHT_UNITS,
  emptyAttribute,
  emptyDescriptionRow,
  emptyDimension,
  emptyDisplayRow,
  emptyIdentifier,
  emptyMedia,
  emptyTitleRow,
  validateSku,
} from "@/lib/skus/sku-form";
import type { AttributeGroup, FieldErrors, MeasureState, SkuFormState } from "@/lib/skus/sku-form";

// The New SKU form: every field of the spec's SKU table. What the seller types lives in React
// state and is never reset by a submission, so no outcome loses it. Errors come from the shared
// schema as the seller types (shown once a field was touched, or all after a submit attempt) and
// from the platform's import response (shown until the field is edited).

/** A DOM id for a form field path: `titles[0].value` → `sku-titles-0-value`. */
function fieldId(path: string): string {
  return `sku-${path.replace(/[^A-Za-z0-9_]+/g, "-").replace(/-$/, "")}`;
}

/** `a` is `b` or inside it: `titles[0].value` is inside `titles`. */
const within = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}[`) || path.startsWith(`${prefix}.`);

const SEGMENT_LABELS: Record<string, string> = {
  code: "Code",
  titles: "Title",
  variation_key: "Variation key",
  condition: "Condition",
  brand: "Brand",
  tags: "Tag",
  available: "Available",
  origin: "Origin",
  datasheet: "Datasheet",
  reference: "URL",
  dimensions: "Dimension",
  descriptions: "Description",
  verbose_value: "full text",
  simplified_value: "short text",
  identifiers: "Identifier",
  attributes: "Attributes",
  variant: "variant",
  optional: "optional",
  display: "display",
  medias: "Media",
  extras: "Extras",
  body: "The SKU",
  authorization: "Authorization",
};

/** A readable name for a field path, for the error summary: `dimensions[0].height.value` → "Dimension 1 height value". */
function describeField(path: string): string {
  return parseFieldPath(path)
    .map((segment) => (typeof segment === "number" ? String(segment + 1) : (SEGMENT_LABELS[segment] ?? segment.replace(/_/g, " "))))
    .join(" ");
}

interface Feedback {
  errorsFor: (path: string) => string[];
  touch: (path: string) => void;
}
const FeedbackContext = createContext<Feedback>({ errorsFor: () => [], touch: () => {} });
const useFeedback = () => useContext(FeedbackContext);

const inputClass =
  "mt-1 w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm aria-invalid:border-red-500 aria-invalid:ring-1 aria-invalid:ring-red-500";
const smallButton = "rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-zinc-50";
const removeButton = "text-sm text-red-700 hover:underline";

function describedBy(id: string, hint: boolean, errors: readonly string[]): string | undefined {
  return [hint ? `${id}-hint` : null, errors.length > 0 ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
}

function ErrorText({ id, errors }: { id: string; errors: readonly string[] }) {
  if (errors.length === 0) return null;
  return (
    <p id={id} className="mt-1 text-sm text-red-700" data-testid="field-error">
      {errors.join("; ")}
    </p>
  );
}

interface TextFieldProps {
  path: string;
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  hint?: string;
  /** Shows a character count against the spec's limit. */
  max?: number;
  required?: boolean;
  multiline?: boolean;
  mono?: boolean;
  type?: "text" | "url";
  inputMode?: "decimal" | "numeric";
  placeholder?: string;
  className?: string;
}

function TextField({ path, label, value, onChange, hint, max, required, multiline, mono, type = "text", inputMode, placeholder, className }: TextFieldProps) {
  const { errorsFor, touch } = useFeedback();
  const id = fieldId(path);
  const errors = errorsFor(path);
  const hintText = [hint, max !== undefined ? `${value.length}/${max} characters` : null].filter(Boolean).join(" · ");
  const common = {
    id,
    name: path,
    value,
    placeholder,
    "aria-invalid": errors.length > 0 || undefined,
    "aria-required": required || undefined,
    "aria-describedby": describedBy(id, hintText !== "", errors),
    onBlur: () => touch(path),
    className: `${inputClass} ${mono ? "font-mono" : ""}`,
  };
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800">
        {label}
        {required ? <span aria-hidden="true"> *</span> : null}
      </label>
      {multiline ? (
        <textarea {...common} rows={3} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input {...common} type={type} inputMode={inputMode} onChange={(event) => onChange(event.target.value)} />
      )}
      {hintText ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-zinc-500">
          {hintText}
        </p>
      ) : null}
      <ErrorText id={`${id}-error`} errors={errors} />
    </div>
  );
}

function SelectField({
  path,
  label,
  value,
  options,
  onChange,
  required,
  emptyOption,
  className,
}: {
  path: string;
  label: ReactNode;
  value: string;
  options: readonly string[];
  onChange: (value: string) => void;
  required?: boolean;
  emptyOption?: string;
  className?: string;
}) {
  const { errorsFor, touch } = useFeedback();
  const id = fieldId(path);
  const errors = errorsFor(path);
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800">
        {label}
        {required ? <span aria-hidden="true"> *</span> : null}
      </label>
      <select
        id={id}
        name={path}
        value={value}
        aria-invalid={errors.length > 0 || undefined}
        aria-required={required || undefined}
        aria-describedby={describedBy(id, false, errors)}
        onBlur={() => touch(path)}
        onChange={(event) => onChange(event.target.value)}
        className={inputClass}
      >
        {emptyOption !== undefined ? <option value="">{emptyOption}</option> : null}
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
      <ErrorText id={`${id}-error`} errors={errors} />
    </div>
  );
}

/** A group of fields with its own errors (e.g. "title in pt_BR is required" on the titles). */
function Group({ path, legend, hint, required, children, actions }: { path: string; legend: string; hint?: string; required?: boolean; children: ReactNode; actions?: ReactNode }) {
  const { errorsFor } = useFeedback();
  const id = fieldId(path);
  const errors = errorsFor(path);
  return (
    <fieldset id={id} aria-describedby={describedBy(id, !!hint, errors)} className="space-y-3 rounded-lg border border-zinc-200 bg-white p-5" tabIndex={-1}>
      <legend className="px-1 text-base font-semibold text-zinc-900">
        {legend}
        {required ? <span aria-hidden="true"> *</span> : null}
      </legend>
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-zinc-600">
          {hint}
        </p>
      ) : null}
      <ErrorText id={`${id}-error`} errors={errors} />
      {children}
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </fieldset>
  );
}

function Row({ children, onRemove, removeLabel }: { children: ReactNode; onRemove?: () => void; removeLabel: string }) {
  return (
    <div className="rounded-md border border-zinc-200 bg-zinc-50 p-3">
      <div className="grid gap-3 sm:grid-cols-12">{children}</div>
      {onRemove ? (
        <button type="button" onClick={onRemove} className={`${removeButton} mt-2`}>
          {removeLabel}
        </button>
      ) : null}
    </div>
  );
}

const SrOnly = ({ children }: { children: ReactNode }) => <span className="sr-only">{children}</span>;

// ---------------------------------------------------------------------------------------------

export function SkuForm({ initial }: { initial: SkuFormState }) {
  const [form, setForm] = useState(initial);
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const [submitAttempted, setSubmitAttempted] = useState(false);
  /** Paths edited since the last submission: their server errors are out of date. */
  const [edited, setEdited] = useState<ReadonlySet<string>>(() => new Set());
  const [submittedForm, setSubmittedForm] = useState<SkuFormState | null>(null);
  const [result, dispatch, pending] = useActionState<CreateSkuState, FormData>(createSkuAction, { status: "idle" });
  const summaryRef = useRef<HTMLDivElement>(null);

  const validation = useMemo(() => validateSku(form), [form]);

  // The platform's (or the server's) errors name body paths; they are placed with the form as
  // it was when sent, so a row added since does not shift them.
  const serverErrors: FieldErrors = useMemo(
    () => (submittedForm && (result.status === "rejected" || result.status === "invalid") ? mapImportErrors(result.errors, submittedForm) : {}),
    [result, submittedForm],
  );

  const errorsFor = useCallback(
    (path: string) => {
      const shown = submitAttempted || [...touched].some((done) => within(done, path));
      const client = shown ? (validation.errors[path] ?? []) : [];
      const stale = [...edited].some((changed) => within(path, changed));
      const fromServer = stale ? [] : (serverErrors[path] ?? []);
      return [...new Set([...client, ...fromServer])];
    },
    [edited, serverErrors, submitAttempted, touched, validation.errors],
  );
  const touch = useCallback((path: string) => setTouched((previous) => (previous.has(path) ? previous : new Set(previous).add(path))), []);
  const feedback = useMemo(() => ({ errorsFor, touch }), [errorsFor, touch]);

  /** Applies a change to a copy of the form; `path` is what changed (for errors and staleness). */
  const edit = useCallback((path: string, change: (draft: SkuFormState) => void) => {
    setForm((previous) => {
      const next = structuredClone(previous);
      change(next);
      return next;
    });
    setTouched((previous) => new Set(previous).add(path));
    setEdited((previous) => new Set(previous).add(path));
  }, []);

  const visibleErrors = useMemo(() => {
    const paths = new Set([...Object.keys(submitAttempted ? validation.errors : {}), ...Object.keys(serverErrors)]);
    return [...paths].map((path) => ({ path, messages: errorsFor(path) })).filter((entry) => entry.messages.length > 0);
  }, [errorsFor, serverErrors, submitAttempted, validation.errors]);

  function submit(event: React.FormEvent<HTMLFormElement>) {
    // Sent by hand rather than through <form action>: React resets a form after its action,
    // and the seller's entries must survive every outcome.
    event.preventDefault();
    setSubmitAttempted(true);
    const check = validateSku(form);
    if (!check.ok) {
      requestAnimationFrame(() => summaryRef.current?.focus());
      return;
    }
    const data = new FormData();
    data.set("sku", JSON.stringify(check.sku));
    setSubmittedForm(form);
    setEdited(new Set());
    startTransition(() => dispatch(data));
  }

  const attributeLabel = (group: AttributeGroup) => (group === "variant" ? "Variant attribute" : "Optional attribute");

  return (
    <FeedbackContext.Provider value={feedback}>
      <form noValidate onSubmit={submit} className="space-y-6">
        {visibleErrors.length > 0 && !pending ? (
          <div
            id="sku-error-summary"
            ref={summaryRef}
            tabIndex={-1}
            role="alert"
            className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900"
          >
            <h2 className="font-semibold">
              {visibleErrors.length === 1 ? "1 field needs attention" : `${visibleErrors.length} fields need attention`}
            </h2>
            <ul className="mt-2 list-disc space-y-1 pl-5">
              {visibleErrors.map(({ path, messages }) => (
                <li key={path}>
                  <a href={`#${fieldId(path)}`} className="underline">
                    {describeField(path)}
                  </a>
                  : {messages.join("; ")}
                </li>
              ))}
            </ul>
          </div>
        ) : null}

        <Group path="identity" legend="Product">
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField path="code" label="Code" required max={50} mono value={form.code} onChange={(value) => edit("code", (f) => (f.code = value))} />
            <TextField
              path="variation_key"
              label="Variation key"
              hint="Code of the parent SKU; empty when none"
              max={50}
              mono
              value={form.variation_key}
              onChange={(value) => edit("variation_key", (f) => (f.variation_key = value))}
            />
            <TextField path="brand" label="Brand" required max={70} value={form.brand} onChange={(value) => edit("brand", (f) => (f.brand = value))} />
            <div className="grid grid-cols-2 gap-4">
              <SelectField path="condition" label="Condition" required options={CONDITIONS} value={form.condition} emptyOption="Choose…" onChange={(value) => edit("condition", (f) => (f.condition = value))} />
              <SelectField path="origin" label="Origin" required options={ORIGINS} value={form.origin} emptyOption="Choose…" onChange={(value) => edit("origin", (f) => (f.origin = value))} />
            </div>
            <div className="flex items-center gap-2">
              <input
                id={fieldId("available")}
                type="checkbox"
                checked={form.available}
                onChange={(event) => {
                  const checked = event.target.checked;
                  edit("available", (f) => (f.available = checked));
                }}
                className="size-4 rounded border-zinc-300"
              />
              <label htmlFor={fieldId("available")} className="text-sm font-medium text-zinc-800">
                Available for sale
              </label>
            </div>
            <TextField
              path="datasheet.reference"
              label="Datasheet URL"
              type="url"
              hint="Link to the technical sheet (optional)"
              value={form.datasheet.reference}
              onChange={(value) => edit("datasheet.reference", (f) => (f.datasheet.reference = value))}
            />
          </div>
        </Group>

        <Group
          path="titles"
          legend="Titles"
          required
          hint="One title per language, 1 to 150 characters. pt_BR is mandatory."
          actions={
            <button type="button" className={smallButton} onClick={() => edit("titles", (f) => f.titles.push(emptyTitleRow()))}>
              Add a title language
            </button>
          }
        >
          {form.titles.map((row, index) => (
            <Row key={index} removeLabel="Remove this title" onRemove={form.titles.length > 1 ? () => edit("titles", (f) => f.titles.splice(index, 1)) : undefined}>
              <TextField
                className="sm:col-span-3"
                path={`titles[${index}].language`}
                label={
                  <>
                    Language<SrOnly> of title {index + 1}</SrOnly>
                  </>
                }
                placeholder="en_US"
                mono
                value={row.language}
                onChange={(value) => edit(`titles[${index}].language`, (f) => (f.titles[index]!.language = value))}
              />
              <TextField
                className="sm:col-span-9"
                path={`titles[${index}].value`}
                label={`Title (${row.language || "new language"})`}
                required={row.language === MANDATORY_LANGUAGE}
                max={150}
                value={row.value}
                onChange={(value) => edit(`titles[${index}].value`, (f) => (f.titles[index]!.value = value))}
              />
            </Row>
          ))}
        </Group>

        <Group
          path="descriptions"
          legend="Descriptions"
          hint="Optional. When you give any, pt_BR is mandatory. The short text is at most 1000 characters."
          actions={
            <button
              type="button"
              className={smallButton}
              onClick={() => edit("descriptions", (f) => f.descriptions.push(emptyDescriptionRow(f.descriptions.some((d) => d.language === MANDATORY_LANGUAGE) ? "" : MANDATORY_LANGUAGE)))}
            >
              Add a description language
            </button>
          }
        >
          {form.descriptions.map((row, index) => (
            <Row key={index} removeLabel="Remove this description" onRemove={() => edit("descriptions", (f) => f.descriptions.splice(index, 1))}>
              <TextField
                className="sm:col-span-3"
                path={`descriptions[${index}].language`}
                label={
                  <>
                    Language<SrOnly> of description {index + 1}</SrOnly>
                  </>
                }
                mono
                value={row.language}
                onChange={(value) => edit(`descriptions[${index}].language`, (f) => (f.descriptions[index]!.language = value))}
              />
              <TextField
                className="sm:col-span-9"
                path={`descriptions[${index}].verbose_value`}
                label={`Full description (${row.language || "new language"})`}
                multiline
                value={row.verbose_value}
                onChange={(value) => edit(`descriptions[${index}].verbose_value`, (f) => (f.descriptions[index]!.verbose_value = value))}
              />
              <TextField
                className="sm:col-span-12"
                path={`descriptions[${index}].simplified_value`}
                label={`Short description (${row.language || "new language"})`}
                multiline
                max={1000}
                value={row.simplified_value}
                onChange={(value) => edit(`descriptions[${index}].simplified_value`, (f) => (f.descriptions[index]!.simplified_value = value))}
              />
            </Row>
          ))}
        </Group>

        <Group
          path="dimensions"
          legend="Dimensions"
          required
          hint="The package dimensions are required; the product's are optional. Values are decimals of 1 to 10 characters, such as 30.5."
          actions={
            <button
              type="button"
              className={smallButton}
              onClick={() => edit("dimensions", (f) => f.dimensions.push(emptyDimension(f.dimensions.some((d) => d.name === "package") ? "product" : "package")))}
            >
              Add dimensions
            </button>
          }
        >
          {form.dimensions.map((dimension, index) => {
            const context = `Dimensions ${index + 1} (${dimension.name || "unnamed"})`;
            const measure = (key: "height" | "width" | "length" | "weight", label: string, units: readonly string[]) => {
              const value: MeasureState = dimension[key];
              return (
                <div key={key} className="flex gap-2 sm:col-span-3">
                  <TextField
                    className="flex-1"
                    path={`dimensions[${index}].${key}.value`}
                    label={
                      <>
                        <SrOnly>{context} </SrOnly>
                        {label}
                      </>
                    }
                    required
                    inputMode="decimal"
                    value={value.value}
                    onChange={(text) => edit(`dimensions[${index}].${key}.value`, (f) => (f.dimensions[index]![key].value = text))}
                  />
                  <SelectField
                    className="w-20"
                    path={`dimensions[${index}].${key}.unit`}
                    label={
                      <>
                        <SrOnly>
                          {context} {label.toLowerCase()}{" "}
                        </SrOnly>
                        Unit
                      </>
                    }
                    options={units}
                    value={value.unit}
                    onChange={(unit) => edit(`dimensions[${index}].${key}.unit`, (f) => (f.dimensions[index]![key].unit = unit))}
                  />
                </div>
              );
            };
            return (
              <Row key={index} removeLabel="Remove these dimensions" onRemove={() => edit("dimensions", (f) => f.dimensions.splice(index, 1))}>
                <SelectField
                  className="sm:col-span-12 sm:max-w-48"
                  path={`dimensions[${index}].name`}
                  label={
                    <>
                      Dimensions of<SrOnly> (set {index + 1})</SrOnly>
                    </>
                  }
                  options={DIMENSION_NAMES}
                  value={dimension.name}
                  onChange={(name) => edit(`dimensions[${index}].name`, (f) => (f.dimensions[index]!.name = name))}
                />
                {measure("height", "Height", LENGTH_UNITS)}
                {measure("width", "Width", LENGTH_UNITS)}
                {measure("length", "Length", LENGTH_UNITS)}
                {measure("weight", "Weight", WEIGHT_UNITS)}
              </Row>
            );
          })}
        </Group>

        <Group
          path="identifiers"
          legend="Identifiers"
          hint="Optional. An EAN has 8, 12, 13 or 14 digits with a valid check digit."
          actions={
            <button type="button" className={smallButton} onClick={() => edit("identifiers", (f) => f.identifiers.push(emptyIdentifier()))}>
              Add an identifier
            </button>
          }
        >
          {form.identifiers.map((identifier, index) => (
            <Row key={index} removeLabel="Remove this identifier" onRemove={() => edit("identifiers", (f) => f.identifiers.splice(index, 1))}>
              <SelectField
                className="sm:col-span-3"
                path={`identifiers[${index}].type`}
                label={
                  <>
                    Type<SrOnly> of identifier {index + 1}</SrOnly>
                  </>
                }
                options={IDENTIFIER_TYPES}
                emptyOption="(none)"
                value={identifier.type}
                onChange={(type) => edit(`identifiers[${index}].type`, (f) => (f.identifiers[index]!.type = type))}
              />
              <TextField
                className="sm:col-span-9"
                path={`identifiers[${index}].value`}
                label={
                  <>
                    Value<SrOnly> of identifier {index + 1}</SrOnly>
                  </>
                }
                mono
                inputMode={identifier.type === "EAN" ? "numeric" : undefined}
                value={identifier.value}
                onChange={(value) => edit(`identifiers[${index}].value`, (f) => (f.identifiers[index]!.value = value))}
              />
            </Row>
          ))}
        </Group>

        {ATTRIBUTE_GROUPS.map((group) => (
          <Group
            key={group}
            path={`attributes.${group}`}
            legend={group === "variant" ? "Variant attributes" : "Optional attributes"}
            hint={
              group === "variant"
                ? "What distinguishes this variation, such as size or colour. Each may be shown per language; pt_BR is then mandatory."
                : "Further characteristics. Each may be shown per language; pt_BR is then mandatory."
            }
            actions={
              <button type="button" className={smallButton} onClick={() => edit(`attributes.${group}`, (f) => f.attributes[group].push(emptyAttribute()))}>
                Add {group === "variant" ? "a variant" : "an optional"} attribute
              </button>
            }
          >
            {form.attributes[group].map((attribute, index) => {
              const base = `attributes.${group}[${index}]`;
              const context = `${attributeLabel(group)} ${index + 1}`;
              return (
                <Row key={index} removeLabel="Remove this attribute" onRemove={() => edit(`attributes.${group}`, (f) => f.attributes[group].splice(index, 1))}>
                  <TextField
                    className="sm:col-span-6"
                    path={`${base}.name`}
                    label={
                      <>
                        <SrOnly>{context} </SrOnly>Name
                      </>
                    }
                    required
                    value={attribute.name}
                    onChange={(value) => edit(`${base}.name`, (f) => (f.attributes[group][index]!.name = value))}
                  />
                  <TextField
                    className="sm:col-span-6"
                    path={`${base}.value`}
                    label={
                      <>
                        <SrOnly>{context} </SrOnly>Value
                      </>
                    }
                    required
                    value={attribute.value}
                    onChange={(value) => edit(`${base}.value`, (f) => (f.attributes[group][index]!.value = value))}
                  />
                  <div className="sm:col-span-12">
                    <DisplayRows
                      path={`${base}.display`}
                      context={context}
                      rows={attribute.display}
                      onAdd={() =>
                        edit(`${base}.display`, (f) => {
                          const rows = f.attributes[group][index]!.display;
                          rows.push(emptyDisplayRow(rows.some((row) => row.language === MANDATORY_LANGUAGE) ? "" : MANDATORY_LANGUAGE));
                        })
                      }
                      onRemove={(row) => edit(`${base}.display`, (f) => f.attributes[group][index]!.display.splice(row, 1))}
                      onChange={(row, key, value) => edit(`${base}.display[${row}].${key}`, (f) => (f.attributes[group][index]!.display[row]![key] = value))}
                    />
                  </div>
                </Row>
              );
            })}
          </Group>
        ))}

        <Group
          path="tags"
          legend="Tags"
          hint="Optional; each 1 to 100 characters."
          actions={
            <button type="button" className={smallButton} onClick={() => edit("tags", (f) => f.tags.push(""))}>
              Add a tag
            </button>
          }
        >
          {form.tags.length > 0 ? (
            <div className="grid gap-3 sm:grid-cols-3">
              {form.tags.map((tag, index) => (
                <div key={index} className="flex items-end gap-2">
                  <TextField
                    className="flex-1"
                    path={`tags[${index}]`}
                    label={`Tag ${index + 1}`}
                    max={100}
                    value={tag}
                    onChange={(value) => edit(`tags[${index}]`, (f) => (f.tags[index] = value))}
                  />
                  <button type="button" className={`${removeButton} mb-7`} onClick={() => edit("tags", (f) => f.tags.splice(index, 1))} aria-label={`Remove tag ${index + 1}`}>
                    Remove
                  </button>
                </div>
              ))}
            </div>
          ) : null}
        </Group>

        <Group
          path="medias"
          legend="Media"
          hint="Optional images and other media: a name of 1 to 50 characters, a type such as image, and an http(s) URL."
          actions={
            <button type="button" className={smallButton} onClick={() => edit("medias", (f) => f.medias.push(emptyMedia()))}>
              Add media
            </button>
          }
        >
          {form.medias.map((media, index) => (
            <Row key={index} removeLabel="Remove this media" onRemove={() => edit("medias", (f) => f.medias.splice(index, 1))}>
              <TextField
                className="sm:col-span-3"
                path={`medias[${index}].name`}
                label={
                  <>
                    <SrOnly>Media {index + 1} </SrOnly>Name
                  </>
                }
                max={50}
                value={media.name}
                onChange={(value) => edit(`medias[${index}].name`, (f) => (f.medias[index]!.name = value))}
              />
              <TextField
                className="sm:col-span-2"
                path={`medias[${index}].type`}
                label={
                  <>
                    <SrOnly>Media {index + 1} </SrOnly>Type
                  </>
                }
                value={media.type}
                onChange={(value) => edit(`medias[${index}].type`, (f) => (f.medias[index]!.type = value))}
              />
              <TextField
                className="sm:col-span-7"
                path={`medias[${index}].reference`}
                label={
                  <>
                    <SrOnly>Media {index + 1} </SrOnly>URL
                  </>
                }
                type="url"
                value={media.reference}
                onChange={(value) => edit(`medias[${index}].reference`, (f) => (f.medias[index]!.reference = value))}
              />
            </Row>
          ))}
        </Group>

        <Group path="extras-group" legend="Extras">
          <TextField
            path="extras"
            label="Extras (JSON object)"
            hint="Additional information as a JSON object; leave empty for none."
            multiline
            mono
            placeholder='{"warranty_months": 12}'
            value={form.extras}
            onChange={(value) => edit("extras", (f) => (f.extras = value))}
          />
        </Group>

        <div className="flex flex-wrap items-center gap-4">
          <button
            type="submit"
            disabled={pending}
            className="rounded-md bg-brand-700 px-5 py-2.5 text-sm font-medium text-white hover:bg-brand-900 disabled:opacity-50"
          >
            {pending ? "Sending to the marketplace…" : "Create SKU"}
          </button>
          <span className="text-sm text-zinc-500">SKUs cannot be changed once created; a change is a new SKU.</span>
        </div>

        <ImportOutcome result={result} pending={pending} submittedForm={submittedForm} />
      </form>
    </FeedbackContext.Provider>
  );
}

function DisplayRows({
  path,
  context,
  rows,
  onAdd,
  onRemove,
  onChange,
}: {
  path: string;
  context: string;
  rows: SkuFormState["attributes"]["variant"][number]["display"];
  onAdd: () => void;
  onRemove: (row: number) => void;
  onChange: (row: number, key: "language" | "name" | "value" | "simplified_value", value: string) => void;
}) {
  const { errorsFor } = useFeedback();
  const id = fieldId(path);
  const errors = errorsFor(path);
  return (
    <div id={id} tabIndex={-1} aria-describedby={describedBy(id, false, errors)} className="space-y-2">
      <p className="text-sm font-medium text-zinc-700">How it is shown, per language</p>
      <ErrorText id={`${id}-error`} errors={errors} />
      {rows.map((row, index) => (
        <div key={index} className="grid gap-2 sm:grid-cols-12">
          <TextField
            className="sm:col-span-2"
            path={`${path}[${index}].language`}
            label={
              <>
                <SrOnly>{context} display </SrOnly>Language
              </>
            }
            mono
            value={row.language}
            onChange={(value) => onChange(index, "language", value)}
          />
          <TextField
            className="sm:col-span-3"
            path={`${path}[${index}].name`}
            label={
              <>
                <SrOnly>{context} </SrOnly>Shown name
              </>
            }
            value={row.name}
            onChange={(value) => onChange(index, "name", value)}
          />
          <TextField
            className="sm:col-span-3"
            path={`${path}[${index}].value`}
            label={
              <>
                <SrOnly>{context} </SrOnly>Shown value
              </>
            }
            value={row.value}
            onChange={(value) => onChange(index, "value", value)}
          />
          <TextField
            className="sm:col-span-3"
            path={`${path}[${index}].simplified_value`}
            label={
              <>
                <SrOnly>{context} </SrOnly>Short value
              </>
            }
            value={row.simplified_value}
            onChange={(value) => onChange(index, "simplified_value", value)}
          />
          <div className="flex items-end sm:col-span-1">
            <button type="button" className={`${removeButton} mb-2`} onClick={() => onRemove(index)} aria-label={`Remove ${context} display ${row.language || index + 1}`}>
              Remove
            </button>
          </div>
        </div>
      ))}
      <button type="button" className={smallButton} onClick={onAdd}>
        Add a display language
      </button>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------

const TONE_CLASSES: Record<ImportStatusText["tone"], string> = {
  success: "border-brand-100 bg-brand-50 text-brand-900",
  info: "border-sky-200 bg-sky-50 text-sky-900",
  warning: "border-amber-200 bg-amber-50 text-amber-900",
  error: "border-red-200 bg-red-50 text-red-900",
};

function Outcome({ text, children }: { text: ImportStatusText; children?: ReactNode }) {
  return (
    <section
      data-testid="sku-outcome"
      role={text.tone === "success" || text.tone === "info" ? "status" : "alert"}
      className={`space-y-2 rounded-lg border p-5 text-sm ${TONE_CLASSES[text.tone]}`}
    >
      <h2 className="text-base font-semibold">{text.title}</h2>
      <p>{text.meaning}</p>
      <p className="font-medium">{text.action}</p>
      {children}
    </section>
  );
}

/** The platform's own words, for support and for sellers who know the spec. */
function StatusLine({ statusCode, statusMessage, token }: { statusCode: number; statusMessage: string; token?: string }) {
  return (
    <p className="text-xs opacity-80">
      statusCode <code className="font-mono">{statusCode}</code> · “{statusMessage}”
      {token ? (
        <>
          {" "}
          · import token <code className="font-mono break-all">{token}</code>
        </>
      ) : null}
    </p>
  );
}

function ErrorList({ errors, form }: { errors: readonly ImportError[]; form: SkuFormState | null }) {
  if (errors.length === 0) return null;
  return (
    <ul className="list-disc space-y-1 pl-5">
      {errors.map((error, index) => {
        const path = form ? importFieldToFormPath(error.field, form) : error.field;
        return (
          <li key={index}>
            <a href={`#${fieldId(path)}`} className="underline">
              <code className="font-mono">{error.field}</code>
            </a>
            : {error.message}
          </li>
        );
      })}
    </ul>
  );
}

function ImportOutcome({ result, pending, submittedForm }: { result: CreateSkuState; pending: boolean; submittedForm: SkuFormState | null }) {
  if (pending) {
    return (
      <p role="status" className="text-sm text-zinc-600">
        Sending the SKU to the marketplace…
      </p>
    );
  }
  switch (result.status) {
    case "idle":
      return null;
    case "imported":
      return (
        <Outcome text={explainImportStatus(0, { alreadyExisted: result.alreadyExisted })}>
          <p>
            SKU <strong>{result.code}</strong> has the id <code data-testid="sku-created-id" className="font-mono">{result.id}</code>.
          </p>
          <p className="flex flex-wrap gap-4">
            <Link href={`/skus?search=${encodeURIComponent(result.code)}`} className="font-medium underline">
              See it in the catalogue
            </Link>
            <Link href={`/skus/${result.id}`} className="font-medium underline">
              Open the SKU
            </Link>
          </p>
          <StatusLine statusCode={0} statusMessage={result.statusMessage} token={result.token} />
        </Outcome>
      );
    case "rejected":
      return (
        <Outcome text={explainImportStatus(result.statusCode)}>
          <ErrorList errors={result.errors.filter((error) => error.field !== "authorization")} form={submittedForm} />
          <StatusLine statusCode={result.statusCode} statusMessage={result.statusMessage} token={result.token} />
        </Outcome>
      );
    case "invalid":
      return (
        <Outcome
          text={{
            title: "The SKU was not sent",
            meaning: "The dashboard checks SKUs with the marketplace's own rules before sending, and this one breaks some of them.",
            action: "Correct the fields marked above and send the SKU again.",
            tone: "error",
            retry: false,
          }}
        >
          <ErrorList errors={result.errors} form={submittedForm} />
        </Outcome>
      );
    case "problem": {
      const { problem } = result;
      if (problem.kind !== "error") return <ProblemNotice problem={problem} feature="creating SKUs" />;
      // A failure without an import-response body: explained by its HTTP status where the
      // sandbox's table ties one to a statusCode (429 → -2, 503 → -5, 500 → -1).
      const code = problem.status === 429 ? -2 : problem.status === 503 ? -5 : problem.status !== null && problem.status >= 500 ? -1 : null;
      if (code !== null) {
        return (
          <Outcome text={explainImportStatus(code)}>
            <p className="text-xs opacity-80">{problem.message}</p>
          </Outcome>
        );
      }
      return (
        <Outcome
          text={{
            title: "The marketplace could not take the SKU",
            meaning: problem.message,
            action: "Try again in a moment; your entries are kept.",
            tone: "error",
            retry: true,
          }}
        />
      );
    }
  }
}
