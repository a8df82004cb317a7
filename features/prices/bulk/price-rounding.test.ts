import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyPercent } from "../price-products";
import { roundCents, roundProductPrices } from "./price-rounding";

const brl = (value: number, normalizer = 100) => ({ value, currency: "BRL", normalizer });
const endings = fc.constantFrom("90" as const, "99" as const);

describe("roundCents", () => {
  it("turns the issue's −10 % prices into ,90 and ,99 endings near them", () => {
    // R$ 49,90 and R$ 299,90 less 10 %: R$ 44,91 and R$ 269,91.
    expect([applyPercent(4990, -1000), applyPercent(29990, -1000)]).toEqual([4491, 26991]);
    expect(roundCents(4491, 100, "90")).toBe(4490);
    expect(roundCents(26991, 100, "90")).toBe(26990);
    expect(roundCents(4491, 100, "99")).toBe(4499);
    expect(roundCents(26991, 100, "99")).toBe(26999);
    expect(roundCents(4491, 100, "exact")).toBe(4491);
  });

  it("goes to the nearest ending either way, a tie going down", () => {
    expect(roundCents(4539, 100, "90")).toBe(4490);
    expect(roundCents(4541, 100, "90")).toBe(4590);
    // R$ 45,40 is as far from R$ 44,90 as from R$ 45,90.
    expect(roundCents(4540, 100, "90")).toBe(4490);
    expect(roundCents(4549, 100, "99")).toBe(4499);
    expect(roundCents(4550, 100, "99")).toBe(4599);
    expect(roundCents(4490, 100, "90")).toBe(4490);
  });

  it("rounds down or up when asked, and never under the lowest ending", () => {
    expect(roundCents(4589, 100, "90", "down")).toBe(4490);
    expect(roundCents(4491, 100, "90", "up")).toBe(4590);
    expect(roundCents(4490, 100, "90", "up")).toBe(4490);
    expect(roundCents(1, 100, "90")).toBe(90);
    expect(roundCents(50, 100, "99", "down")).toBe(99);
  });

  it("works in the price's own precision, and leaves a currency without cents as it is", () => {
    expect(roundCents(44_912, 1000, "90")).toBe(44_900);
    expect(roundCents(449, 10, "90")).toBe(449);
    expect(roundCents(449, 1, "99")).toBe(449);
  });

  const normalizers = fc.constantFrom(100, 1000, 10_000);

  it("always ends in the chosen cents, within one real of the price, never under R$ 0,01", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), normalizers, endings, (cents, normalizer, ending) => {
        const value = cents * (normalizer / 100);
        const rounded = roundCents(value, normalizer, ending);
        expect(rounded % normalizer).toBe((Number(ending) * normalizer) / 100);
        expect(Math.abs(rounded - value)).toBeLessThanOrEqual(normalizer);
        expect(rounded).toBeGreaterThanOrEqual(normalizer / 100);
        // Nearest: within half a real, unless the price is under the lowest ending.
        if (value >= (Number(ending) * normalizer) / 100) expect(Math.abs(rounded - value) * 2).toBeLessThanOrEqual(normalizer);
      }),
    );
  });

  it("keeps the order of two prices, so a sell price under its list price stays under it", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 0, max: 1_000_000 }), endings, (low, gap, ending) => {
        expect(roundCents(low, 100, ending)).toBeLessThanOrEqual(roundCents(low + gap, 100, ending));
      }),
    );
  });
});

describe("roundProductPrices", () => {
  it("rounds both prices of a product to the ending", () => {
    expect(roundProductPrices({ list: brl(5389), sell: brl(4491) }, { list: brl(5988), sell: brl(4990) }, "90")).toEqual({
      list: 5390,
      sell: 4490,
    });
  });

  it("takes the ending below for a sell price the nearest one would lift above its list price", () => {
    // −10 % of the sell price only: R$ 44,96 would round to R$ 44,99, above the list price of R$ 44,97.
    expect(roundProductPrices({ list: null, sell: brl(4496) }, { list: brl(4497), sell: brl(4995) }, "99")).toEqual({
      list: null,
      sell: 4399,
    });
  });

  it("takes the ending above for a list price the nearest one would drop under the sell price", () => {
    expect(roundProductPrices({ list: brl(4535), sell: null }, { list: brl(5000), sell: brl(4520) }, "90")).toEqual({
      list: 4590,
      sell: null,
    });
  });

  it("keeps the exact values when no ending keeps the order", () => {
    expect(roundProductPrices({ list: null, sell: brl(50) }, { list: brl(60), sell: brl(100) }, "90")).toEqual({ list: null, sell: 50 });
  });

  it("leaves a sell price the change itself puts above the list price to the seller, rounded", () => {
    expect(roundProductPrices({ list: null, sell: brl(6091) }, { list: brl(5000), sell: brl(4000) }, "90")).toEqual({
      list: null,
      sell: 6090,
    });
  });

  it("never leaves a sell price above its list price where the exact change did not", () => {
    const price = fc.integer({ min: 1, max: 1_000_000 });
    fc.assert(
      fc.property(price, price, fc.boolean(), fc.boolean(), endings, (a, b, changeList, changeSell, ending) => {
        const [sell, list] = a <= b ? [a, b] : [b, a];
        const next = { list: changeList ? brl(list) : null, sell: changeSell ? brl(sell) : null };
        const kept = { list: changeList ? brl(list + 7) : brl(list), sell: changeSell ? brl(sell + 3) : brl(sell) };
        const rounded = roundProductPrices(next, kept, ending);
        expect(rounded.sell ?? kept.sell.value).toBeLessThanOrEqual(rounded.list ?? kept.list.value);
        for (const [type, value] of [
          ["list", list],
          ["sell", sell],
        ] as const) {
          const result = rounded[type];
          if (result !== null) expect(Math.abs(result - value)).toBeLessThanOrEqual(100);
        }
      }),
    );
  });
});
