/**
 * One page of a server-paginated table, as its route handler sends it and the server renders it
 * first (lib/tables/prefetch.ts). `total` is null when the source does not count.
 */
export interface TablePage<Row> {
  rows: Row[];
  page: number;
  size: number;
  total: number | null;
  hasNext: boolean;
}

/** A page of a list the dashboard counts itself (its own database). */
export function countedPage<Row>(rows: Row[], total: number, state: { page: number; size: number }): TablePage<Row> {
  return { rows, page: state.page, size: state.size, total, hasNext: state.page * state.size < total };
}
