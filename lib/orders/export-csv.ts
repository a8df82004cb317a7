// The orders export's CSV (issue 14): the columns a seller's accountant asks for, in the dialect
// the seller's spreadsheet opens without a wizard: in pt-BR `;`-separated, comma decimals and a
// byte-order mark (Excel in Brazil), in English `,` and points. Dates are the seller's (São Paulo)
// wall time. Pure: the route handler streams what this writes, page by page.
import Papa from "papaparse";
import type { Order } from "@/lib/marketplace/schemas/order";
import { moneyToDecimalString } from "@/lib/money";
import { DISPLAY_TIME_ZONE } from "@/lib/format";
import { maskDocument } from "@/lib/orders/mask-document";
import { itemCountOf } from "@/lib/orders/order-rows";
import { shipByOf } from "@/lib/orders/ship-by";

export type ExportLocale = "pt-BR" | "en";

export interface CsvDialect {
  delimiter: string;
  decimal: string;
  bom: string;
}

export const CSV_DIALECTS: Record<ExportLocale, CsvDialect> = {
  "pt-BR": { delimiter: ";", decimal: ",", bom: "\uFEFF" },
  en: { delimiter: ",", decimal: ".", bom: "\uFEFF" },
};

/** The export's language: English when the browser asks for it before Portuguese, pt-BR otherwise. */
export function exportLocaleFor(acceptLanguage: string | null): ExportLocale {
  const wanted = (acceptLanguage ?? "")
    .split(",")
    .map((part) => part.split(";")[0]!.trim().toLowerCase())
    .filter(Boolean);
  const first = wanted.find((tag) => tag.startsWith("pt") || tag.startsWith("en"));
  return first?.startsWith("en") ? "en" : "pt-BR";
}

const HEADERS: Record<ExportLocale, string[]> = {
  "pt-BR": [
    "pedido",
    "status",
    "criado em",
    "atualizado em",
    "aprovado em",
    "cliente",
    "documento",
    "itens",
    "total",
    "frete",
    "desconto",
    "comissão",
    "moeda",
    "status da entrega",
    "rastreio",
    "enviar até",
  ],
  en: ["order", "status", "created", "updated", "approved", "customer", "document", "items", "total", "freight", "discount", "commission", "currency", "delivery status", "tracking", "ship by"],
};

const wallTime = new Intl.DateTimeFormat("en-CA", {
  timeZone: DISPLAY_TIME_ZONE,
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
});

/** `2026-11-22 10:15` in São Paulo; "" for none. */
function when(value: string | null): string {
  if (!value) return "";
  const parts = Object.fromEntries(wallTime.formatToParts(new Date(value)).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

function amount(value: number, normalizer: number, dialect: CsvDialect): string {
  return moneyToDecimalString({ value, normalizer }).replace(".", dialect.decimal);
}

export function exportRow(order: Order, dialect: CsvDialect): string[] {
  const { amounts } = order;
  return [
    order.id,
    order.status,
    when(order.created_at),
    when(order.updated_at),
    when(order.approved_at),
    order.customer.name,
    maskDocument(order.customer.document_number),
    String(itemCountOf(order)),
    amount(amounts.total, amounts.normalizer, dialect),
    amount(amounts.freight.total, amounts.freight.normalizer, dialect),
    amount(amounts.discount.total, amounts.discount.normalizer, dialect),
    amount(amounts.comission.total, amounts.comission.normalizer, dialect),
    amounts.currency,
    order.deliveries.map((delivery) => delivery.status).join(" | "),
    order.deliveries.map((delivery) => delivery.shipping.tracking.number).filter(Boolean).join(" | "),
    when(shipByOf(order)),
  ];
}

/** The file's start: the byte-order mark and the header line. */
export function exportHead(locale: ExportLocale): string {
  const dialect = CSV_DIALECTS[locale];
  return dialect.bom + Papa.unparse([HEADERS[locale]], { delimiter: dialect.delimiter, newline: "\r\n" }) + "\r\n";
}

/** A page of orders as CSV lines, each ending with CRLF. */
export function exportLines(orders: readonly Order[], locale: ExportLocale): string {
  if (orders.length === 0) return "";
  const dialect = CSV_DIALECTS[locale];
  return Papa.unparse(orders.map((order) => exportRow(order, dialect)), { delimiter: dialect.delimiter, newline: "\r\n", escapeFormulae: true }) + "\r\n";
}
