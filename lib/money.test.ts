import { describe, expect, it } from "vitest";
import { formatMoney, fractionDigitsFor, moneyToDecimalString, parseMoneyInput } from "./money";

// Intl separates the currency symbol with a no-break space in pt-BR; compare with plain spaces.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

describe("fractionDigitsFor", () => {
  it("follows the power of ten of the normalizer", () => {
    expect(fractionDigitsFor(1)).toBe(0);
    expect(fractionDigitsFor(10)).toBe(1);
    expect(fractionDigitsFor(100)).toBe(2);
    expect(fractionDigitsFor(1000)).toBe(3);
    expect(fractionDigitsFor(1_000_000)).toBe(6);
  });

  it("keeps terminating quotients exact and gives other normalizers one digit per normalizer digit", () => {
    expect(fractionDigitsFor(8)).toBe(3); // 1/8 = 0.125
    expect(fractionDigitsFor(250)).toBe(3); // 1/250 = 0.004
    expect(fractionDigitsFor(3)).toBe(1);
    expect(fractionDigitsFor(12)).toBe(2);
  });

  it("rejects a normalizer that is not a positive integer", () => {
    expect(() => fractionDigitsFor(0)).toThrow(/positive integer/);
    expect(() => fractionDigitsFor(-100)).toThrow(/positive integer/);
    expect(() => fractionDigitsFor(2.5)).toThrow(/positive integer/);
  });
});

describe("moneyToDecimalString", () => {
  it("splits the integer value exactly", () => {
    expect(moneyToDecimalString({ value: 1999, normalizer: 100 })).toBe("19.99");
    expect(moneyToDecimalString({ value: 435, normalizer: 100 })).toBe("4.35");
    expect(moneyToDecimalString({ value: 1005, normalizer: 1000 })).toBe("1.005");
    expect(moneyToDecimalString({ value: 5, normalizer: 100 })).toBe("0.05");
    expect(moneyToDecimalString({ value: 1234, normalizer: 1 })).toBe("1234");
    expect(moneyToDecimalString({ value: 0, normalizer: 100 })).toBe("0.00");
  });

  it("keeps the sign of negative values, including those below one unit", () => {
    expect(moneyToDecimalString({ value: -5, normalizer: 100 })).toBe("-0.05");
    expect(moneyToDecimalString({ value: -123456, normalizer: 100 })).toBe("-1234.56");
  });

  it("handles the largest safe integer and bigints beyond it without losing digits", () => {
    expect(moneyToDecimalString({ value: Number.MAX_SAFE_INTEGER, normalizer: 100 })).toBe("90071992547409.91");
    expect(moneyToDecimalString({ value: 123456789012345678901234567890n, normalizer: 1000 })).toBe("123456789012345678901234567.890");
  });

  it("rejects numbers that are not safe integers", () => {
    expect(() => moneyToDecimalString({ value: 2 ** 53, normalizer: 100 })).toThrow(/safe integer/);
    expect(() => moneyToDecimalString({ value: 12.5, normalizer: 100 })).toThrow(/safe integer/);
    expect(() => moneyToDecimalString({ value: Number.NaN, normalizer: 100 })).toThrow(/safe integer/);
  });

  it("rounds half away from zero for normalizers whose quotient does not terminate", () => {
    expect(moneyToDecimalString({ value: 1, normalizer: 3 })).toBe("0.3");
    expect(moneyToDecimalString({ value: 2, normalizer: 3 })).toBe("0.7");
    expect(moneyToDecimalString({ value: -2, normalizer: 3 })).toBe("-0.7");
    expect(moneyToDecimalString({ value: 7, normalizer: 8 })).toBe("0.875");
  });
});

describe("formatMoney", () => {
  it("formats BRL in pt-BR by default", () => {
    expect(plain(formatMoney({ value: 123456, currency: "BRL", normalizer: 100 }))).toBe("R$ 1.234,56");
  });

  it("uses the locale's separators and symbol", () => {
    expect(formatMoney({ value: 123456, currency: "USD", normalizer: 100 }, "en-US")).toBe("$1,234.56");
    expect(plain(formatMoney({ value: 123450, currency: "EUR", normalizer: 100 }, "de-DE"))).toBe("1.234,50 €");
  });

  it("shows as many decimals as the normalizer gives, whatever the currency's habit", () => {
    expect(formatMoney({ value: 1500, currency: "JPY", normalizer: 1 }, "en-US")).toBe("¥1,500");
    expect(plain(formatMoney({ value: 1005, currency: "BRL", normalizer: 1000 }))).toBe("R$ 1,005");
    expect(formatMoney({ value: 525, currency: "JPY", normalizer: 100 }, "en-US")).toBe("¥5.25");
  });

  it("does not drift on amounts that have no exact binary form", () => {
    expect(formatMoney({ value: 435, currency: "USD", normalizer: 100 }, "en-US")).toBe("$4.35");
    expect(formatMoney({ value: 1999, currency: "USD", normalizer: 100 }, "en-US")).toBe("$19.99");
    expect(formatMoney({ value: 30, currency: "USD", normalizer: 100 }, "en-US")).toBe("$0.30");
  });

  it("formats zero and negative values", () => {
    expect(plain(formatMoney({ value: 0, currency: "BRL", normalizer: 100 }))).toBe("R$ 0,00");
    expect(plain(formatMoney({ value: -5, currency: "BRL", normalizer: 100 }))).toBe("-R$ 0,05");
    expect(formatMoney({ value: -123456, currency: "USD", normalizer: 100 }, "en-US")).toBe("-$1,234.56");
  });

  it("formats values beyond 2^53 exactly when given as bigint", () => {
    expect(formatMoney({ value: 12345678901234567890123n, currency: "USD", normalizer: 100 }, "en-US")).toBe(
      "$123,456,789,012,345,678,901.23",
    );
    expect(formatMoney({ value: Number.MAX_SAFE_INTEGER, currency: "USD", normalizer: 100 }, "en-US")).toBe("$90,071,992,547,409.91");
  });

  it("rejects unsafe numbers and malformed currencies", () => {
    expect(() => formatMoney({ value: 2 ** 60, currency: "USD", normalizer: 100 })).toThrow(RangeError);
    expect(() => formatMoney({ value: 1, currency: "US", normalizer: 100 })).toThrow(RangeError);
  });
});

describe("parseMoneyInput", () => {
  const brl = { currency: "BRL", normalizer: 100 };
  const usd = { currency: "USD", normalizer: 100 };

  it("reads pt-BR amounts with comma decimals and dot grouping", () => {
    expect(parseMoneyInput("12,34", brl)).toEqual({ ok: true, value: 1234 });
    expect(parseMoneyInput("1.234,56", brl)).toEqual({ ok: true, value: 123456 });
    expect(parseMoneyInput("1.234.567,8", brl)).toEqual({ ok: true, value: 123456780 });
    expect(parseMoneyInput("1234", brl)).toEqual({ ok: true, value: 123400 });
    expect(parseMoneyInput("1.234", brl)).toEqual({ ok: true, value: 123400 });
  });

  it("reads en-US amounts with dot decimals and comma grouping", () => {
    expect(parseMoneyInput("12.34", usd, "en-US")).toEqual({ ok: true, value: 1234 });
    expect(parseMoneyInput("1,234.56", usd, "en-US")).toEqual({ ok: true, value: 123456 });
    expect(parseMoneyInput("1234.5", usd, "en-US")).toEqual({ ok: true, value: 123450 });
    expect(parseMoneyInput("1,234", usd, "en-US")).toEqual({ ok: true, value: 123400 });
  });

  it("takes the other separator as decimal when it cannot be grouping", () => {
    expect(parseMoneyInput("19.99", brl)).toEqual({ ok: true, value: 1999 });
    expect(parseMoneyInput("1234.5", brl)).toEqual({ ok: true, value: 123450 });
    expect(parseMoneyInput("12,5", usd, "en-US")).toEqual({ ok: true, value: 1250 });
  });

  it("accepts the currency symbol or code, spaces and a dangling separator", () => {
    expect(parseMoneyInput("R$ 1.234,56", brl)).toEqual({ ok: true, value: 123456 });
    expect(parseMoneyInput("R$\u00a012,00", brl)).toEqual({ ok: true, value: 1200 });
    expect(parseMoneyInput("$12.34", usd, "en-US")).toEqual({ ok: true, value: 1234 });
    expect(parseMoneyInput("US$ 12,34", usd)).toEqual({ ok: true, value: 1234 });
    expect(parseMoneyInput("12.34 USD", usd, "en-US")).toEqual({ ok: true, value: 1234 });
    expect(parseMoneyInput("  12, ", brl)).toEqual({ ok: true, value: 1200 });
    expect(parseMoneyInput(",5", brl)).toEqual({ ok: true, value: 50 });
  });

  it("converts exactly where float arithmetic drifts", () => {
    // parseFloat("4.35") * 100 === 434.99999999999994; parseFloat("1.005") * 1000 === 1004.9999999999999
    expect(parseMoneyInput("4.35", usd, "en-US")).toEqual({ ok: true, value: 435 });
    expect(parseMoneyInput("1.005", { currency: "BRL", normalizer: 1000 }, "en-US")).toEqual({ ok: true, value: 1005 });
    expect(parseMoneyInput("1,005", { currency: "BRL", normalizer: 1000 })).toEqual({ ok: true, value: 1005 });
    expect(parseMoneyInput("19,99", brl)).toEqual({ ok: true, value: 1999 });
    expect(parseMoneyInput("0.3", usd, "en-US")).toEqual({ ok: true, value: 30 });
    expect(parseMoneyInput("1.15", usd, "en-US")).toEqual({ ok: true, value: 115 });
  });

  it("honours the normalizer for JPY (1), EUR (100) and three-decimal amounts (1000)", () => {
    const jpy = { currency: "JPY", normalizer: 1 };
    expect(parseMoneyInput("1,500", jpy, "en-US")).toEqual({ ok: true, value: 1500 });
    expect(parseMoneyInput("1.500", jpy)).toEqual({ ok: true, value: 1500 });
    expect(parseMoneyInput("1500.5", jpy, "en-US")).toEqual({ ok: false, reason: "too_precise" });
    expect(parseMoneyInput("9,90 €", { currency: "EUR", normalizer: 100 }, "pt-BR")).toEqual({ ok: true, value: 990 });
    expect(parseMoneyInput("2.5", { currency: "USD", normalizer: 1000 }, "en-US")).toEqual({ ok: true, value: 2500 });
  });

  it("refuses more decimals than the normalizer allows instead of rounding", () => {
    expect(parseMoneyInput("12,345", brl)).toEqual({ ok: false, reason: "too_precise" });
    expect(parseMoneyInput("0.001", usd, "en-US")).toEqual({ ok: false, reason: "too_precise" });
    expect(parseMoneyInput("1.0005", { currency: "BRL", normalizer: 1000 }, "en-US")).toEqual({
      ok: false,
      reason: "too_precise",
    });
  });

  it("ignores trailing zeros beyond the precision, which change nothing", () => {
    expect(parseMoneyInput("12.500", usd, "en-US")).toEqual({ ok: true, value: 1250 });
  });

  it("accepts exactly what a non-power-of-ten normalizer can hold", () => {
    expect(parseMoneyInput("0.25", { currency: "USD", normalizer: 4 }, "en-US")).toEqual({ ok: true, value: 1 });
    expect(parseMoneyInput("0.1", { currency: "USD", normalizer: 4 }, "en-US")).toEqual({ ok: false, reason: "too_precise" });
  });

  it("refuses negatives in every spelling", () => {
    for (const text of ["-12,34", "−12,34", "-R$ 12,34", "R$ -12,34", "(12,34)"]) {
      expect(parseMoneyInput(text, brl)).toEqual({ ok: false, reason: "negative" });
    }
  });

  it("refuses empty input and garbage", () => {
    expect(parseMoneyInput("", brl)).toEqual({ ok: false, reason: "empty" });
    expect(parseMoneyInput("   ", brl)).toEqual({ ok: false, reason: "empty" });
    for (const text of ["abc", "12a", "1e3", "12,34,56", "1.2.3", "1,234.56", ",", ".", "R$", "+5", "0x10", "12 34,5x"]) {
      expect(parseMoneyInput(text, brl), text).toEqual({ ok: false, reason: "invalid" });
    }
    expect(parseMoneyInput("1.234,56", usd, "en-US")).toEqual({ ok: false, reason: "invalid" });
    expect(parseMoneyInput("1,23,456.00", usd, "en-US")).toEqual({ ok: false, reason: "invalid" });
  });

  it("refuses amounts whose integer value would not be a safe integer", () => {
    expect(parseMoneyInput("90.071.992.547.409,91", brl)).toEqual({ ok: true, value: Number.MAX_SAFE_INTEGER });
    expect(parseMoneyInput("90.071.992.547.409,92", brl)).toEqual({ ok: false, reason: "too_large" });
  });

  it("round-trips what formatMoney prints", () => {
    for (const value of [0, 1, 99, 100, 123456, 100000000]) {
      const text = formatMoney({ value, currency: "BRL", normalizer: 100 });
      expect(parseMoneyInput(text, brl)).toEqual({ ok: true, value });
      const en = formatMoney({ value, currency: "USD", normalizer: 100 }, "en-US");
      expect(parseMoneyInput(en, usd, "en-US")).toEqual({ ok: true, value });
    }
  });
});
