"use client";

import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo } from "react";
import type { z } from "zod";
import { useUrlState } from "@/components/ui/use-url-state";

interface PageState {
  page: number;
  size: number;
}

/**
 * The state of a server-paginated table: filters, sort and page parsed from the URL with the
 * table's zod schema, the page fetched with React Query under `[key, filters]` (so a live update
 * invalidating `[key]` refreshes every page), the previous page kept on screen while the next
 * loads, and the next page prefetched.
 */
export function usePagedQuery<F extends PageState, D>(options: {
  key: string;
  parse: (params: URLSearchParams) => z.ZodSafeParseResult<F>;
  fallback: F;
  fetchPage: (filters: F) => Promise<D>;
  hasNext: (data: D, filters: F) => boolean;
}) {
  const { key, parse, fallback, fetchPage, hasNext } = options;
  const { searchParams, update } = useUrlState();
  const queryString = searchParams.toString();
  const parsed = useMemo(() => parse(new URLSearchParams(queryString)), [parse, queryString]);
  const filters = useMemo(() => (parsed.success ? parsed.data : fallback), [parsed, fallback]);
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: [key, filters], queryFn: () => fetchPage(filters), placeholderData: keepPreviousData });

  const more = query.data !== undefined && hasNext(query.data, filters);
  useEffect(() => {
    if (!more) return;
    const next = { ...filters, page: filters.page + 1 };
    void queryClient.prefetchQuery({ queryKey: [key, next], queryFn: () => fetchPage(next) });
  }, [more, filters, key, fetchPage, queryClient]);

  return { filters, filtersValid: parsed.success, queryString, query, update };
}
