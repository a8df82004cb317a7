import "server-only";
import { dehydrate, QueryClient } from "@tanstack/react-query";
import type { DehydratedState } from "@tanstack/react-query";
import type { PlatformResult } from "@/lib/platform-problem";
import type { FilterDefinition, TableParams, TableState } from "@/lib/tables/table-params";

/** A page's `searchParams` as URL parameters (a repeated parameter keeps its last value, as URLs are read everywhere else). */
export function toSearchParams(searchParams: Record<string, string | string[] | undefined>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(searchParams)) {
    const last = Array.isArray(value) ? value.at(-1) : value;
    if (last !== undefined) params.set(key, last);
  }
  return params;
}

/**
 * The first page of a table, rendered on the server: the page's URL read with the table's
 * declaration, loaded as the table's route handler would (`load` is the same function), and
 * handed to the browser's React Query under the key the table reads (`[key, state]`), so the
 * rows are in the HTML and the browser does not ask again. Later pages and refreshes stay in the
 * browser. A URL the table refuses, or a platform problem, renders nothing here: the table then
 * asks its route handler, which explains.
 */
export async function prefetchTablePage<Filters extends Record<string, FilterDefinition>, Sort extends string>(
  key: string,
  table: TableParams<Filters, Sort>,
  searchParams: Record<string, string | string[] | undefined>,
  load: (state: TableState<Filters, Sort>) => Promise<PlatformResult<unknown>>,
): Promise<DehydratedState> {
  const queryClient = new QueryClient();
  const parsed = table.parse(toSearchParams(searchParams));
  if (parsed.success) {
    const result = await load(parsed.data);
    // Exactly what the route handler would send: JSON (dates as text).
    if (result.ok) queryClient.setQueryData([key, parsed.data], JSON.parse(JSON.stringify(result.data)) as unknown);
  }
  return dehydrate(queryClient);
}
