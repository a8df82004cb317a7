"use client";

import { useTranslations } from "next-intl";
import { ActionButton } from "@/components/ui/action-button";
import { useChoiceBeforeHydration } from "@/components/ui/use-url-state";

/** Previous/next paging with the page size choice; shared by the React Query tables. */
export function Pagination({
  page,
  pageCount,
  size,
  sizes,
  onPage,
  onSize,
  isFetching,
  hasNext: knownNext,
}: {
  page: number;
  pageCount: number | null;
  /** Whether a next page exists, when the page count is unknown but the source said. */
  hasNext?: boolean;
  size: number;
  sizes: readonly number[];
  onPage: (page: number) => void;
  onSize: (size: number) => void;
  isFetching?: boolean;
}) {
  const t = useTranslations("common.table");
  const hasNext = pageCount === null ? (knownNext ?? true) : page < pageCount;
  const sizeRef = useChoiceBeforeHydration<HTMLSelectElement>((select) => onSize(Number(select.value)));
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 text-sm">
      <label className="flex items-center gap-2 text-zinc-600">
        {t("rowsPerPage")}
        <select
          ref={sizeRef}
          value={size}
          onChange={(event) => onSize(Number(event.target.value))}
          className="min-h-11 rounded-md border border-zinc-300 bg-white px-2 py-1 md:min-h-0"
        >
          {sizes.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      </label>
      <div className="flex flex-wrap items-center gap-3">
        <span className="text-zinc-600" aria-live="polite">
          {t("page", {
            // Plain strings: a page number reads without grouping, as the URL carries it.
            page: String(page),
            hasPageCount: pageCount !== null ? "yes" : "no",
            pageCount: String(Math.max(pageCount ?? 1, 1)),
            loading: isFetching ? "yes" : "no",
          })}
        </span>
        <ActionButton
          action={() => onPage(page - 1)}
          disabled={page <= 1}
          className="min-h-11 min-w-11 rounded-md border border-zinc-300 bg-white px-3 py-1 disabled:opacity-40 md:min-h-0"
        >
          {t("previous")}
        </ActionButton>
        <ActionButton
          action={() => onPage(page + 1)}
          disabled={!hasNext}
          className="min-h-11 min-w-11 rounded-md border border-zinc-300 bg-white px-3 py-1 disabled:opacity-40 md:min-h-0"
        >
          {t("next")}
        </ActionButton>
      </div>
    </div>
  );
}
