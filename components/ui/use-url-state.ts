"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useEffectEvent, useMemo, useRef, useState } from "react";
import type { RefObject } from "react";

/** A change the router has not caught up with: shown at once, pushed from an effect. */
interface Change {
  /**
   * The router's search params the change was made on (useSearchParams keeps one object per URL):
   * once the router has moved on, caught up or gone back, the change is spent.
   */
  from: URLSearchParams;
  query: string;
  url: string;
}

/**
 * Table state lives in the URL so reload, back and shared links keep it. `update` merges
 * changes; any change other than the page itself goes back to page 1 (a new filter or page size
 * makes the old offset meaningless). The URL changes in the browser only (history.pushState,
 * which Next's router follows): the table fetches its own data, so the server is not asked to
 * render the page again.
 *
 * Next's router follows history.pushState only once its own mount effect has run, and a control
 * can answer a click before that (it is hydrated first): so the push waits for an effect of the
 * next commit, when the router is certain to be up, and the table shows the change meanwhile.
 */
export function useUrlState() {
  const routerParams = useSearchParams();
  const pathname = usePathname();
  const [change, setChange] = useState<Change | null>(null);
  const pending = change !== null && change.from === routerParams ? change : null;
  const query = pending ? pending.query : routerParams.toString();
  const searchParams = useMemo(() => new URLSearchParams(query), [query]);

  useEffect(() => {
    if (change) window.history.pushState(null, "", change.url);
  }, [change]);

  const update = useCallback(
    (changes: Record<string, string | null | undefined>) =>
      setChange((previous) => {
        const base = previous !== null && previous.from === routerParams ? previous.query : routerParams.toString();
        const next = new URLSearchParams(base);
        for (const [key, value] of Object.entries(changes)) {
          if (value === null || value === undefined || value === "") next.delete(key);
          else next.set(key, value);
        }
        if (!("page" in changes)) next.delete("page");
        const query = next.toString();
        if (query === base) return previous;
        return { from: routerParams, query, url: query ? `${pathname}?${query}` : pathname };
      }),
    [pathname, routerParams],
  );

  return { searchParams, update };
}

/**
 * A choice made in a checkbox or drop-down before the page's scripts ran: the browser keeps it
 * through hydration, but React never reports it. Calls `apply` once, after hydration, with the
 * element whose state differs from the server's HTML; returns the ref to put on it.
 */
export function useChoiceBeforeHydration<E extends HTMLInputElement | HTMLSelectElement | HTMLFieldSetElement>(
  apply: (element: E) => void,
): RefObject<E | null> {
  const ref = useRef<E>(null);
  const onMount = useEffectEvent(apply);
  useEffect(() => {
    const element = ref.current;
    if (element && changedSinceServerHtml(element)) onMount(element);
  }, []);
  return ref;
}

/** An element React created itself has its defaults equal to its state; only a hydrated one can differ. */
function changedSinceServerHtml(element: HTMLInputElement | HTMLSelectElement | HTMLFieldSetElement): boolean {
  if (element instanceof HTMLInputElement) return element.checked !== element.defaultChecked;
  if (element instanceof HTMLSelectElement) {
    const options = [...element.options];
    return options.some((option) => option.defaultSelected) && options.some((option) => option.selected !== option.defaultSelected);
  }
  return [...element.querySelectorAll("input[type=checkbox]")].some(
    (box) => box instanceof HTMLInputElement && changedSinceServerHtml(box),
  );
}
