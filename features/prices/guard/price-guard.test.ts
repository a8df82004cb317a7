import fc from "fast-check";
import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import { displayFormat } from "@/lib/format";
import { catalogues } from "@/messages";
import type { Messages } from "@/messages";
import { describeGuardReasons } from "./guard-words";
import type { GuardWords } from "./guard-words";
import { changeBps, guardReasons, judgePrice, unconfirmedProducts } from "./price-guard";
import type { GuardProduct } from "./price-guard";

const brl = (value: number, normalizer = 100) => ({ value, currency: "BRL", normalizer });
const product = (list: number | null, sell: number | null, cost: number | null): GuardProduct => ({
  current: { list: list === null ? null : brl(list), sell: sell === null ? null : brl(sell) },
  cost,
});

describe("guardReasons", () => {
  it("holds a sell price below cost, naming the cost", () => {
    expect(guardReasons(product(5988, 4990, 3000), { type: "sell", ...brl(2994) }, 100)).toEqual([
      { code: "belowCost", type: "sell", cost: 3000 },
    ]);
    // At the cost is not below it.
    expect(guardReasons(product(5988, 4990, 3000), { type: "sell", ...brl(3000) }, 100)).toEqual([]);
  });

  it("never compares a list price with the cost", () => {
    expect(guardReasons(product(5988, 4990, 3000), { type: "list", ...brl(2000) }, 100)).toEqual([]);
  });

  it("holds a list or sell price that moves more than the limit either way, with the change", () => {
    const known = product(10000, 8000, null);
    expect(guardReasons(known, { type: "list", ...brl(13001) }, 30)).toEqual([
      { code: "moveTooLarge", type: "list", limitPercent: 30, changeBps: 3001 },
    ]);
    expect(guardReasons(known, { type: "sell", ...brl(4800) }, 30)).toEqual([
      { code: "moveTooLarge", type: "sell", limitPercent: 30, changeBps: -4000 },
    ]);
    // Exactly ±30 % is within the limit.
    expect(guardReasons(known, { type: "list", ...brl(13000) }, 30)).toEqual([]);
    expect(guardReasons(known, { type: "sell", ...brl(5600) }, 30)).toEqual([]);
  });

  it("gives both reasons when a sell price falls below cost and too far", () => {
    // −40 % on R$ 49,90 with a cost of R$ 35,00 (the e2e test's change).
    expect(guardReasons(product(5988, 4990, 3500), { type: "sell", ...brl(2994) }, 30)).toEqual([
      { code: "belowCost", type: "sell", cost: 3500 },
      { code: "moveTooLarge", type: "sell", limitPercent: 30, changeBps: -4000 },
    ]);
  });

  it("judges a product only on what is known: no cost, no current price, another currency", () => {
    expect(guardReasons(product(null, null, null), { type: "sell", ...brl(1) }, 30)).toEqual([]);
    expect(guardReasons(product(null, null, 500), { type: "sell", ...brl(400) }, 30)).toEqual([
      { code: "belowCost", type: "sell", cost: 500 },
    ]);
    const dollars = { current: { list: null, sell: { value: 1000, currency: "USD", normalizer: 100 } }, cost: 5000 };
    // A cost is in reais: a price in dollars is judged on its move alone.
    expect(guardReasons(dollars, { type: "sell", value: 900, currency: "USD", normalizer: 100 }, 30)).toEqual([]);
    // A current price of zero gives no percentage to compare.
    expect(guardReasons(product(0, 0, null), { type: "sell", ...brl(100_000) }, 30)).toEqual([]);
  });

  it("holds a price in another currency than the product's, however small, as a reason of its own", () => {
    const usd = (value: number) => ({ value, currency: "USD", normalizer: 100 });
    // Against the current price of the same type, else of the other type, else the cost's reais.
    expect(guardReasons(product(5988, 4990, null), { type: "sell", ...usd(1) }, 30)).toEqual([
      { code: "currencyChange", type: "sell", from: "BRL", to: "USD" },
    ]);
    expect(guardReasons(product(5988, null, null), { type: "sell", ...usd(5000) }, 30)).toEqual([
      { code: "currencyChange", type: "sell", from: "BRL", to: "USD" },
    ]);
    expect(guardReasons(product(null, null, 3000), { type: "list", ...usd(5000) }, 30)).toEqual([
      { code: "currencyChange", type: "list", from: "BRL", to: "USD" },
    ]);
    // Back to reais from dollars, and a first price of a product with nothing known.
    const dollars = { current: { list: usd(1000), sell: usd(900) }, cost: null };
    expect(guardReasons(dollars, { type: "sell", ...brl(900) }, 30)).toEqual([
      { code: "currencyChange", type: "sell", from: "USD", to: "BRL" },
    ]);
    expect(guardReasons(product(null, null, null), { type: "sell", ...usd(1) }, 30)).toEqual([]);
  });

  it("compares prices of different precision exactly", () => {
    // R$ 49,90 kept in thousandths against a cost of R$ 49,91.
    expect(guardReasons(product(null, null, 4991), { type: "sell", ...brl(49900, 1000) }, 30)).toHaveLength(1);
    expect(guardReasons(product(null, null, 4990), { type: "sell", ...brl(49900, 1000) }, 30)).toEqual([]);
    expect(changeBps(brl(10000), brl(130000, 1000))).toBe(3000);
  });

  const price = fc.record({ value: fc.integer({ min: 1, max: 100_000_000 }), normalizer: fc.constantFrom(1, 10, 100, 1000) });

  it("holds a move exactly when its size is above the limit", () => {
    fc.assert(
      fc.property(price, price, fc.integer({ min: 1, max: 1000 }), (current, proposed, limit) => {
        const reasons = guardReasons(
          { current: { list: { ...current, currency: "BRL" }, sell: null }, cost: null },
          { type: "list", currency: "BRL", ...proposed },
          limit,
        );
        const ratio = proposed.value / proposed.normalizer / (current.value / current.normalizer) - 1;
        // Away from the boundary, where floating point is exact enough to check against.
        if (Math.abs(Math.abs(ratio) - limit / 100) > 1e-6) expect(reasons.length === 1).toBe(Math.abs(ratio) > limit / 100);
      }),
    );
  });

  it("never holds a price left as it is, nor one within the limit, without a cost", () => {
    fc.assert(
      fc.property(price, fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 1000 }), (current, limit, step) => {
        const amount = { ...current, currency: "BRL" };
        expect(guardReasons({ current: { list: amount, sell: amount }, cost: null }, { type: "sell", ...amount }, limit)).toEqual([]);
        // Scaled by a factor within the limit: (1 + f) with |f| ≤ limit %.
        const factor = Math.min(limit, step) / 100;
        const within = { ...amount, value: Math.floor(current.value * (1 + factor)) };
        if (within.value > current.value * (1 + limit / 100)) return;
        expect(guardReasons({ current: { list: amount, sell: amount }, cost: null }, { type: "sell", ...within }, limit)).toEqual([]);
      }),
    );
  });

  it("gives the same reasons whatever precision the same amounts are written in", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (current, proposed, cost) => {
          const inCents = guardReasons(product(null, current, cost), { type: "sell", ...brl(proposed) }, 30);
          const inThousandths = guardReasons(
            { current: { list: null, sell: brl(current * 10, 1000) }, cost },
            { type: "sell", ...brl(proposed * 10, 1000) },
            30,
          );
          expect(inThousandths).toEqual(inCents);
        },
      ),
    );
  });
});

describe("unconfirmedProducts", () => {
  it("names each held product once, unless confirmed", () => {
    const held = [{ sku: "A" }, { sku: "B" }, { sku: "A" }, { sku: "C" }];
    expect(unconfirmedProducts(held, new Set(["B"]))).toEqual(["A", "C"]);
  });
});

describe("the reasons in the seller's words", () => {
  const words = (locale: "en" | "pt-BR", reasons: Parameters<typeof describeGuardReasons>[0]) =>
    describeGuardReasons(
      reasons,
      createTranslator({ locale, messages: catalogues[locale] as Messages, namespace: "prices.guard" }) as unknown as GuardWords,
      displayFormat({ locale }),
    );
  const reasons = guardReasons(product(5988, 4990, 3500), { type: "sell", ...brl(2994) }, 30);

  it("says below cost with the cost, and the change beyond the limit, in Portuguese", () => {
    expect(words("pt-BR", reasons)).toBe("Abaixo do custo (R$\u00a035,00); Mudança maior que 30% no preço de venda (\u221240%)");
  });

  it("and in English, a rise with its sign", () => {
    const rise = guardReasons(product(1000, null, null), { type: "list", ...brl(1450) }, 30);
    expect(words("en", rise)).toBe("Change larger than 30% in the list price (+45%)");
    expect(words("en", reasons)).toContain("Below cost (R$35.00)");
  });

  it("names the currencies of a change of currency, with their codes", () => {
    const change = guardReasons(product(5988, 4990, null), { type: "sell", value: 1, currency: "USD", normalizer: 100 }, 30);
    expect(words("en", change)).toBe("Sell price in another currency: Brazilian Real (BRL) to US Dollar (USD)");
    expect(words("pt-BR", change)).toBe("Preço de venda em outra moeda: de Real brasileiro (BRL) para Dólar americano (USD)");
  });
});

describe("the margin a held price leaves", () => {
  const words = (locale: "en" | "pt-BR", reasons: Parameters<typeof describeGuardReasons>[0]) =>
    describeGuardReasons(
      reasons,
      createTranslator({ locale, messages: catalogues[locale] as Messages, namespace: "prices.guard" }) as unknown as GuardWords,
      displayFormat({ locale }),
    );

  it("is worked out with the cost and the commission rate, on each reason about the sell price", () => {
    // R$ 29,94 with a cost of R$ 25,00 and 12 % commission (R$ 3,59): R$ 1,35 left, 4.5 % of the price.
    const reasons = judgePrice(product(5988, 4990, 2500), { type: "sell", ...brl(2994) }, 30, 1200);
    expect(reasons).toEqual([
      { code: "moveTooLarge", type: "sell", limitPercent: 30, changeBps: -4000, margin: { amount: 135, percentBps: 451 } },
    ]);
  });

  it("is said once after the reasons, in Portuguese and in English, a loss with its minus sign", () => {
    const belowCost = judgePrice(product(5988, 4990, 3500), { type: "sell", ...brl(2994) }, 30, null);
    expect(words("pt-BR", belowCost)).toBe(
      "Abaixo do custo (R$\u00a035,00); Mudança maior que 30% no preço de venda (\u221240%); Deixa margem de \u221216,9% (-R$\u00a05,06 por venda)",
    );
    const thin = judgePrice(product(5988, 4990, 2500), { type: "sell", ...brl(2994) }, 30, 1200);
    expect(words("en", thin)).toBe("Change larger than 30% in the sell price (\u221240%); Leaves a 4.5% margin (R$1.35 a sale)");
  });

  it("says nothing of margin without a cost, or for a list price", () => {
    const noCost = judgePrice(product(5988, 4990, null), { type: "sell", ...brl(2994) }, 30, 1200);
    expect(noCost.some((reason) => reason.margin)).toBe(false);
    expect(words("pt-BR", noCost)).not.toContain("margem");
    const list = judgePrice(product(5988, 4990, 2500), { type: "list", ...brl(9000) }, 30, 1200);
    expect(list).toEqual([{ code: "moveTooLarge", type: "list", limitPercent: 30, changeBps: 5030 }]);
  });

  it("is the one the margins column shows: amount + cost + commission is the price", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 0, max: 5000 }),
        (sell, cost, rate) => {
          const [reason] = judgePrice(product(null, null, cost), { type: "sell", value: sell, currency: "USD", normalizer: 100 }, 30, rate);
          // Another currency than the cost's: held as such, with no margin in reais to speak of.
          expect(reason?.margin).toBeUndefined();
          const inReais = judgePrice(product(null, sell * 2, cost), { type: "sell", ...brl(sell) }, 30, rate);
          for (const held of inReais) expect(held.margin?.amount).toBe(sell - cost - Math.round((sell * rate) / 10_000));
        },
      ),
    );
  });
});
