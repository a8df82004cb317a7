"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useCallback } from "react";

/**
 * Table state lives in the URL so reload, back and shared links keep it. `update` merges
 * changes; any change other than the page itself goes back to page 1 (a new filter or page size
 * makes the old offset meaningless). The URL changes in the browser only (history.pushState,
 * which Next's router follows): the table fetches its own data, so the server is not asked to
 * render the page again.
 */
export function useUrlState() {
  const searchParams = useSearchParams();
  const pathname = usePathname();

  const update = useCallback(
    (changes: Record<string, string | null | undefined>) => {
      const next = new URLSearchParams(searchParams.toString());
      for (const [key, value] of Object.entries(changes)) {
        if (value === null || value === undefined || value === "") next.delete(key);
        else next.set(key, value);
      }
      if (!("page" in changes)) next.delete("page");
      const query = next.toString();
      window.history.pushState(null, "", query ? `${pathname}?${query}` : pathname);
    },
    [pathname, searchParams],
  );

  return { searchParams, update };
}
