import { describe, expect, it } from "vitest";
import { LOCALES } from "@/i18n/config";
import { ORDER_STATUSES } from "@marketplace/api/values";
import {
  commissionTypeWord,
  deliveryStatusWord,
  durationWord,
  installmentsWord,
  orderStatusWord,
  paymentMethodWord,
  pickupMethodWord,
  quantityWord,
  timeLimitWord,
} from "@/lib/words/order-words";
import { COMMISSION_TYPES, DELIVERY_STATUSES, PAYMENT_METHODS, PICKUP_METHODS } from "@/lib/words/order-codes";
import { wordsIn } from "@/tests/support/test-words";

// An order's page in words: statuses, payment, commission, pickup, units and handling times, in
// both languages, with unknown codes shown and marked.

const SNAKE = /\b[a-z]+_[a-z]+\b/;

describe("order words", () => {
  it.each(LOCALES)("have a word for every known code in %s", (locale) => {
    const t = wordsIn(locale);
    const groups: [readonly string[], (code: string) => string][] = [
      [ORDER_STATUSES, (code) => orderStatusWord(t, code)],
      [DELIVERY_STATUSES, (code) => deliveryStatusWord(t, code)],
      [PAYMENT_METHODS, (code) => paymentMethodWord(t, code)],
      [COMMISSION_TYPES, (code) => commissionTypeWord(t, code)],
      [PICKUP_METHODS, (code) => pickupMethodWord(t, code)],
    ];
    for (const [codes, word] of groups) {
      const words = codes.map(word);
      for (const [index, text] of words.entries()) {
        expect(text, codes[index]).not.toMatch(SNAKE);
        expect(text, codes[index]).not.toMatch(/^(Other|Outro):/);
      }
      expect(new Set(words).size, codes.join()).toBe(codes.length);
    }
  });

  it("say the sandbox's codes as a seller would", () => {
    const en = wordsIn("en");
    const pt = wordsIn("pt-BR");
    expect(paymentMethodWord(pt, "credit_card")).toBe("Cartão de crédito");
    expect(paymentMethodWord(en, "credit_card")).toBe("Credit card");
    expect(paymentMethodWord(pt, "boleto")).toBe("Boleto bancário");
    expect(deliveryStatusWord(pt, "created")).toBe("etiqueta gerada");
    expect(deliveryStatusWord(en, "created")).toBe("label created");
    expect(deliveryStatusWord(pt, "shipped")).toBe("despachada");
    expect(orderStatusWord(pt, "cancelled")).toBe("cancelado");
    expect(commissionTypeWord(pt, "value")).toBe("valor fixo");
    expect(commissionTypeWord(en, "value")).toBe("fixed amount");
    expect(pickupMethodWord(pt, "dropoff")).toBe("Postagem em agência");
  });

  it("count installments and units with each language's plurals", () => {
    const en = wordsIn("en");
    const pt = wordsIn("pt-BR");
    expect(installmentsWord(pt, 1)).toBe("à vista");
    expect(installmentsWord(pt, 6)).toBe("6 parcelas");
    expect(installmentsWord(en, 1)).toBe("in full");
    expect(installmentsWord(en, 10)).toBe("10 installments");
    expect(quantityWord(pt, 1, "PC")).toBe("1 peça");
    expect(quantityWord(pt, 3, "PC")).toBe("3 peças");
    expect(quantityWord(en, 3, "pc")).toBe("3 pieces");
    expect(quantityWord(en, 2, "BOX")).toBe("2 (other unit: BOX)");
  });

  it("say handling times in business or calendar days, singular and plural", () => {
    const en = wordsIn("en");
    const pt = wordsIn("pt-BR");
    expect(durationWord(pt, { value: 1, precision: "days", workday: true })).toBe("1 dia útil");
    expect(durationWord(pt, { value: 2, precision: "days", workday: true })).toBe("2 dias úteis");
    expect(durationWord(pt, { value: 3, precision: "days", workday: false })).toBe("3 dias corridos");
    expect(durationWord(pt, { value: 1, precision: "days", workday: false })).toBe("1 dia corrido");
    expect(durationWord(pt, { value: 0, precision: "days", workday: true })).toBe("0 dias úteis");
    expect(durationWord(pt, { value: 24, precision: "hours", workday: false })).toBe("24 horas");
    expect(durationWord(en, { value: 1, precision: "days", workday: true })).toBe("1 business day");
    expect(durationWord(en, { value: 2, precision: "days", workday: true })).toBe("2 business days");
    expect(durationWord(en, { value: 3, precision: "days", workday: false })).toBe("3 calendar days");
    expect(durationWord(en, { value: 1, precision: "hours", workday: true })).toBe("1 business hour");
    expect(timeLimitWord(pt, { value: 2, precision: "days", workday: true }, "22 de nov.")).toBe("2 dias úteis, até 22 de nov.");
    expect(timeLimitWord(en, { value: 2, precision: "days", workday: true }, "Nov 22")).toBe("2 business days, by Nov 22");
  });

  it("mark unknown codes, never leaving them blank", () => {
    const en = wordsIn("en");
    const pt = wordsIn("pt-BR");
    expect(paymentMethodWord(pt, "foo_bar")).toBe("Outro: foo_bar");
    expect(paymentMethodWord(en, "foo_bar")).toBe("Other: foo_bar");
    expect(paymentMethodWord(en, "")).toBe("Other: —");
    expect(deliveryStatusWord(pt, "returned")).toBe("Outro: returned");
    expect(orderStatusWord(en, "on_hold")).toBe("Other: on_hold");
    expect(commissionTypeWord(pt, "tiered")).toBe("Outro: tiered");
    expect(pickupMethodWord(en, "locker")).toBe("Other: locker");
    expect(durationWord(pt, { value: 2, precision: "weeks", workday: false })).toBe("Outro: 2 weeks");
  });
});
