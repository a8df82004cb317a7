import type { FilterDefinition } from "@/lib/tables/table-params";

/** The message keys a filter's form shows: its label, its empty choice, placeholder and option words. */
export function filterLabelKeys(filter: FilterDefinition): string[] {
  const keys = [filter.label];
  if (filter.kind === "select") keys.push(filter.emptyLabel);
  if (filter.kind === "text" && filter.placeholder) keys.push(filter.placeholder);
  if ((filter.kind === "select" || filter.kind === "choices") && filter.optionLabels) {
    for (const option of filter.options) keys.push(`${filter.optionLabels}.${option}`);
  }
  return keys;
}
