import fc from "fast-check";
import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import { catalogues } from "@/messages";
import type { Messages } from "@/messages";
import { classifyCostRows, describeCostMessage, parseCostCsv } from "./cost-csv";
import type { CostCsvMessage, CostCsvParseResult, CostCsvWords } from "./cost-csv";
import { parseCostInput } from "./cost-input";

// The parser says what is wrong as a code; the page words it. The assertions read the words the
// seller reads.
const wordsIn = (locale: "en" | "pt-BR") =>
  createTranslator({ locale, messages: catalogues[locale] as Messages, namespace: "prices.costs.messages" }) as unknown as CostCsvWords;
const english = (message: CostCsvMessage) => describeCostMessage(message, wordsIn("en"));
const portuguese = (message: CostCsvMessage) => describeCostMessage(message, wordsIn("pt-BR"));

function parsed(text: string, maxRows?: number): Extract<CostCsvParseResult, { ok: true }> {
  const result = parseCostCsv(text, { maxRows });
  if (!result.ok) throw new Error(`expected a parsed file, got: ${english(result.error)}`);
  return result;
}

const reasonFor = (text: string, line = 2) => {
  const reason = parsed(text).invalid.find((row) => row.line === line)?.reason;
  return reason && english(reason);
};

describe("parseCostCsv: what a Brazilian spreadsheet saves", () => {
  it("reads semicolons, decimal commas, a BOM and CRLF into centavos", () => {
    const result = parsed("\uFEFFsku;cost\r\nCAM-001;19,90\r\nTEN-002;145\r\nCAF-001;0,5\r\n");
    expect(result.invalid).toEqual([]);
    expect(result.rows).toEqual([
      { line: 2, sku: "CAM-001", amount: "19.9", cost: 1990 },
      { line: 3, sku: "TEN-002", amount: "145", cost: 14500 },
      { line: 4, sku: "CAF-001", amount: "0.5", cost: 50 },
    ]);
  });

  it("takes Portuguese or other header names in any order and case, and ignores other columns", () => {
    const result = parsed('Custo;Nome;Código\n"19,90";Camiseta;CAM-001\n');
    expect(result.rows).toEqual([{ line: 2, sku: "CAM-001", amount: "19.9", cost: 1990 }]);
    expect(parsed("code,cost\nCAM-001,19.90\n").rows[0]?.cost).toBe(1990);
  });

  it("reads a comma file with a quoted decimal comma, skips blank lines and counts physical lines", () => {
    const result = parsed('sku,cost\n\nCAM-001,"19,90"\n"CAM\n002",1\n');
    expect(result.rows.map((row) => [row.line, row.sku, row.cost])).toEqual([
      [3, "CAM-001", 1990],
      [4, "CAM\n002", 100],
    ]);
  });
});

describe("parseCostCsv: each bad row with a clear reason", () => {
  it.each([
    ["an empty cost", "CAM-001;", "the cost is empty (to remove a cost, do it on the product)"],
    ["a negative cost", "CAM-001;-5", "the cost -5 is negative"],
    ["a cost with R$", "CAM-001;R$ 19,90", 'the cost "R$ 19,90" is not an amount'],
    ["thousands separators", "CAM-001;1.234,56", 'the cost "1.234,56" is not an amount'],
    ["three decimals", "CAM-001;19,999", "the cost 19.999 has more than two decimals"],
    ["a huge cost", "CAM-001;99999999999", "the cost 99999999999 is too large"],
    ["an empty code", ";19,90", "the code is empty"],
    ["a code of 51 characters", `${"A".repeat(51)};1`, "the code is longer than 50 characters"],
    ["a missing column", "CAM-001", "missing column cost"],
    ["an extra column", "CAM-001;1;2", "more columns than the header"],
  ])("%s", (_name, row, reason) => {
    expect(reasonFor(`sku;cost\n${row}\n`)).toContain(reason);
  });

  it("an unquoted decimal comma in a comma file says how to fix it", () => {
    expect(reasonFor("sku,cost\nCAM-001,19,90\n")).toContain('quote a cost with a decimal comma ("19,90")');
  });

  it("keeps the first of a code written twice and names that line", () => {
    const result = parsed("sku;cost\nCAM-001;10\nCAM-001;12\n");
    expect(result.rows.map((row) => row.cost)).toEqual([1000]);
    expect(english(result.invalid[0]!.reason)).toBe("duplicate: line 2 already sets the cost of CAM-001; only that line is used");
    expect(result.invalid[0]).toMatchObject({ line: 3, sku: "CAM-001", cost: "12" });
  });

  it("words a row's reason in Portuguese", () => {
    expect(portuguese(parsed("sku;custo\nCAM-001;abc\n").invalid[0]!.reason)).toContain('o custo "abc" não é um valor');
  });
});

describe("parseCostCsv: the file as a whole", () => {
  it("refuses an empty file, a file without the header, a header lacking a column or naming one twice, and a header alone", () => {
    const error = (text: string) => {
      const result = parseCostCsv(text);
      return result.ok ? null : english(result.error);
    };
    expect(error("")).toBe("The file is empty. The first line must be the header sku;cost.");
    expect(error("a;b\n1;2\n")).toBe("The first line must be the header sku;cost (it is missing).");
    expect(error("sku;preço\nCAM-001;1\n")).toBe("The header is missing the column cost. Expected sku;cost.");
    expect(error("sku;código;cost\nA;B;1\n")).toBe("The header has the column sku twice.");
    expect(error("sku;cost\n")).toBe("The file has a header but no rows.");
  });

  it("refuses more lines than allowed", () => {
    const result = parseCostCsv("sku;cost\nA;1\nB;2\nC;3\n", { maxRows: 2 });
    expect(result.ok ? null : english(result.error)).toBe("The file has more than 2 rows; split it into smaller files.");
  });

  it("reads any cost written with two decimals and a comma back to the same centavos", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000_000 }), (centavos) => {
        const text = `${Math.floor(centavos / 100)},${String(centavos % 100).padStart(2, "0")}`;
        expect(parsed(`sku;cost\nX;${text}\n`).rows[0]?.cost).toBe(centavos);
      }),
    );
  });
});

describe("classifyCostRows", () => {
  it("compares each row with the current cost: new, changed, unchanged; bad rows as they are, in file order", () => {
    const result = parsed("sku;cost\nA;10\nB;12\nC;;\nC;7\nD;abc\n");
    const preview = classifyCostRows(
      result,
      new Map([
        ["A", 1000],
        ["B", 1100],
      ]),
    );
    expect(preview.rows.map((row) => [row.line, row.kind])).toEqual([
      [2, "unchanged"],
      [3, "changed"],
      [4, "invalid"],
      [5, "new"],
      [6, "invalid"],
    ]);
    expect(preview.rows[1]).toMatchObject({ current: 1100, cost: 1200 });
    expect(preview.counts).toEqual({ new: 1, changed: 1, unchanged: 1, invalid: 2 });
  });
});

describe("parseCostInput", () => {
  it("reads a cost in the seller's notation, and an empty field as a removal", () => {
    expect(parseCostInput("1.234,56", "pt-BR")).toEqual({ ok: true, cost: 123456 });
    expect(parseCostInput("1,234.56", "en")).toEqual({ ok: true, cost: 123456 });
    expect(parseCostInput("  ", "pt-BR")).toEqual({ ok: true, cost: null });
    expect(parseCostInput("12,345", "pt-BR")).toEqual({ ok: false, reason: "too_precise" });
    expect(parseCostInput("-3", "pt-BR")).toEqual({ ok: false, reason: "negative" });
    expect(parseCostInput("abc", "pt-BR")).toEqual({ ok: false, reason: "invalid" });
  });
});
