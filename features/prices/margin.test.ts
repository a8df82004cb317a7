import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { divideRounded, marginOf, toCentavos } from "./margin";

const brl = (value: number, normalizer = 100) => ({ value, currency: "BRL", normalizer });

describe("marginOf", () => {
  it("is the sell price less the cost and the commission, in money and as a share of the sell price", () => {
    // Por R$ 49,90, custo R$ 20,00, comissão 12 %: R$ 5,99 (5,988 rounded), margem R$ 23,91 = 47,92 %.
    expect(marginOf(brl(4990), 2000, 1200)).toEqual({ amount: 2391, commission: 599, percentBps: 4792 });
  });

  it("counts no commission when the rate is not known", () => {
    expect(marginOf(brl(10000), 6000, null)).toEqual({ amount: 4000, commission: 0, percentBps: 4000 });
  });

  it("is negative when the sale loses money", () => {
    expect(marginOf(brl(1000), 1200, 1000)).toEqual({ amount: -300, commission: 100, percentBps: -3000 });
  });

  it("rounds the commission and the percentage half away from zero", () => {
    // 12,5 % of R$ 0,01 is half a centavo: one centavo.
    expect(marginOf(brl(1), 0, 1250)?.commission).toBe(0);
    expect(marginOf(brl(4), 0, 1250)?.commission).toBe(1);
    // A margin of −1 centavo on R$ 3,00 is −3,33… bps → −33.
    expect(marginOf(brl(300), 301, null)?.percentBps).toBe(-33);
  });

  it("brings a price of another precision to centavos first", () => {
    expect(toCentavos(brl(12345, 1000))).toBe(1235);
    expect(toCentavos(brl(12344, 1000))).toBe(1234);
    expect(marginOf(brl(49900, 1000), 2000, null)).toEqual({ amount: 2990, commission: 0, percentBps: 5992 });
  });

  it("is unknown without a cost, without a sell price, or for a price that is not in reais", () => {
    expect(marginOf(brl(4990), null, 1200)).toBeNull();
    expect(marginOf(null, 2000, 1200)).toBeNull();
    expect(marginOf({ value: 4990, currency: "USD", normalizer: 100 }, 2000, 1200)).toBeNull();
  });

  it("has no percentage for a sell price of zero", () => {
    expect(marginOf(brl(0), 100, 1000)).toEqual({ amount: -100, commission: 0, percentBps: null });
  });

  it("always adds back up to the sell price, and the percentage has the amount's sign", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.option(fc.integer({ min: 0, max: 10_000 })),
        (sell, cost, rate) => {
          const margin = marginOf(brl(sell), cost, rate)!;
          expect(margin.amount + cost + margin.commission).toBe(sell);
          expect(margin.commission).toBeGreaterThanOrEqual(0);
          expect(margin.commission).toBeLessThanOrEqual(sell);
          if (margin.percentBps !== null)
            expect(Math.sign(margin.percentBps) === Math.sign(margin.amount) || margin.percentBps === 0).toBe(true);
        },
      ),
    );
  });
});

describe("divideRounded", () => {
  it("rounds half away from zero, both signs", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.integer({ min: 1, max: 1000 }), (numerator, denominator) => {
        const rounded = Number(divideRounded(BigInt(numerator), BigInt(denominator)));
        const exact = numerator / denominator;
        expect(Math.abs(rounded - exact)).toBeLessThanOrEqual(0.5);
        if (Math.abs(Math.abs(rounded - exact) - 0.5) < 1e-9) expect(Math.abs(rounded)).toBeGreaterThan(Math.abs(exact));
      }),
    );
  });
});
