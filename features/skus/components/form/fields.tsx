"use client";

import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { get, useFormContext, useFormState, useWatch } from "react-hook-form";
import type { FieldPath } from "react-hook-form";
import { formatFieldPath } from "@/features/skus/import-status";
import { validateSku } from "@/features/skus/sku-form";
import type { SkuFormState } from "@/features/skus/sku-form-state";
import { inputClass, removeButton } from "./styles";

// The New SKU form's building blocks, bound to react-hook-form by field name. A field shows its
// error once it was validated: as the seller types or leaves it, or for every field after a
// submit attempt; the platform's errors stay on their field until the seller edits it.

export type SkuFieldName = FieldPath<SkuFormState>;

/** A DOM id for a field: `titles.0.value` (or `titles[0].value`) → `sku-titles-0-value`. */
export function fieldId(path: string): string {
  return `sku-${path.replace(/[^A-Za-z0-9_]+/g, "-").replace(/-$/, "")}`;
}

function describedBy(id: string, hint: boolean, error: string | undefined): string | undefined {
  return [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
}

/** The message of the field's own error (for a list: the list's `root` error). */
function useFieldError(name: string): string | undefined {
  const { errors } = useFormState<SkuFormState>({ name: name as SkuFieldName });
  const error: unknown = get(errors, name);
  const own = Array.isArray(error) ? (error as { root?: { message?: string } }).root : (error as { message?: unknown } | undefined);
  return typeof own?.message === "string" && own.message !== "" ? own.message : undefined;
}

/**
 * Validates one field as the seller edits or leaves it, with the lists around it (their own
 * errors, such as "title in pt_BR is required", follow at once); rows not touched yet keep their
 * errors to themselves until a submit attempt. The platform's error on a field stays until the
 * field is edited: leaving it keeps it. (react-hook-form's own modes would re-validate whole
 * lists when a row is added or removed, showing untouched rows' errors and dropping the
 * platform's, so the form validates on submit only and fields call this.)
 */
function useFieldValidation(name: SkuFieldName) {
  const { getValues, getFieldState, setError, clearErrors } = useFormContext<SkuFormState>();
  const t = useTranslations("skus.validation");
  const validate = () => {
    const { errors } = validateSku(getValues(), t);
    const segments = name.split(".").map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
    const own = errors[formatFieldPath(segments)];
    if (own) setError(name, { type: "validate", message: own.join("; ") });
    else clearErrors(name);
    segments.forEach((segment, index) => {
      if (typeof segment !== "number" || index === 0) return;
      const list = segments.slice(0, index);
      const rootName = `${list.join(".")}.root` as SkuFieldName;
      const listErrors = errors[formatFieldPath(list)];
      if (listErrors) setError(rootName, { type: "validate", message: listErrors.join("; ") });
      else if (getFieldState(rootName).error) clearErrors(rootName);
    });
  };
  return {
    onChange: validate,
    onBlur: () => {
      if (getFieldState(name).error?.type !== "server") validate();
    },
  };
}

function FieldLabel({ id, label, required }: { id: string; label: ReactNode; required?: boolean }) {
  return (
    <label htmlFor={id} className="block text-sm font-medium text-zinc-800">
      {label}
      {required ? <span aria-hidden="true"> *</span> : null}
    </label>
  );
}

export function ErrorText({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="mt-1 text-sm text-red-800" data-testid="field-error">
      {message}
    </p>
  );
}

interface TextFieldProps {
  name: SkuFieldName;
  label: ReactNode;
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

export function TextField({
  name,
  label,
  hint,
  max,
  required,
  multiline,
  mono,
  type = "text",
  inputMode,
  placeholder,
  className,
}: TextFieldProps) {
  const { register } = useFormContext<SkuFormState>();
  const t = useTranslations("skus.form");
  const error = useFieldError(name);
  const validation = useFieldValidation(name);
  const value: unknown = useWatch<SkuFormState>({ name, disabled: max === undefined });
  const id = fieldId(name);
  const length = typeof value === "string" ? value.length : 0;
  const hintText = [hint, max !== undefined ? t("characters", { length, max }) : null].filter(Boolean).join(" · ");
  const common = {
    id,
    placeholder,
    "aria-invalid": error ? true : undefined,
    "aria-required": required || undefined,
    "aria-describedby": describedBy(id, hintText !== "", error),
    className: `${inputClass} ${mono ? "font-mono" : ""}`,
    ...register(name, validation),
  };
  return (
    <div className={className}>
      <FieldLabel id={id} label={label} required={required} />
      {multiline ? <textarea {...common} rows={3} /> : <input {...common} type={type} inputMode={inputMode} />}
      {hintText ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-zinc-600">
          {hintText}
        </p>
      ) : null}
      <ErrorText id={`${id}-error`} message={error} />
    </div>
  );
}

export function SelectField<Option extends string>({
  name,
  label,
  options,
  optionLabel = (option) => option,
  required,
  emptyOption,
  className,
}: {
  name: SkuFieldName;
  label: ReactNode;
  /** The values the platform knows (spec: SKU table). */
  options: readonly Option[];
  /** What the seller reads for a value; the value itself (a unit, an identifier type) by default. */
  optionLabel?: (option: Option) => string;
  required?: boolean;
  emptyOption?: string;
  className?: string;
}) {
  const { register } = useFormContext<SkuFormState>();
  const error = useFieldError(name);
  const validation = useFieldValidation(name);
  const id = fieldId(name);
  return (
    <div className={className}>
      <FieldLabel id={id} label={label} required={required} />
      <select
        id={id}
        aria-invalid={error ? true : undefined}
        aria-required={required || undefined}
        aria-describedby={describedBy(id, false, error)}
        className={inputClass}
        {...register(name, validation)}
      >
        {emptyOption !== undefined ? <option value="">{emptyOption}</option> : null}
        {options.map((option) => (
          <option key={option} value={option}>
            {optionLabel(option)}
          </option>
        ))}
      </select>
      <ErrorText id={`${id}-error`} message={error} />
    </div>
  );
}

/** A group of fields with its own errors (e.g. "title in pt_BR is required" on the titles). */
export function Group({
  name,
  legend,
  hint,
  required,
  children,
  actions,
}: {
  name: string;
  legend: string;
  hint?: string;
  required?: boolean;
  children: ReactNode;
  actions?: ReactNode;
}) {
  const error = useFieldError(name);
  const id = fieldId(name);
  return (
    <fieldset
      id={id}
      aria-describedby={describedBy(id, !!hint, error)}
      className="space-y-3 rounded-lg border border-zinc-200 bg-white p-5"
      tabIndex={-1}
    >
      <legend className="px-1 text-base font-semibold text-zinc-900">
        {legend}
        {required ? <span aria-hidden="true"> *</span> : null}
      </legend>
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-zinc-600">
          {hint}
        </p>
      ) : null}
      <ErrorText id={`${id}-error`} message={error} />
      {children}
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </fieldset>
  );
}

/** A list inside a row (an attribute's display languages), with the list's own errors. */
export function SubList({ name, heading, children }: { name: string; heading: string; children: ReactNode }) {
  const error = useFieldError(name);
  const id = fieldId(name);
  return (
    <div id={id} tabIndex={-1} aria-describedby={describedBy(id, false, error)} className="space-y-2">
      <p className="text-sm font-medium text-zinc-700">{heading}</p>
      <ErrorText id={`${id}-error`} message={error} />
      {children}
    </div>
  );
}

export function Row({ children, onRemove, removeLabel }: { children: ReactNode; onRemove?: () => void; removeLabel: string }) {
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

export const SrOnly = ({ children }: { children: ReactNode }) => <span className="sr-only">{children}</span>;

/** The `<sr>…</sr>` tag of a label's message (`t.rich`): words only screen readers need. */
export const sr = (chunks: ReactNode) => <SrOnly>{chunks}</SrOnly>;

/** The current text of a field, for labels that name a row by its language. */
export function useText(name: SkuFieldName): string {
  const value: unknown = useWatch<SkuFormState>({ name });
  return typeof value === "string" ? value : "";
}
