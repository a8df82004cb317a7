// No pictures: fetching them would be another request to addresses the platform's data names, and
// pdf-lib draws PNG and JPEG only. Words arrive already in the reader's language.
import { PDFDocument, rgb, StandardFonts } from "@pdfme/pdf-lib";
import type { PDFFont, PDFPage } from "@pdfme/pdf-lib";
import type { PickingList, PickingOrder, PickingParcel, PickingSku } from "@/features/shipping/picking-list";

export interface PickingPdfWords {
  title: string;
  summary: string;
  bySku: string;
  byOrder: string;
  columns: { quantity: string; sku: string; product: string };
  order: (order: PickingOrder) => string;
  parcel: (parcel: PickingParcel) => string;
  /** One order's share of a SKU: "#1042 × 2". */
  share: (share: PickingSku["orders"][number]) => string;
  page: (page: number, pages: number) => string;
  empty: string;
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 40;
const FOOTER = 24;
const GREY = rgb(0.35, 0.35, 0.38);
const RULE = rgb(0.8, 0.8, 0.82);

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

/** Standard fonts are WinAnsi: anything else becomes "?". */
function drawable(text: string, font: PDFFont, supported: Map<PDFFont, Set<number>>): string {
  let set = supported.get(font);
  if (!set) {
    set = new Set(font.getCharacterSet());
    supported.set(font, set);
  }
  let out = "";
  for (const char of text.replace(/[\r\n\t]+/g, " ")) out += set.has(char.codePointAt(0)!) ? char : "?";
  return out;
}

export async function renderPickingPdf(list: PickingList, words: PickingPdfWords): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  document.setTitle(words.title);
  const fonts: Fonts = {
    regular: await document.embedFont(StandardFonts.Helvetica),
    bold: await document.embedFont(StandardFonts.HelveticaBold),
  };
  const supported = new Map<PDFFont, Set<number>>();
  const width = A4[0] - 2 * MARGIN;
  let page: PDFPage = document.addPage(A4);
  let y = A4[1] - MARGIN;

  const top = A4[1] - MARGIN;
  /** A block taller than a page just runs on from an empty one. */
  const ensure = (height: number) => {
    if (y - height >= MARGIN + FOOTER || y >= top) return;
    page = document.addPage(A4);
    y = top;
  };

  const fit = (text: string, font: PDFFont, size: number, max: number) => {
    let line = drawable(text, font, supported);
    if (font.widthOfTextAtSize(line, size) <= max) return line;
    while (line.length > 1 && font.widthOfTextAtSize(`${line}…`, size) > max) line = line.slice(0, -1);
    return `${line}…`;
  };

  const wrap = (text: string, font: PDFFont, size: number, max: number) => {
    const lines: string[] = [];
    let line = "";
    for (const word of drawable(text, font, supported).split(" ")) {
      const candidate = line ? `${line} ${word}` : word;
      if (line && font.widthOfTextAtSize(candidate, size) > max) {
        lines.push(line);
        line = word;
      } else line = candidate;
    }
    if (line) lines.push(fit(line, font, size, max));
    return lines;
  };

  const text = (
    value: string,
    x: number,
    options: { font?: PDFFont; size?: number; max?: number; color?: ReturnType<typeof rgb>; right?: boolean } = {},
  ) => {
    const font = options.font ?? fonts.regular;
    const size = options.size ?? 10;
    const line = fit(value, font, size, options.max ?? width - (x - MARGIN));
    const left = options.right ? x - font.widthOfTextAtSize(line, size) : x;
    page.drawText(line, { x: left, y, size, font, color: options.color ?? rgb(0, 0, 0) });
  };

  const heading = (value: string) => {
    ensure(40);
    y -= 8;
    text(value, MARGIN, { font: fonts.bold, size: 13 });
    y -= 8;
    page.drawLine({ start: { x: MARGIN, y }, end: { x: MARGIN + width, y }, thickness: 0.7, color: RULE });
    y -= 14;
  };

  text(words.title, MARGIN, { font: fonts.bold, size: 18 });
  y -= 18;
  text(words.summary, MARGIN, { color: GREY });
  y -= 16;

  if (list.orders.length === 0) {
    y -= 20;
    text(words.empty, MARGIN);
  } else {
    heading(words.bySku);
    const columns = { box: MARGIN, quantity: MARGIN + 52, sku: MARGIN + 62, product: MARGIN + 180 };
    text(words.columns.quantity, columns.quantity, { font: fonts.bold, size: 9, right: true, color: GREY });
    text(words.columns.sku, columns.sku, { font: fonts.bold, size: 9, color: GREY });
    text(words.columns.product, columns.product, { font: fonts.bold, size: 9, color: GREY });
    y -= 16;
    for (const sku of list.skus) {
      const shares = wrap(sku.orders.map((share) => words.share(share)).join(",  "), fonts.regular, 8, width - (columns.sku - MARGIN));
      ensure(16 + shares.length * 10);
      page.drawRectangle({ x: columns.box, y: y - 2, width: 10, height: 10, borderColor: rgb(0, 0, 0), borderWidth: 0.8 });
      text(String(sku.quantity), columns.quantity, { font: fonts.bold, size: 11, right: true });
      text(sku.sku, columns.sku, { max: columns.product - columns.sku - 8 });
      text(sku.name, columns.product);
      for (const line of shares) {
        y -= 10;
        text(line, columns.sku, { size: 8, color: GREY });
      }
      y -= 8;
      page.drawLine({ start: { x: columns.sku, y: y + 3 }, end: { x: MARGIN + width, y: y + 3 }, thickness: 0.3, color: RULE });
      y -= 8;
    }

    // In the order the labels come in.
    heading(words.byOrder);
    for (const order of list.orders) {
      ensure(32 + order.parcels.reduce((sum, parcel) => sum + 14 + parcel.items.length * 13, 0));
      text(words.order(order), MARGIN, { font: fonts.bold, size: 10.5 });
      y -= 15;
      for (const parcel of order.parcels) {
        ensure(14 + parcel.items.length * 13);
        text(words.parcel(parcel), MARGIN + 12, { size: 9, color: GREY });
        y -= 13;
        for (const item of parcel.items) {
          ensure(13);
          page.drawRectangle({ x: MARGIN + 12, y: y - 1, width: 8, height: 8, borderColor: rgb(0, 0, 0), borderWidth: 0.6 });
          text(`${item.quantity} ×`, MARGIN + 52, { font: fonts.bold, right: true });
          text(item.sku, MARGIN + 62, { max: 110 });
          text(item.name, MARGIN + 180);
          y -= 13;
        }
      }
      y -= 8;
    }
  }

  const pages = document.getPages();
  pages.forEach((each, index) => {
    const label = fit(words.page(index + 1, pages.length), fonts.regular, 8, width);
    each.drawText(label, {
      x: A4[0] - MARGIN - fonts.regular.widthOfTextAtSize(label, 8),
      y: MARGIN - 10,
      size: 8,
      font: fonts.regular,
      color: GREY,
    });
  });
  return document.save();
}
