// Reading loosely typed records of a list answer: dotted paths, values compared the way the spec
// means them (timestamps as instants, numbers as numbers), text folded for partial matches.

export type WireRecord = Record<string, unknown>;

export type Scalar = string | number | boolean;

export function isScalar(value: unknown): value is Scalar {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

/** `customer.name` → record.customer.name (spec: Generic list rules, point 3: nested fields by dotted path). */
export function readPath(record: unknown, path: string): unknown {
  let value = record;
  for (const key of path.split(".")) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

export function recordId(record: WireRecord): string {
  return String(record.id);
}

/** Fields named `*_at` are timestamps (spec: General conventions); they compare as instants. */
export function isTimestampField(path: string): boolean {
  return (path.split(".").at(-1) ?? "").endsWith("_at");
}

/** Negative, zero or positive as `a` sorts before, with or after `b`; NaN when they cannot be compared. */
export function compareValues(path: string, a: unknown, b: unknown): number {
  if (isTimestampField(path)) {
    const left = Date.parse(String(a));
    const right = Date.parse(String(b));
    return Number.isNaN(left) || Number.isNaN(right) ? Number.NaN : left - right;
  }
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "number" || typeof b === "number") {
    const left = Number(a);
    const right = Number(b);
    return Number.isNaN(left) || Number.isNaN(right) ? Number.NaN : left - right;
  }
  if (typeof a !== "string" || typeof b !== "string") return Number.NaN;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Case and accents folded: the spec says only "partial match", so the kit accepts a platform that
 * matches either way and looks for text taken as written from a record.
 */
export function foldText(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}
