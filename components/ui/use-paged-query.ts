"use client";

import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { useShopId } from "@/components/shop-link";
import { useUrlState } from "@/components/ui/use-url-state";
import { shopPath } from "@/lib/shops/paths";
import { fetchApi } from "@/lib/api-client";
import { queryKeys } from "@/lib/tables/query-keys";
import type { QueryResource } from "@/lib/tables/query-keys";
import type { FilterDefinition, TableParams, TableState } from "@/lib/tables/table-params";

/**
 * The state of a server-paginated table: filters, sort and page read from the URL with the
 * table's declaration (lib/tables/table-params.ts), the page fetched from the table's route
 * handler with React Query under `queryKeys[resource].page(shopId, state)` (so a live update invalidating
 * `queryKeys[resource].all` refreshes every page; the server renders the first page under the same key,
 * lib/tables/prefetch.server.ts), the
 * previous page kept on screen while the next loads, and the next page prefetched.
 *
 * The server validated the URL the page was opened with (`urlValid`: false when it refused its
 * filters, which are then ignored); every later URL is one the table wrote.
 */
export function usePagedQuery<Filters extends Record<string, FilterDefinition>, Sort extends string, D>(options: {
  resource: QueryResource;
  table: TableParams<Filters, Sort>;
  /** The table's route handler within the page's shop, e.g. `/orders` for `/api/s/{shopId}/orders`. */
  endpoint: string;
  urlValid: boolean;
  hasNext: (data: D, state: TableState<Filters, Sort>) => boolean;
}) {
  const { resource, table, endpoint, urlValid, hasNext } = options;
  const { searchParams, update } = useUrlState();
  const queryString = searchParams.toString();
  const [openedWith] = useState(queryString);
  const filtersValid = queryString !== openedWith || urlValid;
  const filters = useMemo(
    () => (filtersValid ? table.read(new URLSearchParams(queryString)) : table.initial),
    [filtersValid, table, queryString],
  );
  const queryClient = useQueryClient();
  const shopId = useShopId() ?? "";
  const url = `/api${shopPath(shopId, endpoint)}`;
  const fetchPage = useMemo(() => (state: TableState<Filters, Sort>) => fetchApi<D>(`${url}?${table.toSearchParams(state)}`), [url, table]);
  // The shop is part of the key: another shop's cached pages are never shown here, even for a moment.
  const query = useQuery({
    queryKey: queryKeys[resource].page(shopId, filters),
    queryFn: () => fetchPage(filters),
    placeholderData: keepPreviousData,
  });

  const more = query.data !== undefined && hasNext(query.data, filters);
  useEffect(() => {
    if (!more) return;
    const next = { ...filters, page: filters.page + 1 };
    void queryClient.prefetchQuery({ queryKey: queryKeys[resource].page(shopId, next), queryFn: () => fetchPage(next) });
  }, [more, filters, resource, shopId, fetchPage, queryClient]);

  return { filters, filtersValid, queryString, query, update };
}
