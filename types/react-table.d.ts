import "@tanstack/react-table";

// What a column tells components/ui/data-table.tsx about how it shows on a phone, where each row
// is a card of label/value lines.
declare module "@tanstack/react-table" {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the generics must match react-table's declaration
  interface ColumnMeta<TData extends RowData, TValue> {
    /** The card line's label on a phone (the header may be a control, e.g. a sort button). */
    label?: string;
    /** Left out of the card on a phone: a detail the row's page shows. */
    hideOnPhone?: boolean;
    /** The card's title line on a phone: shown first, without a label. */
    cardTitle?: boolean;
  }
}
