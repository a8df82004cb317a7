import { createTranslator } from "next-intl";
import Papa from "papaparse";
import { describe, expect, it, vi } from "vitest";
import { escapeCsvCell } from "@/lib/csv/escape-cell";
import { catalogues } from "@/messages";
import type { Messages } from "@/messages";
import { BULK_LIMITS, convertAmount, parseBulkPriceCsv } from "./bulk-csv";
import { buildResultsCsv } from "@/features/prices/bulk/results-csv";
import type { BulkCsvParseResult } from "./bulk-csv";
import type { BulkResultLine } from "@/features/prices/bulk/results-csv";
import { describeBulkMessage } from "./bulk-messages";
import type { BulkMessage, BulkMessageWords } from "./bulk-messages";

// The parser says what is wrong as a code; the page words it. The assertions read the English
// wording, as the seller reads it.
const words = (locale: "en" | "pt-BR") =>
  createTranslator({ locale, messages: catalogues[locale] as Messages, namespace: "prices.bulk.messages" }) as unknown as BulkMessageWords;
const english = (message: BulkMessage | undefined) => (message === undefined ? undefined : describeBulkMessage(message, words("en")));

function parsed(text: string, maxRows?: number): Extract<BulkCsvParseResult, { ok: true }> {
  const result = parseBulkPriceCsv(text, { maxRows });
  if (!result.ok) throw new Error(`expected a parsed file, got: ${english(result.error)}`);
  return result;
}

function reasonFor(text: string, line = 2): string | undefined {
  return english(parsed(text).invalid.find((row) => row.line === line)?.reason);
}

/** The file's error in English, or a failed expectation when the file was read. */
function fileError(text: string, maxRows?: number): string | undefined {
  const result = parseBulkPriceCsv(text, { maxRows });
  return result.ok ? undefined : english(result.error);
}

const HEADER = "sku,type,value,currency\n";

describe("parseBulkPriceCsv: good rows", () => {
  it("reads both decimal separators into the exact integer value at normalizer 100", () => {
    const result = parsed(`${HEADER}CAM-001,sell,12.34,BRL\nCAM-002,list,"12,34",BRL\nCAM-003,sell,19.99,BRL\nCAM-004,sell,7,brl\n`);
    expect(result.invalid).toEqual([]);
    expect(result.rows).toEqual([
      { line: 2, sku: "CAM-001", type: "sell", amount: "12.34", currency: "BRL", value: 1234, normalizer: 100 },
      { line: 3, sku: "CAM-002", type: "list", amount: "12.34", currency: "BRL", value: 1234, normalizer: 100 },
      { line: 4, sku: "CAM-003", type: "sell", amount: "19.99", currency: "BRL", value: 1999, normalizer: 100 },
      { line: 5, sku: "CAM-004", type: "sell", amount: "7", currency: "BRL", value: 700, normalizer: 100 },
    ]);
  });

  it("accepts a semicolon file with decimal commas (what pt-BR spreadsheets save)", () => {
    const result = parsed("sku;type;value;currency\nCAM-001;sell;12,5;BRL\n");
    expect(result.delimiter).toBe(";");
    expect(result.rows[0]).toMatchObject({ amount: "12.5", value: 1250 });
  });

  it("strips a UTF-8 BOM, reads CRLF, quoted fields, blank lines and columns in any order", () => {
    const text = '\uFEFFCurrency,SKU,Value,Type,note\r\n\r\nBRL,"CAM, azul",10.00,SELL,"a ""quoted"" note"\r\nBRL,CAM-002,0.5,list,\r\n';
    const result = parsed(text);
    expect(result.invalid).toEqual([]);
    expect(result.rows).toEqual([
      { line: 3, sku: "CAM, azul", type: "sell", amount: "10", currency: "BRL", value: 1000, normalizer: 100 },
      { line: 4, sku: "CAM-002", type: "list", amount: "0.5", currency: "BRL", value: 50, normalizer: 100 },
    ]);
  });

  it("counts physical lines when a quoted field spans two lines", () => {
    const result = parsed(`${HEADER}"CAM\n001",sell,1.00,BRL\nCAM-002,sell,2.00,BRL\n`);
    expect(result.rows.map((row) => row.line)).toEqual([2, 4]);
  });
});

describe("parseBulkPriceCsv: bad rows, each with a clear reason", () => {
  it.each([
    ["a missing column", "CAM-001,sell,12.34", /missing column currency/],
    ["two missing columns", "CAM-001,sell", /missing columns value, currency/],
    ["an unquoted decimal comma", "CAM-001,sell,12,34,BRL", /quote a value with a decimal comma/],
    ["an empty sku", ",sell,12.34,BRL", /sku is empty/],
    ["a sku of 51 characters", `${"A".repeat(51)},sell,1,BRL`, /longer than 50/],
    ["an unknown type", "CAM-001,promo,12.34,BRL", /unknown type "promo"/],
    ["an empty type", "CAM-001,,12.34,BRL", /type is empty/],
    ["an empty value", "CAM-001,sell,,BRL", /value is empty/],
    ["text as value", "CAM-001,sell,abc,BRL", /not an amount/],
    ["thousands separators", 'CAM-001,sell,"1.234,56",BRL', /without thousands separators/],
    ["a currency symbol", "CAM-001,sell,R$ 12,BRL", /not an amount/],
    ["a negative value", "CAM-001,sell,-5,BRL", /negative/],
    ["too many decimals", "CAM-001,sell,12.345,BRL", /more decimals than a price with normalizer 100/],
    ["an unknown currency code", "CAM-001,sell,12.34,XYZ", /unknown currency code "XYZ"/],
    ["a currency that is no code", "CAM-001,sell,12.34,Reais", /unknown currency code/],
    ["an empty currency", "CAM-001,sell,12.34,", /currency is empty/],
    ["a value too large", "CAM-001,sell,999999999999999999,BRL", /too large/],
  ])("%s", (_name, line, reason) => {
    expect(reasonFor(`${HEADER}${line}\n`)).toMatch(reason);
  });

  it("keeps the first of a duplicate sku+type and reports the later ones with the first line", () => {
    const result = parsed(`${HEADER}CAM-001,sell,1,BRL\nCAM-001,list,2,BRL\ncam-001,sell,3,BRL\nCAM-001,SELL,4,BRL\n`);
    expect(result.rows.map((row) => row.line)).toEqual([2, 3, 4]);
    expect(result.invalid).toEqual([
      {
        line: 5,
        sku: "CAM-001",
        type: "SELL",
        value: "4",
        currency: "BRL",
        reason: { code: "duplicate", first: "2", type: "sell", sku: "CAM-001" },
      },
    ]);
    expect(reasonFor(`${HEADER}CAM-001,sell,1,BRL\nCAM-001,SELL,4,BRL\n`, 3)).toMatch(
      /duplicate: line 2 already sets the sell price of CAM-001/,
    );
  });

  it("keeps the cells of an invalid row as written, for the results file", () => {
    expect(parsed(`${HEADER} =cmd , promo ,"1,5", brl\n`).invalid[0]).toEqual({
      line: 2,
      sku: "=cmd",
      type: "promo",
      value: "1,5",
      currency: "brl",
      reason: expect.objectContaining({ code: expect.any(String) }),
    });
  });

  it("refuses the rows after an unclosed quote", () => {
    const result = parsed(`${HEADER}CAM-001,sell,1,BRL\n"CAM-002,sell,2,BRL\nCAM-003,sell,3,BRL\n`);
    expect(result.rows.map((row) => row.line)).toEqual([2]);
    expect(result.invalid[0]).toMatchObject({ line: 3, reason: { code: "unclosedQuote" } });
    expect(english(result.invalid[0]?.reason)).toMatch(/quoted field is not closed/);
  });

  it("mixes good and bad rows, with line numbers", () => {
    const result = parsed(`${HEADER}CAM-001,sell,1,BRL\nCAM-002,sale,1,BRL\n\nCAM-003,sell,1.001,BRL\nCAM-004,list,4,BRL\n`);
    expect(result.rows.map((row) => row.line)).toEqual([2, 6]);
    expect(result.invalid.map((row) => row.line)).toEqual([3, 5]);
  });
});

describe("parseBulkPriceCsv: whole-file errors", () => {
  it.each([
    ["an empty file", ""],
    ["a file of blank lines", "\n \r\n"],
    ["a BOM alone", "\uFEFF"],
  ])("refuses %s", (_name, text) => {
    expect(parseBulkPriceCsv(text)).toEqual({ ok: false, error: { code: "fileEmpty" } });
    expect(fileError(text)).toMatch(/empty/);
  });

  it("refuses a file without the header", () => {
    expect(parseBulkPriceCsv("CAM-001,sell,12.34,BRL\n")).toEqual({ ok: false, error: { code: "headerMissing" } });
    expect(fileError("CAM-001,sell,12.34,BRL\n")).toMatch(/header sku,type,value,currency \(it is missing\)/);
  });

  it("names the columns the header lacks", () => {
    expect(parseBulkPriceCsv("sku,price,currency\nCAM-001,1,BRL\n")).toEqual({
      ok: false,
      error: { code: "headerLacks", columns: "type, value", count: 2 },
    });
    expect(fileError("sku,price,currency\nCAM-001,1,BRL\n")).toMatch(/missing the columns type, value/);
  });

  it("refuses a header named twice", () => {
    expect(fileError("sku,type,value,currency,SKU\n")).toMatch(/sku twice/);
  });

  it("refuses a header without rows", () => {
    expect(fileError("sku,type,value,currency\r\n")).toMatch(/no rows/);
  });

  it("refuses more rows than allowed", () => {
    const lines = Array.from({ length: 6 }, (_, i) => `SKU-${i},sell,1,BRL`).join("\n");
    expect(parseBulkPriceCsv(`${HEADER}${lines}`, { maxRows: 5 })).toEqual({ ok: false, error: { code: "tooManyRows", max: 5 } });
    expect(fileError(`${HEADER}${lines}`, 5)).toMatch(/more than 5 rows/);
    expect(parsed(`${HEADER}${lines}`, 6).rows).toHaveLength(6);
  });
});

/** How many records papaparse hands the parser while `run` runs: what the parse built and looked at. */
function recordsReadBy(run: () => void): number {
  const parse = Papa.parse;
  let records = 0;
  const counting = (input: string, config: Papa.ParseConfig<string[]>) =>
    parse<string[]>(input, {
      ...config,
      step: (result, parser) => {
        records++;
        config.step?.(result, parser);
      },
    });
  const spy = vi.spyOn(Papa, "parse").mockImplementation(counting as unknown as typeof Papa.parse);
  try {
    run();
  } finally {
    spy.mockRestore();
  }
  return records;
}

describe("parseBulkPriceCsv: the line limit", () => {
  it.each([
    ["LF", "\n"],
    ["CRLF", "\r\n"],
    ["CR", "\r"],
  ])("refuses a 1 MB file of blank lines (%s) after the header, and stops reading at the limit", (_name, newline) => {
    const header = `sku,type,value,currency${newline}`;
    const text = header + newline.repeat(Math.floor((BULK_LIMITS.maxFileBytes - header.length) / newline.length));
    let result: BulkCsvParseResult | undefined;
    const records = recordsReadBy(() => (result = parseBulkPriceCsv(text, { maxRows: BULK_LIMITS.maxRows })));
    expect(result).toEqual({ ok: false, error: { code: "tooManyLines", max: BULK_LIMITS.maxRows } });
    expect(english(result?.ok === false ? result.error : undefined)).toBe(
      "The file has more than 5,000 lines after the header, counting blank lines; delete the blank lines or split it into smaller files.",
    );
    // The header, 5,000 lines, and the one past the limit that refused the file.
    expect(records).toBeLessThanOrEqual(BULK_LIMITS.maxRows + 2);
  });

  it("stops at the limit in a file of rows too", () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => `SKU-${i},sell,1,BRL`).join("\n");
    let result: BulkCsvParseResult | undefined;
    const records = recordsReadBy(() => (result = parseBulkPriceCsv(`${HEADER}${rows}\n`, { maxRows: 100 })));
    expect(result).toEqual({ ok: false, error: { code: "tooManyRows", max: 100 } });
    expect(records).toBe(102);
  });

  it("counts blank lines, but not the line end that closes the last line", () => {
    const row = (sku: string) => `${sku},sell,1,BRL`;
    expect(parsed(`${HEADER}${row("A")}\n${row("B")}\n${row("C")}\n`, 3).rows.map((r) => r.line)).toEqual([2, 3, 4]);
    expect(parsed(`${HEADER}${row("A")}\r\n\r\n${row("C")}\r\n`, 3).rows.map((r) => r.line)).toEqual([2, 4]);
    expect(parseBulkPriceCsv(`${HEADER}${row("A")}\n\n${row("B")}\n${row("C")}\n`, { maxRows: 3 })).toEqual({
      ok: false,
      error: { code: "tooManyLines", max: 3 },
    });
    expect(parseBulkPriceCsv(`${HEADER}${row("A")}\n${row("B")}\n${row("C")}\n\n`, { maxRows: 3 })).toEqual({
      ok: false,
      error: { code: "tooManyLines", max: 3 },
    });
  });

  it("numbers rows by physical line in a file with CR line ends", () => {
    expect(parsed("sku,type,value,currency\rCAM-001,sell,1,BRL\r\rCAM-002,sell,2,BRL\r").rows.map((row) => row.line)).toEqual([2, 4]);
  });

  it("reports a wrong header before the limit", () => {
    expect(parseBulkPriceCsv(`sku,price\n${"\n".repeat(10)}`, { maxRows: 3 })).toEqual({
      ok: false,
      error: { code: "headerLacks", columns: "type, value, currency", count: 3 },
    });
  });

  it("words the limit in Portuguese", () => {
    expect(describeBulkMessage({ code: "tooManyLines", max: 5000 }, words("pt-BR"))).toBe(
      "O arquivo tem mais de 5.000 linhas depois do cabeçalho, contando as linhas em branco; apague as linhas em branco ou divida-o em arquivos menores.",
    );
  });
});

describe("convertAmount", () => {
  it.each([
    ["12.34", 100, 1234],
    ["12.345", 1000, 12345],
    ["12", 1, 12],
    ["0.5", 1000, 500],
  ])("%s at normalizer %i is %i", (amount, normalizer, value) => {
    expect(convertAmount(amount, "BRL", normalizer)).toEqual({ ok: true, value });
  });

  it("refuses decimals the normalizer cannot hold", () => {
    const result = convertAmount("12.5", "JPY", 1);
    expect(result).toEqual({ ok: false, reason: { code: "tooPrecise", amount: "12.5", normalizer: "1" } });
    expect(english(result.ok ? undefined : result.reason)).toMatch(/normalizer 1 /);
  });
});

describe("the parser's messages, worded", () => {
  it("read in English as they always did", () => {
    const en = words("en");
    expect(describeBulkMessage({ code: "headerLacks", columns: "currency", count: 1 }, en)).toBe(
      "The header is missing the column currency. Expected sku,type,value,currency.",
    );
    expect(describeBulkMessage({ code: "headerLacks", columns: "type, value", count: 2 }, en)).toBe(
      "The header is missing the columns type, value. Expected sku,type,value,currency.",
    );
    expect(describeBulkMessage({ code: "tooManyRows", max: 5000 }, en)).toBe(
      "The file has more than 5,000 rows; split it into smaller files.",
    );
    expect(reasonFor(`${HEADER}CAM-001,sell,12.345,BRL\n`)).toBe(
      "value 12.345 has more decimals than a price with normalizer 100 can hold",
    );
    expect(reasonFor(`${HEADER}CAM-001,sell,"1.234,56",BRL\n`)).toBe(
      'value "1.234,56" is not an amount: write digits with at most one decimal separator (12.34 or 12,34), without thousands separators or currency symbol',
    );
    expect(reasonFor(`${HEADER}CAM-001,sell,12,34,BRL\n`)).toBe(
      'more columns than the header: quote a value with a decimal comma ("12,34") or use 12.34',
    );
    expect(reasonFor(`${HEADER}CAM-001,sell\n`)).toBe("missing columns value, currency");
    expect(reasonFor(`${HEADER}"CAM-001,sell,1,BRL\n`)).toBe('a quoted field is not closed (a " is missing)');
    expect(describeBulkMessage({ code: "duplicate", first: "1234", type: "sell", sku: "CAM-001" }, en)).toBe(
      "duplicate: line 1234 already sets the sell price of CAM-001; only that line is used",
    );
  });

  it("read in Portuguese", () => {
    const pt = words("pt-BR");
    expect(describeBulkMessage({ code: "headerLacks", columns: "type, value", count: 2 }, pt)).toBe(
      "Faltam no cabeçalho as colunas type, value. O esperado é sku,type,value,currency.",
    );
    expect(describeBulkMessage({ code: "tooManyRows", max: 5000 }, pt)).toBe(
      "O arquivo tem mais de 5.000 linhas; divida-o em arquivos menores.",
    );
    expect(describeBulkMessage({ code: "typeUnknown", quoted: '"promo"' }, pt)).toBe('tipo desconhecido "promo" (use list ou sell)');
    expect(describeBulkMessage({ code: "verbatim", text: "A price had problems on import" }, pt)).toBe("A price had problems on import");
  });
});

describe("results CSV", () => {
  const line = (overrides: Partial<BulkResultLine>): BulkResultLine => ({
    line: 2,
    sku: "CAM-001",
    type: "sell",
    value: "12.34",
    currency: "BRL",
    outcome: "applied",
    message: "The price was imported and processed",
    priceId: "0123456789abcdef01234567",
    ...overrides,
  });

  it("writes the header and one row per line, sorted, with CRLF", () => {
    const csv = buildResultsCsv([
      line({ line: 3, sku: "CAM-002", outcome: "rejected", message: "sku: unknown, try again", priceId: null }),
      line({}),
    ]);
    expect(csv.split("\r\n")).toEqual([
      "line,sku,type,value,currency,outcome,message,price_id",
      "2,CAM-001,sell,12.34,BRL,applied,The price was imported and processed,0123456789abcdef01234567",
      '3,CAM-002,sell,12.34,BRL,rejected,"sku: unknown, try again",',
    ]);
  });

  it("neutralises text cells that a spreadsheet would run as formulas, and reads back", () => {
    const csv = buildResultsCsv([
      line({
        sku: '=HYPERLINK("http://x")',
        type: "+sell",
        value: "-1",
        currency: "@BRL",
        outcome: "invalid",
        message: "-bad",
        priceId: null,
      }),
    ]);
    const [, row] = Papa.parse<string[]>(csv.trim()).data;
    expect(row).toEqual(["2", '\'=HYPERLINK("http://x")', "'+sell", "'-1", "'@BRL", "invalid", "'-bad", ""]);
  });

  it("leaves amounts and safe text alone", () => {
    expect(escapeCsvCell("CAM-001")).toBe("CAM-001");
    expect(escapeCsvCell("\tx")).toBe("'\tx");
    expect(buildResultsCsv([line({ value: "0.5" })])).toContain(",0.5,");
  });
});
