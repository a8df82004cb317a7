import { PDFDocument } from "@pdfme/pdf-lib";
import { describe, expect, it } from "vitest";
import { pdfPageTexts } from "@marketplace/pdf-text";
import type { PickingList } from "./picking-list";
import { renderPickingPdf } from "./picking-pdf";
import type { PickingPdfWords } from "./picking-pdf";

const WORDS: PickingPdfWords = {
  title: "Lista de separação",
  summary: "2 pedidos · 3 unidades",
  bySku: "Itens por produto",
  byOrder: "Volumes por pedido",
  columns: { quantity: "Qtd.", sku: "SKU", product: "Produto" },
  order: (order) => `Pedido ${order.id} · ${order.customerName}`,
  parcel: (parcel) => `Volume ${parcel.trackingNumber}`,
  share: (share) => `#${share.reference} × ${share.quantity}`,
  page: (page, pages) => `Página ${page} de ${pages}`,
  empty: "Nada a separar.",
};

function listOf(orders: number, name = "Camiseta de algodão"): PickingList {
  const ids = Array.from({ length: orders }, (_, index) => index.toString(16).padStart(24, "0"));
  return {
    skus: [
      {
        sku: "CAM-M",
        name,
        picture: null,
        quantity: orders,
        orders: ids.map((orderId, index) => ({ orderId, reference: 1001 + index, quantity: 1 })),
      },
    ],
    orders: ids.map((id, index) => ({
      id,
      reference: 1001 + index,
      customerName: "Joana d'Ávila",
      shipBy: "2026-11-26T18:00:00.000Z",
      units: 1,
      parcels: [
        {
          deliveryId: `d${id.slice(1)}`,
          trackingNumber: "AA123456789BR",
          labelUrl: "",
          shipBy: "2026-11-26T18:00:00.000Z",
          items: [{ sku: "CAM-M", name, quantity: 1 }],
        },
      ],
    })),
    skipped: [],
    totals: { orders, parcels: orders, units: orders, skus: 1 },
  };
}

describe("the picking list PDF", () => {
  it("is an A4 document that runs onto more pages as the list grows", async () => {
    const short = await PDFDocument.load(await renderPickingPdf(listOf(2), WORDS));
    expect(short.getPageCount()).toBe(1);
    expect(short.getTitle()).toBe("Lista de separação");
    expect(Math.round(short.getPage(0).getWidth())).toBe(595);
    const long = await PDFDocument.load(await renderPickingPdf(listOf(120), WORDS));
    expect(long.getPageCount()).toBeGreaterThan(3);
  });

  it("says each SKU's total and name, then each order's parcels, in the list's order", async () => {
    const list = listOf(2);
    const [text] = await pdfPageTexts(await renderPickingPdf(list, WORDS));
    const lines = text!.split("\n");
    expect(lines).toContain("2 pedidos · 3 unidades");
    // Each piece of text is a line of its own: the SKU's total, code, name and each order's share.
    const sku = lines.indexOf("CAM-M");
    expect(lines.slice(sku - 1, sku + 3)).toEqual([
      "2",
      "CAM-M",
      "Camiseta de algodão",
      `#${list.orders[0]!.reference} × 1,  #${list.orders[1]!.reference} × 1`,
    ]);
    const orderLines = lines.filter((line) => line.startsWith("Pedido "));
    expect(orderLines).toEqual(list.orders.map((order) => `Pedido ${order.id} · Joana d'Ávila`));
    expect(lines.filter((line) => line.startsWith("Volume "))).toEqual(["Volume AA123456789BR", "Volume AA123456789BR"]);
    expect(lines.at(-1)).toBe("Página 1 de 1");
  });

  it("draws names the standard fonts cannot (emoji, other scripts, very long ones) without failing", async () => {
    const pdf = await renderPickingPdf(listOf(3, `Caneca 🎉 猫 ${"muito ".repeat(80)}longa`), WORDS);
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(1);
  });

  it("says when there is nothing to pick", async () => {
    expect((await PDFDocument.load(await renderPickingPdf(listOf(0), WORDS))).getPageCount()).toBe(1);
  });
});
