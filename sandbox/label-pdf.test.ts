import { PDFDocument, StandardFonts } from "@pdfme/pdf-lib";
import { describe, expect, it } from "vitest";
import { pdfPageTexts } from "@marketplace/pdf-text";
import { formatCep, LABEL_HEIGHT_PT, LABEL_WIDTH_PT, SANDBOX_MARKER, shippingLabelPdf, type ShippingLabel } from "./label-pdf";

function label(
  overrides: { tracking?: string; name?: string; deliveryId?: string; complement?: string; zipcode?: string } = {},
): ShippingLabel {
  return {
    orderId: "65f0c0ffee0000000000abcd",
    senderName: "Loja Demo",
    delivery: {
      id: overrides.deliveryId ?? "65f0c0ffee0000000000dcba",
      items: [{ quantity: 2 }, { quantity: 1 }],
      shipping: {
        labels: { generated_at: "2026-11-20T14:05:00.000Z" },
        tracking: { number: overrides.tracking ?? "OB123456789BR" },
        recipient: {
          name: overrides.name ?? "Conceição Araújo",
          address: {
            zipcode: overrides.zipcode ?? "01310100",
            street: "Avenida Paulista",
            number: "1578",
            district: "Bela Vista",
            city: "São Paulo",
            state: "SP",
            country: "BR",
            complement: overrides.complement ?? "Apto 12",
            reference: "Em frente ao museu",
          },
        },
      },
    },
  };
}

describe("shippingLabelPdf", () => {
  it("is one 10 × 15 cm page with the sandbox marker, both parties, the ids, the item count and the tracking number", async () => {
    const document = await PDFDocument.load(await shippingLabelPdf(label()));
    expect(document.getPageCount()).toBe(1);
    const { width, height } = document.getPage(0).getSize();
    expect(width).toBeCloseTo(283.46, 1);
    expect(height).toBeCloseTo(425.2, 1);
    expect([LABEL_WIDTH_PT, LABEL_HEIGHT_PT].map((size) => size.toFixed(2))).toEqual(["283.46", "425.20"]);

    const [text] = await pdfPageTexts(await shippingLabelPdf(label()));
    const lines = text!.split("\n");
    expect(lines).toContain(SANDBOX_MARKER);
    expect(lines).toContain("OB123456789BR");
    expect(lines).toContain("Conceição Araújo");
    expect(lines).toContain("Avenida Paulista, 1578 - Apto 12");
    expect(lines).toContain("Bela Vista");
    expect(lines).toContain("São Paulo/SP");
    expect(lines).toContain("CEP 01310-100");
    expect(lines).toContain("Loja Demo");
    expect(lines).toContain("Pedido 65f0c0ffee0000000000abcd");
    expect(lines).toContain("Entrega 65f0c0ffee0000000000dcba");
    // Units in the parcel, not lines of the order.
    expect(lines).toContain("Itens: 3");
  });

  it("sets the title and subject a viewer shows", async () => {
    const document = await PDFDocument.load(await shippingLabelPdf(label()), { updateMetadata: false });
    expect(document.getTitle()).toBe("Etiqueta OB123456789BR");
    expect(document.getSubject()).toContain("65f0c0ffee0000000000abcd");
    expect(document.getSubject()).toContain("65f0c0ffee0000000000dcba");
    expect(document.getAuthor()).toBe("Loja Demo");
    expect(document.getCreationDate()?.toISOString()).toBe("2026-11-20T14:05:00.000Z");
  });

  it("replaces what the standard fonts cannot show instead of failing", async () => {
    const pdf = await shippingLabelPdf(label({ name: "Łukasz Dvořák 山田 😀\u0007", complement: "" }));
    const [text] = await pdfPageTexts(pdf);
    // á is WinAnsi; ř loses its caron; Ł has no plain letter inside; the rest is unknown to WinAnsi.
    expect(text).toContain("?ukasz Dvorák ?? ?");
    expect(text).toContain("Avenida Paulista, 1578\n");
  });

  it("wraps a long name and address within the page and keeps the rest of the label", async () => {
    const name = "Maria das Graças Conceição de Albuquerque Cavalcanti Pereira da Silva Santos Oliveira Bragança e Vasconcelos";
    const [text] = await pdfPageTexts(
      await shippingLabelPdf(label({ name, complement: "Bloco C, apartamento 1204, entrada pela rua lateral".repeat(3) })),
    );
    const lines = text!.split("\n");
    const nameLines = lines.slice(lines.indexOf("DESTINATÁRIO") + 1, lines.indexOf("DESTINATÁRIO") + 3);
    expect(nameLines.join(" ")).toMatch(/^Maria das Graças .+…$/);
    expect(lines).toContain("CEP 01310-100");
    expect(lines).toContain("Loja Demo");
  });

  it("formats a CEP as 00000-000 and leaves anything else as sent", () => {
    expect(formatCep("01310100")).toBe("01310-100");
    expect(formatCep("01310-100")).toBe("01310-100");
    expect(formatCep(" 1234 ")).toBe("1234");
  });
});

describe("pdfPageTexts", () => {
  it("reads each page of a document merged from several labels with copyPages", async () => {
    const trackings = ["AA000000001BR", "PN000000002BR", "QB000000003BR"];
    const merged = await PDFDocument.create();
    for (const [index, tracking] of trackings.entries()) {
      const source = await PDFDocument.load(
        await shippingLabelPdf(label({ tracking, deliveryId: `65f0c0ffee000000000000${index}${index}` })),
      );
      for (const page of await merged.copyPages(source, source.getPageIndices())) merged.addPage(page);
    }
    const texts = await pdfPageTexts(await merged.save());
    expect(texts).toHaveLength(3);
    texts.forEach((text, index) => {
      expect(text.split("\n")).toContain(trackings[index]);
      for (const other of trackings.filter((_, position) => position !== index)) expect(text).not.toContain(other);
    });
  });

  it("reads literal strings, TJ arrays, several content streams and operands split between them", async () => {
    const document = await PDFDocument.create();
    const font = await document.embedFont(StandardFonts.Helvetica);
    const page = document.addPage([200, 200]);
    page.drawText("Drawn by pdf-lib", { x: 10, y: 180, size: 10, font });
    const raw = (content: string) => page.node.addContentStream(document.context.register(document.context.stream(content)));
    // An uncompressed stream: a literal string with escapes (\341 is á in WinAnsi) and a TJ array.
    raw("BT /F1 10 Tf 1 0 0 1 10 150 Tm (Ol\\341 \\(mundo\\)) Tj [(Ras) 30 (treio) -400 (BR)] TJ (Linha 2) ' ET");
    // A compressed stream whose operator waits in the next stream.
    page.node.addContentStream(document.context.register(document.context.flateStream("BT 1 0 0 1 10 120 Tm <4469766964> ")));
    raw("Tj ET");
    const [text] = await pdfPageTexts(await document.save());
    expect(text!.split("\n")).toEqual(["Drawn by pdf-lib", "Olá (mundo)Rastreio BR", "Linha 2", "Divid"]);
  });

  it("reads a page drawn from another one as a Form XObject (embedPage)", async () => {
    const source = await PDFDocument.load(await shippingLabelPdf(label({ tracking: "AA999999999BR" })));
    const sheet = await PDFDocument.create();
    const [embedded] = await sheet.embedPdf(source, [0]);
    sheet.addPage([600, 450]).drawPage(embedded!, { x: 10, y: 10 });
    const [text] = await pdfPageTexts(await sheet.save());
    expect(text!.split("\n")).toContain("AA999999999BR");
  });
});
