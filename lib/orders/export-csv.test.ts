import { createTranslator } from "next-intl";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import type { Locale } from "@/i18n/config";
import { order as specOrder } from "@/lib/marketplace/spec-examples.fixtures";
import { orderSchema } from "@/lib/marketplace/schemas/order";
import type { Order } from "@/lib/marketplace/schemas/order";
import { catalogues } from "@/messages";
import type { Messages } from "@/messages";
import { exportDay, exportHead, exportLines } from "./export-csv";
import type { ExportColumn } from "./export-csv";

const order = (change: (order: Order) => void = () => {}): Order => {
  const parsed = orderSchema.parse(structuredClone(specOrder));
  change(parsed);
  return parsed;
};

const SAO_PAULO = "America/Sao_Paulo";

/** The column titles as the route gives them: the request's catalogue, orders.export.columns. */
const titles = (locale: Locale) => {
  const t = createTranslator({ locale, messages: catalogues[locale] as Messages, namespace: "orders.export.columns" });
  return (column: ExportColumn) => t(column);
};

/** A whole file of these orders, as the route writes it. */
const file = (locale: Locale, orders: Order[], timeZone = SAO_PAULO) => exportHead(locale, titles(locale)) + exportLines(orders, { locale, timeZone });

const read = (text: string, delimiter: string) => Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), { delimiter, skipEmptyLines: true }).data;

describe("orders export CSV", () => {
  it("in pt-BR: a byte-order mark, `;`, comma decimals and Portuguese headers", () => {
    const text = file("pt-BR", [order()]);
    expect(text.startsWith("\uFEFF")).toBe(true);
    const [header, row] = read(text, ";");
    expect(header).toEqual(expect.arrayContaining(["pedido", "status", "cliente", "documento", "total", "frete", "desconto", "comissão", "rastreio", "enviar até"]));
    const total = row![header!.indexOf("total")]!;
    expect(total).toMatch(/^\d+,\d{2}$/);
  });

  it("in English: `,`, points and the accountant's headers", () => {
    const [header, row] = read(file("en", [order()]), ",");
    expect(header).toEqual(["order", "status", "created", "updated", "approved", "customer", "document", "items", "total", "freight", "discount", "commission", "currency", "delivery status", "tracking", "ship by"]);
    expect(row![header!.indexOf("total")]).toMatch(/^\d+\.\d{2}$/);
  });

  it("masks the customer's document as the order page does, and gives dates in the seller's time zone", () => {
    const created = (o: Order) => {
      o.customer.document_number = "12345678909";
      o.created_at = "2026-11-22T02:30:00.000Z";
    };
    const [header, row] = read(file("en", [order(created)]), ",");
    expect(row![header!.indexOf("document")]).toBe("•••.•••.•••-09");
    expect(row![header!.indexOf("created")]).toBe("2026-11-21 23:30");
    // The same instant for a seller in Manaus (UTC-4), in Portuguese.
    const [ptHeader, ptRow] = read(file("pt-BR", [order(created)], "America/Manaus"), ";");
    expect(ptRow![ptHeader!.indexOf("criado em")]).toBe("2026-11-21 22:30");
  });

  it("never lets a customer's name become a spreadsheet formula", () => {
    const [, row] = read(file("en", [order((o) => (o.customer.name = "=HYPERLINK(\"http://evil\")"))]), ",");
    expect(row![5]!.startsWith("=")).toBe(false);
  });

  it("names the file by the seller's day", () => {
    // 02:30 UTC on the 23rd: still the 22nd in São Paulo.
    expect(exportDay(new Date("2026-11-23T02:30:00.000Z"), SAO_PAULO)).toBe("2026-11-22");
    expect(exportDay(new Date("2026-11-23T02:30:00.000Z"), "UTC")).toBe("2026-11-23");
  });
});
