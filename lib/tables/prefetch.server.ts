import "server-only";
import { dehydrate, QueryClient } from "@tanstack/react-query";
import type { DehydratedState } from "@tanstack/react-query";
import type { PlatformResult } from "@/lib/platform-problem";
import type { FilterDefinition, TableState } from "@/lib/tables/table-params";
import type { TableSchema } from "@/lib/tables/table-schema";
import { queryKeys } from "@/lib/tables/query-keys";
import type { QueryResource } from "@/lib/tables/query-keys";

/** A repeated parameter keeps its last value, as URLs are read everywhere else. */
export function toSearchParams(searchParams: Record<string, string | string[] | undefined>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(searchParams)) {
    const last = Array.isArray(value) ? value.at(-1) : value;
    if (last !== undefined) params.set(key, last);
  }
  return params;
}

/**
 * A table's first page, loaded with its route handler's `load` and put under the key the table
 * reads, so the rows are in the HTML. A refused URL prefetches the unfiltered page (`urlValid`
 * false); a platform problem prefetches nothing and the route handler explains it.
 */
export async function prefetchTablePage<Filters extends Record<string, FilterDefinition>, Sort extends string>(
  resource: QueryResource,
  /** Part of the key, so one shop's rows never show on another's page. */
  shopId: string,
  schema: TableSchema<Filters, Sort>,
  searchParams: Record<string, string | string[] | undefined>,
  load: (state: TableState<Filters, Sort>) => Promise<PlatformResult<unknown>>,
): Promise<{ state: DehydratedState; urlValid: boolean }> {
  const queryClient = new QueryClient();
  const parsed = schema.parse(toSearchParams(searchParams));
  const state = parsed.success ? parsed.data : schema.parse(new URLSearchParams()).data;
  if (state) {
    const result = await load(state);
    // What the route handler would send: JSON, dates as text.
    if (result.ok) queryClient.setQueryData(queryKeys[resource].page(shopId, state), JSON.parse(JSON.stringify(result.data)) as unknown);
  }
  return { state: dehydrate(queryClient), urlValid: parsed.success };
}
