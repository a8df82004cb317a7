/** `total` is null when the source does not count. */
export interface TablePage<Row> {
  rows: Row[];
  page: number;
  size: number;
  total: number | null;
  hasNext: boolean;
}

export function countedPage<Row>(rows: Row[], total: number, state: { page: number; size: number }): TablePage<Row> {
  return { rows, page: state.page, size: state.size, total, hasNext: state.page * state.size < total };
}
