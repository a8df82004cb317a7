"use client";

import type { UseQueryResult } from "@tanstack/react-query";
import type { ColumnDef } from "@tanstack/react-table";
import { useTranslations } from "next-intl";
import { ProblemNotice } from "@/components/platform/problem-notice";
import { DataTable } from "@/components/ui/data-table";
import { Pagination } from "@/components/ui/pagination";
import { DashboardApiError } from "@/lib/api-client";
import type { ProblemFeature } from "@/lib/platform-problem";

/**
 * The body of a server-paginated table: the platform problem (reconnect, missing scope) or the
 * error with a retry in place of the rows, the rows, and the pager.
 */
export function PagedTable<Row, D>({
  paged,
  rows,
  columns,
  getRowId,
  feature,
  empty,
  caption,
  pageCount,
  hasNext,
  sizes,
}: {
  /** The table's state from usePagedQuery. */
  paged: {
    query: UseQueryResult<D, Error>;
    filters: { page: number; size: number };
    filtersValid: boolean;
    update: (changes: Record<string, string | null>) => void;
  };
  rows: Row[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- react-table's column defs are heterogeneous by design
  columns: ColumnDef<Row, any>[];
  getRowId: (row: Row) => string;
  /** What the table shows, as the platform-problem notice names it ("yourOrders"). */
  feature: ProblemFeature;
  /** Already in the reader's language, like `caption`. */
  empty: string;
  caption: string;
  pageCount: number | null;
  /** Whether a next page exists, when pageCount is null but the source said. */
  hasNext?: boolean;
  sizes: readonly number[];
}) {
  const t = useTranslations("common.table");
  const { query, filters, filtersValid, update } = paged;
  const problem = query.error instanceof DashboardApiError ? query.error.problem : null;
  return (
    <>
      {!filtersValid ? (
        <p role="alert" className="text-sm text-red-800">
          {t("invalidFilters")}
        </p>
      ) : null}
      {problem && problem.kind !== "error" ? (
        <ProblemNotice problem={problem} feature={feature} />
      ) : problem ? (
        // The platform failed: said in the seller's language (an unreachable or failing platform),
        // or in the platform's own words for a refused request.
        <div className="space-y-2">
          <ProblemNotice problem={problem} feature={feature} />
          <button type="button" className="text-sm underline" onClick={() => void query.refetch()}>
            {t("tryAgain")}
          </button>
        </div>
      ) : query.isError ? (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900">
          {query.error.message}{" "}
          <button type="button" className="underline" onClick={() => void query.refetch()}>
            {t("tryAgain")}
          </button>
        </p>
      ) : (
        <DataTable
          rows={rows}
          columns={columns}
          getRowId={getRowId}
          isPending={query.isPending}
          isFetching={query.isFetching}
          empty={empty}
          caption={caption}
        />
      )}
      <Pagination
        page={filters.page}
        pageCount={pageCount}
        hasNext={hasNext}
        size={filters.size}
        sizes={sizes}
        isFetching={query.isFetching}
        onPage={(page) => update({ page: String(page) })}
        onSize={(size) => update({ size: String(size) })}
      />
    </>
  );
}
