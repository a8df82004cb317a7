// Reads back the text shown on each page of a PDF, so tests can assert what a label or a merged
// print file says. Made for documents written by pdf-lib with its standard fonts (WinAnsi-encoded
// strings), including pages copied into a merged document and pages drawn from Form XObjects; it
// is not a general PDF text extractor (no embedded-font CMaps, no reading order).
import {
  PDFArray,
  PDFContentStream,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFRawStream,
  PDFStream,
  decodePDFRawStream,
  type PDFObject,
} from "@pdfme/pdf-lib";

/** The text on each page, in page order: one line per text line as drawn, lines joined by "\n". */
export async function pdfPageTexts(bytes: Uint8Array): Promise<string[]> {
  const document = await PDFDocument.load(bytes, { updateMetadata: false });
  return document.getPages().map((page) => {
    const lines = new TextLines();
    // The streams of an array are one content stream cut at token boundaries: an operator's operands may sit in the stream before it.
    const parts = contentStreams(page.node.Contents()).flatMap((stream) => [streamBytes(stream), NEWLINE]);
    showText(Buffer.concat(parts), page.node.Resources(), lines, 0);
    return lines.toString();
  });
}

// Form XObjects may draw other forms; a malformed file must not recurse for ever.
const MAX_FORM_DEPTH = 8;

/** A page's Contents is one stream or an array of them, to be read as one after the other. */
function contentStreams(contents: PDFObject | undefined): PDFStream[] {
  if (contents instanceof PDFStream) return [contents];
  if (!(contents instanceof PDFArray)) return [];
  const streams: PDFStream[] = [];
  for (let index = 0; index < contents.size(); index++) {
    const entry = contents.lookup(index);
    if (entry instanceof PDFStream) streams.push(entry);
  }
  return streams;
}

const NEWLINE = Uint8Array.of(0x0a);

/** A stream's decoded bytes (pdf-lib writes content streams FlateDecode-compressed). */
function streamBytes(stream: PDFStream): Uint8Array {
  if (stream instanceof PDFRawStream) return decodePDFRawStream(stream).decode();
  // Made in memory rather than parsed (never the case after `load`): its content is at hand.
  if (stream instanceof PDFContentStream) return stream.getUnencodedContents();
  return stream.getContents();
}

/** Lines of text as the content stream draws them: a new line at each text position change. */
class TextLines {
  private readonly lines: string[] = [];
  private current = "";

  append(text: string): void {
    this.current += text;
  }

  space(): void {
    if (this.current !== "" && !this.current.endsWith(" ")) this.current += " ";
  }

  newLine(): void {
    if (this.current.trim() !== "") this.lines.push(this.current.trim());
    this.current = "";
  }

  toString(): string {
    this.newLine();
    return this.lines.join("\n");
  }
}

// WinAnsiEncoding is Windows-1252 for every code it defines (PDF 32000-1, Annex D).
const winAnsi = new TextDecoder("windows-1252");

// Kerning in a TJ array is in thousandths of an em; a gap this wide is a space between words.
const WORD_GAP = -200;

type Operand =
  | { kind: "string"; bytes: Uint8Array }
  | { kind: "number"; value: number }
  | { kind: "name"; value: string }
  | { kind: "array"; items: Operand[] }
  | { kind: "other" };

/** Interprets the text operators of one content stream (PDF 32000-1, §9.4). */
function showText(content: Uint8Array, resources: PDFDict | undefined, lines: TextLines, depth: number): void {
  const lexer = new ContentLexer(content);
  const operands: Operand[] = [];
  const arrays: Operand[][] = [];
  const push = (operand: Operand) => (arrays.at(-1) ?? operands).push(operand);
  for (let token = lexer.next(); token !== null; token = lexer.next()) {
    if (token.kind === "array-start") {
      arrays.push([]);
      continue;
    }
    if (token.kind === "array-end") {
      const items = arrays.pop();
      if (items) push({ kind: "array", items });
      continue;
    }
    if (token.kind !== "operator") {
      push(token);
      continue;
    }
    const last = operands.at(-1);
    switch (token.value) {
      case "BT":
      case "ET":
      case "Tm":
      case "T*":
        lines.newLine();
        break;
      case "Td":
      case "TD": {
        const ty = operands.at(-1);
        if (ty?.kind === "number" && ty.value !== 0) lines.newLine();
        else lines.space();
        break;
      }
      case "'":
      case '"':
        lines.newLine();
        if (last?.kind === "string") lines.append(winAnsi.decode(last.bytes));
        break;
      case "Tj":
        if (last?.kind === "string") lines.append(winAnsi.decode(last.bytes));
        break;
      case "TJ":
        for (const item of last?.kind === "array" ? last.items : []) {
          if (item.kind === "string") lines.append(winAnsi.decode(item.bytes));
          else if (item.kind === "number" && item.value <= WORD_GAP) lines.space();
        }
        break;
      case "Do":
        if (last?.kind === "name" && depth < MAX_FORM_DEPTH) showForm(last.value, resources, lines, depth);
        break;
      case "BI":
        lexer.skipInlineImage();
        break;
    }
    operands.length = 0;
    arrays.length = 0;
  }
  lines.newLine();
}

/** A Form XObject drawn with `Do` (as `embedPage` makes them): its text is the page's too. */
function showForm(name: string, resources: PDFDict | undefined, lines: TextLines, depth: number): void {
  const xObjects = resources?.lookup(PDFName.of("XObject"));
  const form = xObjects instanceof PDFDict ? xObjects.lookup(PDFName.of(name)) : undefined;
  if (!(form instanceof PDFStream) || form.dict.lookup(PDFName.of("Subtype")) !== PDFName.of("Form")) return;
  const formResources = form.dict.lookup(PDFName.of("Resources"));
  lines.newLine();
  showText(streamBytes(form), formResources instanceof PDFDict ? formResources : resources, lines, depth + 1);
}

type Token = Operand | { kind: "operator"; value: string } | { kind: "array-start" } | { kind: "array-end" };

const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIMITERS = new Set([..."()<>[]{}/%"].map((char) => char.charCodeAt(0)));
const LITERAL_ESCAPES: Record<string, number> = { n: 0x0a, r: 0x0d, t: 0x09, b: 0x08, f: 0x0c, "(": 0x28, ")": 0x29, "\\": 0x5c };

/** Tokens of a content stream (PDF 32000-1, §7.2 and §7.3): just enough to find the text operators. */
class ContentLexer {
  private position = 0;

  constructor(private readonly bytes: Uint8Array) {}

  next(): Token | null {
    this.skipWhitespaceAndComments();
    const byte = this.bytes[this.position];
    if (byte === undefined) return null;
    const char = String.fromCharCode(byte);
    if (char === "(") return { kind: "string", bytes: this.literalString() };
    if (char === "<" && this.bytes[this.position + 1] === 0x3c) {
      // A dictionary (e.g. BDC properties): its contents are read as ordinary operands.
      this.position += 2;
      return { kind: "other" };
    }
    if (char === ">" && this.bytes[this.position + 1] === 0x3e) {
      this.position += 2;
      return { kind: "other" };
    }
    if (char === "<") return { kind: "string", bytes: this.hexString() };
    if (char === "[") {
      this.position++;
      return { kind: "array-start" };
    }
    if (char === "]") {
      this.position++;
      return { kind: "array-end" };
    }
    if (char === "/") {
      this.position++;
      return { kind: "name", value: decodeName(this.regularRun()) };
    }
    if (DELIMITERS.has(byte)) {
      this.position++;
      return { kind: "other" };
    }
    const word = this.regularRun();
    const number = Number(word);
    return /^[+-]?(\d+\.?\d*|\.\d+)$/.test(word) && Number.isFinite(number)
      ? { kind: "number", value: number }
      : { kind: "operator", value: word };
  }

  /** Inline image data is binary: skip to the `EI` that ends it. */
  skipInlineImage(): void {
    const end = this.bytes.length;
    while (this.position < end) {
      const at = this.position;
      if (
        this.bytes[at] === 0x45 &&
        this.bytes[at + 1] === 0x49 &&
        WHITESPACE.has(this.bytes[at - 1] ?? 0x20) &&
        (at + 2 >= end || WHITESPACE.has(this.bytes[at + 2] ?? 0x20))
      ) {
        this.position = at + 2;
        return;
      }
      this.position++;
    }
  }

  private skipWhitespaceAndComments(): void {
    for (;;) {
      const byte = this.bytes[this.position];
      if (byte === undefined) return;
      if (WHITESPACE.has(byte)) this.position++;
      else if (byte === 0x25) {
        while (this.position < this.bytes.length && this.bytes[this.position] !== 0x0a && this.bytes[this.position] !== 0x0d)
          this.position++;
      } else return;
    }
  }

  private regularRun(): string {
    const start = this.position;
    while (this.position < this.bytes.length) {
      const byte = this.bytes[this.position]!;
      if (WHITESPACE.has(byte) || DELIMITERS.has(byte)) break;
      this.position++;
    }
    // Always advance, so a stray byte cannot stall the lexer.
    if (this.position === start) this.position++;
    return latin1(this.bytes.subarray(start, this.position));
  }

  /** `(...)`: balanced parentheses, backslash escapes, octal codes and line continuations. */
  private literalString(): Uint8Array {
    const out: number[] = [];
    let depth = 0;
    this.position++;
    while (this.position < this.bytes.length) {
      const byte = this.bytes[this.position++]!;
      if (byte === 0x28) depth++;
      else if (byte === 0x29) {
        if (depth === 0) break;
        depth--;
      } else if (byte === 0x5c) {
        const escaped = this.bytes[this.position++];
        if (escaped === undefined) break;
        const char = String.fromCharCode(escaped);
        if (char in LITERAL_ESCAPES) out.push(LITERAL_ESCAPES[char]!);
        else if (char >= "0" && char <= "7") {
          let octal = char;
          while (octal.length < 3 && /[0-7]/.test(String.fromCharCode(this.bytes[this.position] ?? 0)))
            octal += String.fromCharCode(this.bytes[this.position++]!);
          out.push(Number.parseInt(octal, 8) & 0xff);
        } else if (escaped === 0x0d) {
          if (this.bytes[this.position] === 0x0a) this.position++;
        } else if (escaped !== 0x0a) out.push(escaped);
        continue;
      }
      out.push(byte);
    }
    return Uint8Array.from(out);
  }

  /** `<48 65 6C>`: hex digits, whitespace ignored, an odd last digit padded with 0. */
  private hexString(): Uint8Array {
    const close = this.bytes.indexOf(0x3e, this.position);
    const end = close === -1 ? this.bytes.length : close;
    const digits = latin1(this.bytes.subarray(this.position + 1, end)).replace(/[^0-9a-fA-F]/g, "");
    this.position = end + 1;
    const padded = digits.length % 2 === 0 ? digits : `${digits}0`;
    return Uint8Array.from(padded.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
  }
}

function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
}

/** `#xx` escapes in names (PDF 32000-1, §7.3.5). */
function decodeName(raw: string): string {
  return raw.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}
