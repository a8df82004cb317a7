// As the platform writes `errors[].field` (spec: SKU import response), for every place that names a field.

/** `["dimensions", 0, "height", "value"]` → `dimensions[0].height.value`; the empty path is "". */
export function formatFieldPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += out === "" ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

/** A zod issue's path in that form; an issue about the whole body (empty path) is `body`. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  return formatFieldPath(path) || "body";
}
