import "server-only";
import { dehydrate, QueryClient } from "@tanstack/react-query";
import type { DehydratedState } from "@tanstack/react-query";
import type { PlatformResult } from "@/lib/platform-problem";
import type { FilterDefinition, TableState } from "@/lib/tables/table-params";
import type { TableSchema } from "@/lib/tables/table-schema";

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
 * The first page of a table, rendered on the server: the page's URL validated with the table's
 * schema, loaded as the table's route handler would (`load` is the same function), and
 * handed to the browser's React Query under the key the table reads (`[key, shopId, state]`), so the
 * rows are in the HTML and the browser does not ask again. Later pages and refreshes stay in the
 * browser. A URL the table refuses, or a platform problem, renders nothing here: the table then
 * asks its route handler, which explains. `urlValid` tells the table whether the URL's filters
 * were refused (the first page is then the unfiltered one, and the table says so).
 */
export async function prefetchTablePage<Filters extends Record<string, FilterDefinition>, Sort extends string>(
  key: string,
  /** The shop of the page: part of the key, so one shop's rows never show on another's page. */
  shopId: string,
  schema: TableSchema<Filters, Sort>,
  searchParams: Record<string, string | string[] | undefined>,
  load: (state: TableState<Filters, Sort>) => Promise<PlatformResult<unknown>>,
): Promise<{ state: DehydratedState; urlValid: boolean }> {
  const queryClient = new QueryClient();
  const parsed = schema.parse(toSearchParams(searchParams));
  // Refused filters are ignored, as the table in the browser does: the first page then shows unfiltered.
  const state = parsed.success ? parsed.data : schema.parse(new URLSearchParams()).data;
  if (state) {
    const result = await load(state);
    // Exactly what the route handler would send: JSON (dates as text).
    if (result.ok) queryClient.setQueryData([key, shopId, state], JSON.parse(JSON.stringify(result.data)) as unknown);
  }
  return { state: dehydrate(queryClient), urlValid: parsed.success };
}
