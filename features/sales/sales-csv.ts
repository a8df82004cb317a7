import type { Locale } from "@/i18n/config";
import { CSV_DIALECTS } from "@/lib/csv/dialects";
import { escapeCsvCell } from "@/lib/csv/escape-cell";
import type { SalesReport } from "@/features/sales/sales.server";
import type { ProductSales } from "@/features/sales/best-products";
import { SALES_NORMALIZER } from "@/features/sales/sales.server";

// The CSV of what the sales page shows (issue 42): the figures beside the period before, then the
// chart's days (or weeks), then the states. Amounts in reais with the language's decimal mark, so a
// spreadsheet in Brazil reads them as numbers.

export interface SalesCsvWords {
  figure: string;
  current: string;
  previous: string;
  bucket: string;
  figures: { gross: string; net: string; orders: string; ticket: string; cancelled: string };
  chart: { gross: string; net: string; orders: string };
  states: { state: string; orders: string; gross: string; unknown: string };
  products: { product: string; sku: string; units: string; revenue: string; margin: string };
}

/** `products`: the best ones as the page lists them; `showMargin` for the roles that see prices. */
export function salesCsv(
  report: SalesReport,
  products: readonly ProductSales[],
  showMargin: boolean,
  locale: Locale,
  words: SalesCsvWords,
): string {
  const { delimiter, decimal, bom } = CSV_DIALECTS[locale];
  const amount = (centavos: number) => (centavos / SALES_NORMALIZER).toFixed(2).replace(".", decimal);
  const line = (cells: readonly string[]) =>
    cells.map((cell) => (cell.includes(delimiter) || cell.includes('"') ? `"${cell.replaceAll('"', '""')}"` : cell)).join(delimiter);
  const ticket = (gross: number, orders: number) => (orders === 0 ? 0 : Math.round(gross / orders));
  const { current, previous } = report;
  const lines = [
    line([words.figure, words.current, words.previous]),
    line([words.figures.gross, amount(current.gross), amount(previous.gross)]),
    line([words.figures.net, amount(current.net), amount(previous.net)]),
    line([words.figures.orders, String(current.orders), String(previous.orders)]),
    line([words.figures.ticket, amount(ticket(current.gross, current.orders)), amount(ticket(previous.gross, previous.orders))]),
    line([words.figures.cancelled, String(current.cancelled), String(previous.cancelled)]),
    "",
    line([words.bucket, words.chart.gross, words.chart.net, words.chart.orders]),
    ...report.buckets.map((bucket) => line([bucket.day, amount(bucket.gross), amount(bucket.net), String(bucket.orders)])),
    "",
    line([words.states.state, words.states.orders, words.states.gross]),
    ...report.states.map((row) => line([escapeCsvCell(row.state ?? words.states.unknown), String(row.orders), amount(row.gross)])),
    "",
    line([
      words.products.product,
      words.products.sku,
      words.products.units,
      words.products.revenue,
      ...(showMargin ? [words.products.margin] : []),
    ]),
    ...products.map((product) =>
      line([
        escapeCsvCell(product.name),
        escapeCsvCell(product.sku),
        String(product.units),
        amount(product.revenue),
        ...(showMargin ? [product.margin === null ? "" : amount(product.margin)] : []),
      ]),
    ),
  ];
  return `${bom}${lines.join("\r\n")}\r\n`;
}
