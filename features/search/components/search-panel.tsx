"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import type { KeyboardEvent, ReactNode } from "react";
import type { Found } from "@/features/search/found";
import { foundCount } from "@/features/search/found";
import { SEARCH_MAX_LENGTH } from "@/features/search/search-text";
import { useDisplayFormat } from "@/lib/format";

/** What the person may search, to say so before they type. */
export interface Searchable {
  customerData: boolean;
  products: boolean;
  people: boolean;
}

async function fetchFound(query: string): Promise<Found> {
  const response = await fetch(`/api/search?${new URLSearchParams({ q: query })}`, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`GET /api/search answered ${response.status}`);
  return (await response.json()) as Found;
}

const RESULT_LINK =
  "flex min-h-11 flex-col justify-center rounded-md px-3 py-2 hover:bg-zinc-100 focus:bg-brand-50 focus:outline-2 focus:outline-brand-700";

/** One group of results (orders, products, people): nothing when it found none. */
function ResultGroup({
  id,
  title,
  results,
}: {
  id: string;
  title: string;
  results: { href: string; testId: string; title: string; detail: ReactNode }[];
}) {
  if (results.length === 0) return null;
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="mb-2 text-sm font-semibold text-zinc-700">
        {title}
      </h2>
      <ul className="space-y-1 rounded-lg border border-zinc-200 bg-white p-1">
        {results.map((result) => (
          <li key={`${result.href} ${result.title}`}>
            <Link href={result.href} data-result className={RESULT_LINK} data-testid={result.testId}>
              <span className="font-medium text-zinc-900">{result.title}</span>
              <span className="text-sm text-zinc-600">{result.detail}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Typing settles for this long before the search is asked. */
const TYPING_PAUSE_MS = 200;

function useSettled(value: string): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return settled;
}

/**
 * The search box and its results, grouped (issue 42). Without JavaScript the form asks the page
 * again; with it, results follow the typing. From the box, ↓ enters the results; ↑ and ↓ move
 * between them, Enter opens one, Escape goes back to the box.
 */
export function SearchPanel({
  initialQuery,
  initialFound,
  searchable,
}: {
  initialQuery: string;
  initialFound: Found | null;
  searchable: Searchable;
}) {
  const t = useTranslations("search");
  const format = useDisplayFormat();
  const [query, setQuery] = useState(initialQuery);
  const settled = useSettled(query).trim();
  const box = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const {
    data: found,
    isFetching,
    isError,
  } = useQuery({
    queryKey: ["search", settled],
    queryFn: () => fetchFound(settled),
    enabled: settled !== "",
    placeholderData: keepPreviousData,
    initialData: initialFound && initialFound.query === settled ? initialFound : undefined,
    staleTime: 30_000,
  });
  // The address keeps the text, so a reload or a link shows the same results.
  useEffect(() => {
    const url = settled === "" ? "/search" : `/search?${new URLSearchParams({ q: settled })}`;
    window.history.replaceState(window.history.state, "", url);
  }, [settled]);

  const results = () => [...(list.current?.querySelectorAll<HTMLAnchorElement>("a[data-result]") ?? [])];
  const onBoxKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== "ArrowDown") return;
    const first = results()[0];
    if (!first) return;
    event.preventDefault();
    first.focus();
  };
  const onListKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const links = results();
    const at = links.indexOf(document.activeElement as HTMLAnchorElement);
    if (event.key === "Escape") {
      event.preventDefault();
      box.current?.focus();
    } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const next = at + (event.key === "ArrowDown" ? 1 : -1);
      if (next < 0) box.current?.focus();
      else links[Math.min(next, links.length - 1)]?.focus();
    }
  };

  const shown = settled === "" ? null : found;
  return (
    <div className="space-y-4">
      <form action="/search" role="search" className="flex gap-2" onSubmit={(event) => event.preventDefault()}>
        <label htmlFor="search-box" className="sr-only">
          {t("label")}
        </label>
        <input
          ref={box}
          id="search-box"
          name="q"
          type="search"
          autoFocus
          autoComplete="off"
          maxLength={SEARCH_MAX_LENGTH}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={onBoxKey}
          placeholder={t("placeholder")}
          aria-describedby="search-status"
          className="min-h-11 w-full min-w-0 rounded-md border border-zinc-300 bg-white px-3 text-base"
          data-testid="search-box"
        />
        <button type="submit" className="min-h-11 shrink-0 rounded-md bg-brand-700 px-4 font-medium text-white hover:bg-brand-900">
          {t("submit")}
        </button>
      </form>
      <p id="search-status" role="status" className="text-sm text-zinc-600" data-testid="search-status">
        {isError
          ? t("failed")
          : shown === undefined || (isFetching && shown === null)
            ? t("searching")
            : shown === null
              ? ""
              : !shown.searched
                ? t("tooShort")
                : foundCount(shown) === 0
                  ? t("nothing", { query: shown.query })
                  : t("results", { count: foundCount(shown) })}
      </p>
      {shown === null || shown === undefined || foundCount(shown) === 0 ? (
        <div className="rounded-lg border border-zinc-200 bg-white p-4 text-sm text-zinc-700" data-testid="search-help">
          <p>{t("canSearch.intro")}</p>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            <li>{t("canSearch.orders")}</li>
            {searchable.customerData ? <li>{t("canSearch.customerData")}</li> : null}
            {searchable.products ? <li>{t("canSearch.products")}</li> : null}
            {searchable.people ? <li>{t("canSearch.people")}</li> : null}
          </ul>
        </div>
      ) : (
        <div ref={list} onKeyDown={onListKey} className="space-y-6" data-testid="search-results">
          <ResultGroup
            id="found-orders"
            title={t("groups.orders")}
            results={shown.orders.map((order) => ({
              href: order.href,
              testId: "found-order",
              title: `${t("order", { reference: order.reference, customer: order.customerName })} · ${format.money(order.total)}`,
              detail: `${format.date(order.createdAt, "date")} · ${t(`matched.${order.matched}`)} · ${t("inShop", { shop: order.shopName })}`,
            }))}
          />
          <ResultGroup
            id="found-products"
            title={t("groups.products")}
            results={shown.products.map((product) => ({
              href: product.href,
              testId: "found-product",
              title: product.name,
              detail: (
                <>
                  <span className="font-mono">{product.sku}</span> · {t("inShop", { shop: product.shopName })}
                </>
              ),
            }))}
          />
          <ResultGroup
            id="found-people"
            title={t("groups.people")}
            results={shown.people.map((person) => ({
              href: person.href,
              testId: "found-person",
              title: person.name,
              detail: t("inShop", { shop: person.shopName }),
            }))}
          />
        </div>
      )}
    </div>
  );
}
