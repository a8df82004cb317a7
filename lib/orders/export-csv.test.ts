import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { order as specOrder } from "@/lib/marketplace/spec-examples.fixtures";
import { orderSchema } from "@/lib/marketplace/schemas/order";
import type { Order } from "@/lib/marketplace/schemas/order";
import { exportHead, exportLines, exportLocaleFor } from "./export-csv";

const order = (change: (order: Order) => void = () => {}): Order => {
  const parsed = orderSchema.parse(structuredClone(specOrder));
  change(parsed);
  return parsed;
};

const read = (text: string, delimiter: string) => Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), { delimiter, skipEmptyLines: true }).data;

describe("orders export CSV", () => {
  it("in pt-BR: a byte-order mark, `;`, comma decimals and Portuguese headers", () => {
    const text = exportHead("pt-BR") + exportLines([order()], "pt-BR");
    expect(text.startsWith("\uFEFF")).toBe(true);
    const [header, row] = read(text, ";");
    expect(header).toEqual(expect.arrayContaining(["pedido", "status", "cliente", "documento", "total", "frete", "desconto", "comissão", "rastreio", "enviar até"]));
    const total = row![header!.indexOf("total")]!;
    expect(total).toMatch(/^\d+,\d{2}$/);
  });

  it("in English: `,` and points", () => {
    const [header, row] = read(exportHead("en") + exportLines([order()], "en"), ",");
    expect(header![0]).toBe("order");
    expect(row![header!.indexOf("total")]).toMatch(/^\d+\.\d{2}$/);
  });

  it("masks the customer's document as the order page does, and gives dates in São Paulo time", () => {
    const [header, row] = read(
      exportHead("en") +
        exportLines(
          [
            order((o) => {
              o.customer.document_number = "12345678909";
              o.created_at = "2026-11-22T02:30:00.000Z";
            }),
          ],
          "en",
        ),
      ",",
    );
    expect(row![header!.indexOf("document")]).toBe("•••.•••.•••-09");
    expect(row![header!.indexOf("created")]).toBe("2026-11-21 23:30");
  });

  it("never lets a customer's name become a spreadsheet formula", () => {
    const [, row] = read(exportHead("en") + exportLines([order((o) => (o.customer.name = "=HYPERLINK(\"http://evil\")"))], "en"), ",");
    expect(row![5]!.startsWith("=")).toBe(false);
  });

  it("speaks the browser's language: English only when asked before Portuguese", () => {
    expect(exportLocaleFor("en-US,en;q=0.9")).toBe("en");
    expect(exportLocaleFor("pt-BR,pt;q=0.9,en;q=0.8")).toBe("pt-BR");
    expect(exportLocaleFor("fr-FR")).toBe("pt-BR");
    expect(exportLocaleFor(null)).toBe("pt-BR");
  });
});
