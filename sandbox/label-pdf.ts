// The shipping label a delivery's `shipping.labels.url` points at (spec: Orders → shipping.labels),
// as a carrier would print it: one 10 × 15 cm page with the recipient's address and the tracking
// number as a Code 128 barcode, plainly marked as a sandbox label so that no one posts a parcel with it.
import { PDFDocument, StandardFonts, degrees, rgb, type PDFFont, type PDFPage } from "@pdfme/pdf-lib";
// The Node build by its own subpath: the package's root export has no condition TypeScript's bundler resolution picks.
import bwipjs from "bwip-js/node";
import type { DeliveryItem, Shipping } from "@marketplace/api/schemas/order";

/** 10 × 15 cm portrait, the format of Brazilian carriers' thermal printers, in points. */
export const LABEL_WIDTH_PT = (100 / 25.4) * 72;
export const LABEL_HEIGHT_PT = (150 / 25.4) * 72;

export const SANDBOX_MARKER = "SANDBOX — NÃO É UMA ETIQUETA REAL";

/** What a label shows; a whole `Delivery` of the spec fits. */
export interface ShippingLabel {
  orderId: string;
  delivery: {
    id: string;
    items: readonly Pick<DeliveryItem, "quantity">[];
    shipping: {
      labels: Pick<Shipping["labels"], "generated_at">;
      tracking: Pick<Shipping["tracking"], "number">;
      recipient: Pick<Shipping["recipient"], "name" | "address">;
    };
  };
  /** The seller's name, as the platform knows the user. */
  senderName: string;
}

const MARGIN = 12;
const INNER_WIDTH = LABEL_WIDTH_PT - 2 * MARGIN;
const BLACK = rgb(0, 0, 0);
const WHITE = rgb(1, 1, 1);
const GREY = rgb(0.35, 0.35, 0.35);

/** `01234567` or `01234-567` → `01234-567`; anything else is printed as the platform sent it. */
export function formatCep(zipcode: string): string {
  const digits = zipcode.replace(/\D/g, "");
  return digits.length === 8 ? `${digits.slice(0, 5)}-${digits.slice(5)}` : zipcode.trim();
}

/**
 * Text the standard fonts can show: they only encode WinAnsi, and pdf-lib throws on anything else,
 * so a recipient's name in another script must not take the label down. Accented letters outside
 * WinAnsi lose their accent; what is left becomes "?".
 */
function winAnsiText(font: PDFFont, text: string): string {
  const supported = new Set(font.getCharacterSet());
  const fits = (part: string) => [...part].every((char) => supported.has(char.codePointAt(0) ?? -1));
  return [...text.normalize("NFC").replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, " ")]
    .map((char) => {
      if (fits(char)) return char;
      const bare = char.normalize("NFD").replace(/\p{M}/gu, "");
      return bare !== "" && fits(bare) ? bare : "?";
    })
    .join("");
}

/** Word-wrapped lines no wider than `width`; beyond `maxLines` the last line ends in an ellipsis. */
function wrapText(text: string, font: PDFFont, size: number, width: number, maxLines: number): string[] {
  const fitsWidth = (line: string) => font.widthOfTextAtSize(line, size) <= width;
  const lines: string[] = [];
  let current = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = current ? `${current} ${word}` : word;
    if (fitsWidth(candidate)) {
      current = candidate;
      continue;
    }
    if (current) lines.push(current);
    // A single word wider than the line (an unbroken name or code) is cut by characters.
    let rest = word;
    while (!fitsWidth(rest)) {
      let cut = rest.length - 1;
      while (cut > 1 && !fitsWidth(rest.slice(0, cut))) cut--;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    current = rest;
  }
  if (current) lines.push(current);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  let last = kept[maxLines - 1] ?? "";
  while (last.length > 0 && !fitsWidth(`${last}…`)) last = last.slice(0, -1);
  kept[maxLines - 1] = `${last.trimEnd()}…`;
  return kept;
}

/**
 * Draws the tracking number's Code 128 bars as rectangles: vector bars stay sharp at any printer
 * resolution, which a scanned barcode needs more than a picture would.
 */
function drawCode128(page: PDFPage, text: string, top: number, height: number): void {
  const [symbol] = bwipjs.raw("code128", text, {});
  if (!symbol || !("sbs" in symbol)) throw new Error("bwip-js returned no linear Code 128 symbol");
  const modules = symbol.sbs.reduce((sum, width) => sum + width, 0);
  // A quiet zone of ten modules on each side, as the symbology asks.
  const moduleWidth = Math.min(1.6, INNER_WIDTH / (modules + 20));
  let x = (LABEL_WIDTH_PT - modules * moduleWidth) / 2;
  symbol.sbs.forEach((width, index) => {
    // sbs alternates bar and space widths, starting with a bar.
    if (index % 2 === 0) page.drawRectangle({ x, y: top - height, width: width * moduleWidth, height, color: BLACK });
    x += width * moduleWidth;
  });
}

/**
 * Large pale text across the address block, centred on `centre`: drawn first, under everything
 * else, and clear of the barcode so that it cannot hinder a scanner.
 */
function drawWatermark(page: PDFPage, font: PDFFont, text: string, centre: { x: number; y: number }): void {
  const size = 54;
  const angle = 30;
  const width = font.widthOfTextAtSize(text, size);
  const height = font.heightAtSize(size, { descender: false });
  const radians = (angle * Math.PI) / 180;
  page.drawText(text, {
    x: centre.x - (width / 2) * Math.cos(radians) + (height / 2) * Math.sin(radians),
    y: centre.y - (width / 2) * Math.sin(radians) - (height / 2) * Math.cos(radians),
    size,
    font,
    color: rgb(0.86, 0.86, 0.86),
    rotate: degrees(angle),
  });
}

/**
 * `bytes` of PDF comment lines: a content stream that draws nothing, yet is the page's, so whatever
 * copies the page (a merge of labels) carries them along, as it would a carrier's pictures.
 */
function paddingStream(bytes: number): Uint8Array {
  const line = new TextEncoder().encode(`% sandbox padding${" ".repeat(46)}\n`);
  const padding = new Uint8Array(bytes);
  for (let offset = 0; offset < bytes; offset += line.length) padding.set(line.subarray(0, bytes - offset), offset);
  return padding;
}

/** The label of one delivery, as a PDF document of one page; `paddingBytes` more (fault `labelPaddingBytes`). */
export async function shippingLabelPdf(label: ShippingLabel, options: { paddingBytes?: number } = {}): Promise<Uint8Array> {
  const { orderId, delivery, senderName } = label;
  const { recipient, tracking, labels } = delivery.shipping;
  const { address } = recipient;
  const itemCount = delivery.items.reduce((sum, item) => sum + item.quantity, 0);

  const document = await PDFDocument.create();
  // Dated when the platform says the label was generated, not when this copy was drawn.
  const generatedAt = new Date(labels.generated_at);
  document.setTitle(`Etiqueta ${tracking.number}`, { showInWindowTitleBar: true });
  document.setSubject(`Pedido ${orderId}, entrega ${delivery.id} (${SANDBOX_MARKER.toLowerCase()})`);
  document.setAuthor(senderName);
  document.setKeywords(["sandbox", tracking.number, orderId, delivery.id]);
  document.setCreator("Marketplace sandbox");
  document.setLanguage("pt-BR");
  document.setCreationDate(generatedAt);
  document.setModificationDate(generatedAt);

  const regular = await document.embedFont(StandardFonts.Helvetica);
  const bold = await document.embedFont(StandardFonts.HelveticaBold);
  const page = document.addPage([LABEL_WIDTH_PT, LABEL_HEIGHT_PT]);

  drawWatermark(page, bold, "SANDBOX", { x: LABEL_WIDTH_PT / 2, y: 165 });

  let y = LABEL_HEIGHT_PT - MARGIN;
  const text = (
    value: string,
    options: { font?: PDFFont; size: number; x?: number; color?: typeof BLACK; maxLines?: number; gap?: number },
  ) => {
    const font = options.font ?? regular;
    for (const line of wrapText(winAnsiText(font, value), font, options.size, INNER_WIDTH, options.maxLines ?? 1)) {
      y -= options.size;
      page.drawText(line, { x: options.x ?? MARGIN, y, size: options.size, font, color: options.color ?? BLACK });
      y -= options.gap ?? 2.5;
    }
  };
  const rule = () => {
    y -= 5;
    page.drawLine({ start: { x: MARGIN, y }, end: { x: LABEL_WIDTH_PT - MARGIN, y }, thickness: 0.8, color: BLACK });
    y -= 6;
  };

  // The marker: white on black across the top.
  page.drawRectangle({ x: MARGIN, y: y - 20, width: INNER_WIDTH, height: 20, color: BLACK });
  const markerWidth = bold.widthOfTextAtSize(SANDBOX_MARKER, 9.5);
  page.drawText(SANDBOX_MARKER, { x: (LABEL_WIDTH_PT - markerWidth) / 2, y: y - 13.5, size: 9.5, font: bold, color: WHITE });
  y -= 26;

  text(`Pedido ${orderId}`, { size: 8 });
  text(`Entrega ${delivery.id}`, { size: 8 });
  text(`Itens: ${itemCount}`, { size: 8, font: bold });
  rule();

  const barHeight = 80;
  drawCode128(page, tracking.number, y - 2, barHeight);
  y -= barHeight + 4;
  const trackingText = winAnsiText(bold, tracking.number);
  const trackingWidth = bold.widthOfTextAtSize(trackingText, 14);
  y -= 14;
  page.drawText(trackingText, { x: Math.max(MARGIN, (LABEL_WIDTH_PT - trackingWidth) / 2), y, size: 14, font: bold });
  rule();

  text("DESTINATÁRIO", { size: 8, font: bold, color: GREY, gap: 4 });
  text(recipient.name, { size: 12, font: bold, maxLines: 2 });
  const complement = address.complement.trim();
  text(`${address.street}, ${address.number}${complement ? ` - ${complement}` : ""}`, { size: 10.5, maxLines: 3 });
  text(address.district, { size: 10.5 });
  text(`${address.city}/${address.state}`, { size: 10.5 });
  text(`CEP ${formatCep(address.zipcode)}`, { size: 13, font: bold });
  rule();

  text("REMETENTE", { size: 8, font: bold, color: GREY, gap: 4 });
  text(senderName, { size: 10, maxLines: 2 });

  page.drawText(winAnsiText(regular, "Gerada pelo sandbox do marketplace: não poste, não imprima para envio."), {
    x: MARGIN,
    y: MARGIN,
    size: 6.5,
    font: regular,
    color: GREY,
  });

  const paddingBytes = options.paddingBytes ?? 0;
  if (paddingBytes > 0) page.node.addContentStream(document.context.register(document.context.stream(paddingStream(paddingBytes))));

  return document.save();
}
