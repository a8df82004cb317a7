// Form paths are written as the platform writes body paths (`titles[0].value`); react-hook-form
// uses dots and a list's `root`. Errors about nothing the form shows go under the form's `root`.
import { get, set } from "react-hook-form";
import type { FieldError, FieldErrors as HookFormErrors } from "react-hook-form";
import type { FieldErrors } from "@/lib/action-state";
import { formatFieldPath, parseFieldPath } from "./import-status";
import type { SkuFormState } from "./sku-form-state";

const FORM_KEYS: ReadonlySet<string> = new Set<keyof SkuFormState>([
  "code",
  "titles",
  "variation_key",
  "condition",
  "brand",
  "tags",
  "available",
  "origin",
  "datasheet",
  "dimensions",
  "descriptions",
  "identifiers",
  "attributes",
  "medias",
  "extras",
]);

/** `titles[0].value` → `titles.0.value`, `titles` → `titles.root`. */
export function toFieldName(path: string, values: SkuFormState): string {
  const segments = parseFieldPath(path);
  const name = segments.join(".");
  if (typeof segments[0] !== "string" || !FORM_KEYS.has(segments[0])) return `root.${name.replace(/\./g, "_")}`;
  return Array.isArray(get(values, name)) ? `${name}.root` : name;
}

/** One message per field. */
export function toHookFormErrors(errors: FieldErrors, values: SkuFormState, type = "validate"): HookFormErrors<SkuFormState> {
  const nested = {};
  for (const [path, messages] of Object.entries(errors)) {
    if (messages.length === 0) continue;
    const name = toFieldName(path, values);
    // An array, so react-hook-form can shift it when a row is removed.
    if (name.endsWith(".root") && get(nested, name.slice(0, -5)) === undefined) set(nested, name.slice(0, -5), []);
    set(nested, name, { type, message: messages.join("; ") } satisfies FieldError);
  }
  return nested;
}

const isLeaf = (node: unknown): node is FieldError =>
  typeof node === "object" && node !== null && typeof (node as { message?: unknown }).message === "string";

/** In form order, keyed by form path (the inverse of `toFieldName`), for the form's summary. */
export function listErrors(errors: HookFormErrors<SkuFormState>): { path: string; message: string }[] {
  const found: { path: string; message: string }[] = [];
  const walk = (node: unknown, segments: (string | number)[]) => {
    if (isLeaf(node)) {
      const path =
        segments[0] === "root"
          ? segments.slice(1).join(".")
          : formatFieldPath(segments.at(-1) === "root" ? segments.slice(0, -1) : segments);
      if (node.message) found.push({ path, message: node.message });
      return;
    }
    if (typeof node !== "object" || node === null) return;
    // A list's own error comes before its rows'.
    if (Array.isArray(node) && "root" in node) walk((node as { root?: unknown }).root, [...segments, "root"]);
    for (const [key, child] of Object.entries(node)) {
      if (key === "ref" || (Array.isArray(node) && key === "root")) continue;
      walk(child, [...segments, /^\d+$/.test(key) ? Number(key) : key]);
    }
  };
  walk(errors, []);
  return found;
}
