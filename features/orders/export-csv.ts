// Written in the dialect the seller's spreadsheet opens without a wizard: in pt-BR `;`, comma
// decimals and a BOM (Excel in Brazil). Pure: the route handler streams it page by page.
import Papa from "papaparse";
import type { Locale } from "@/i18n/config";
import { escapeCsvCell } from "@/lib/csv/escape-cell";
import type { Order } from "@marketplace/api/schemas/order";
import { moneyToDecimalString } from "@/lib/money";
import { maskDocument } from "@/features/orders/mask-document";
import { orderNet } from "@/lib/orders/net";
import { itemCountOf } from "@/lib/orders/items";
import { shipByOf } from "@/lib/orders/ship-by";
import { CSV_DIALECTS, csvWallTime } from "@/lib/csv/dialects";
import type { CsvDialect } from "@/lib/csv/dialects";

/** Each names its title in the catalogue (orders.export.columns.<column>). */
export const EXPORT_COLUMNS = [
  "order",
  "status",
  "created",
  "updated",
  "approved",
  "customer",
  "document",
  "items",
  "total",
  "freight",
  "discount",
  "commission",
  "sellerFreight",
  "net",
  "currency",
  "deliveryStatus",
  "tracking",
  "shipBy",
] as const;

export type ExportColumn = (typeof EXPORT_COLUMNS)[number];

export interface ExportSettings {
  locale: Locale;
  timeZone: string;
}

function amount(value: number, normalizer: number, dialect: CsvDialect): string {
  return moneyToDecimalString({ value, normalizer }).replace(".", dialect.decimal);
}

/**
 * Only platform text goes through the formula rule, so a negative amount stays a number. Amounts
 * come from lib/orders/net.ts, so total − commission − seller freight = net holds in the file.
 */
export function exportRow(order: Order, dialect: CsvDialect, timeZone: string): string[] {
  const { amounts } = order;
  const net = orderNet(amounts);
  const inOrder = (value: number | undefined) => (value === undefined ? "" : amount(value, amounts.normalizer, dialect));
  const when = (value: string | null) => csvWallTime(value, timeZone);
  const text = escapeCsvCell;
  return [
    text(order.id),
    text(order.status),
    when(order.created_at),
    when(order.updated_at),
    when(order.approved_at),
    text(order.customer.name),
    text(maskDocument(order.customer.document_number)),
    String(itemCountOf(order)),
    amount(amounts.total, amounts.normalizer, dialect),
    amount(amounts.freight.total, amounts.freight.normalizer, dialect),
    amount(amounts.discount.total, amounts.discount.normalizer, dialect),
    net ? inOrder(net.commission) : amount(amounts.comission.total, amounts.comission.normalizer, dialect),
    inOrder(net?.sellerFreight),
    inOrder(net?.net),
    text(amounts.currency),
    text(order.deliveries.map((delivery) => delivery.status).join(" | ")),
    text(
      order.deliveries
        .map((delivery) => delivery.shipping.tracking.number)
        .filter(Boolean)
        .join(" | "),
    ),
    when(shipByOf(order)),
  ];
}

/** The BOM and the header line; titles go through the formula rule too, translators' words included. */
export function exportHead(locale: Locale, columnTitle: (column: ExportColumn) => string): string {
  const dialect = CSV_DIALECTS[locale];
  return (
    dialect.bom +
    Papa.unparse([EXPORT_COLUMNS.map((column) => escapeCsvCell(columnTitle(column)))], { delimiter: dialect.delimiter, newline: "\r\n" }) +
    "\r\n"
  );
}

/** Not papaparse's `escapeFormulae`: it misses a cell with a line break and would turn negative amounts into text. */
export function exportLines(orders: readonly Order[], { locale, timeZone }: ExportSettings): string {
  if (orders.length === 0) return "";
  const dialect = CSV_DIALECTS[locale];
  return (
    Papa.unparse(
      orders.map((order) => exportRow(order, dialect, timeZone)),
      { delimiter: dialect.delimiter, newline: "\r\n" },
    ) + "\r\n"
  );
}
