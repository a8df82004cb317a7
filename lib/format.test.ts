import { describe, expect, it } from "vitest";
import { displayFormat } from "./format";

describe("displayFormat", () => {
  it("shows dates in Portuguese and São Paulo time by default, whatever the process's time zone", () => {
    const format = displayFormat();
    // 12:00 UTC is 09:00 in São Paulo (UTC−3, no daylight saving since 2019).
    expect(format.date(new Date("2026-11-22T12:00:00Z"))).toMatch(/^22 de nov\.? de 2026,? 09:00/);
    expect(format.date("2026-11-22T02:30:00Z", "date")).toMatch(/^21 de nov\.? de 2026$/);
  });

  it("shows dates in English and in the seller's own zone when asked", () => {
    const format = displayFormat({ locale: "en", timeZone: "America/Manaus" });
    // Manaus is UTC−4: 12:00 UTC is 08:00 there.
    expect(format.date(new Date("2026-11-22T12:00:00Z"))).toMatch(/Nov 22, 2026, 8:00\sAM GMT-4/);
  });

  it("says '—' for a missing or unreadable date rather than 'Invalid Date'", () => {
    const format = displayFormat();
    expect(format.date(null)).toBe("—");
    expect(format.date("not a date")).toBe("—");
  });

  it("groups thousands and writes money the way each language does", () => {
    expect(displayFormat().count(1234567)).toBe("1.234.567");
    expect(displayFormat({ locale: "en" }).count(1234567)).toBe("1,234,567");
    expect(displayFormat().money({ value: 123450, currency: "BRL", normalizer: 100 })).toMatch(/^R\$\s1\.234,50$/);
    expect(displayFormat({ locale: "en" }).money({ value: 123450, currency: "BRL", normalizer: 100 })).toBe("R$1,234.50");
    expect(displayFormat().percent(-0.1)).toMatch(/^-10\s?%$/);
  });
});
