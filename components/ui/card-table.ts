// Every table's classes for "a card per row on a phone, a table from `md` up": one DOM for
// both sizes, so no control or test id renders twice. On a phone the header row is hidden and a
// cell that needs it names itself with its `data-label`, drawn as CSS generated content so that
// the cell's text stays its value alone (what copying, and the tests, read).

export const cardTable = {
  /** On the element around the table: the table's frame from `md` up (each card has its own). */
  frame: "md:overflow-x-auto md:rounded-lg md:border md:border-zinc-200 md:bg-white",
  table: "block w-full text-sm md:table",
  head: "hidden bg-zinc-50 text-left text-zinc-600 md:table-header-group",
  headCell: "px-4 py-2 font-medium whitespace-nowrap",
  body: "block space-y-3 md:table-row-group md:space-y-0",
  /** Two columns on a phone: a narrow one (a checkbox, a code) and the rest. */
  row: "grid grid-cols-[auto_minmax(0,1fr)] items-center gap-x-3 gap-y-1 rounded-lg border border-zinc-200 bg-white p-3 md:table-row md:rounded-none md:border-0 md:border-t md:border-zinc-100 md:bg-transparent md:p-0 md:hover:bg-zinc-50",
  /** A cell on the card's heading line, or beside it: as it is on a phone. */
  cell: "min-w-0 md:table-cell md:align-top",
  /** A cell on a line of its own on a phone, its `data-label` on the left. */
  labelled:
    "col-span-2 flex min-w-0 flex-wrap items-center justify-between gap-x-3 gap-y-1 before:text-xs before:text-zinc-600 before:content-[attr(data-label)] md:table-cell md:align-top md:before:content-none",
  /** A cell's padding in the table (the card has its own). */
  pad: "md:px-4 md:py-2",
} as const;
