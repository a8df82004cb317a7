import { describe, expect, it } from "vitest";
import { LOCALES } from "@/i18n/config";
import { WEBHOOK_DOMAINS } from "@marketplace/api/values";
import { domainWord, EVENT_DOMAINS, eventWord } from "@/lib/words/event-words";
import { wordsIn } from "@/tests/support/test-words";

// What the overview, the event log and the toasts say of a notification: a sentence for every
// domain and status the spec lists, never the code itself, and an unknown code still shown.

const PAIRS = Object.entries(WEBHOOK_DOMAINS).flatMap(([domain, statuses]) => statuses.map((status) => [domain, status] as const));
/** A code as the platform spells it: a dotted domain or a snake_case status. */
const CODE = /\b[a-z]+\.[a-z]+\b|\b[a-z]+_[a-z]+\b/;

describe("event words", () => {
  it.each(LOCALES)("give every domain and status a sentence in %s, without a code in it", (locale) => {
    const t = wordsIn(locale);
    const sentences = PAIRS.map(([domain, status]) => eventWord(t, domain, status));
    for (const [index, sentence] of sentences.entries()) {
      const [domain, status] = PAIRS[index]!;
      expect(sentence, `${domain} ${status}`).not.toMatch(CODE);
      expect(sentence, `${domain} ${status}`).not.toMatch(/^(Other|Outro)\b|—/);
      expect(sentence.length, `${domain} ${status}`).toBeGreaterThan(3);
    }
    // Each event reads differently from every other.
    expect(new Set(sentences).size).toBe(sentences.length);
  });

  it("say the usual ones as a seller would", () => {
    const en = wordsIn("en");
    const pt = wordsIn("pt-BR");
    expect(eventWord(pt, "order.order", "new")).toBe("Novo pedido");
    expect(eventWord(en, "order.order", "new")).toBe("New order");
    expect(eventWord(pt, "order.order", "approved")).toBe("Pedido aprovado");
    expect(eventWord(pt, "order.delivery", "posted")).toBe("Entrega postada");
    expect(eventWord(pt, "portfolio.price", "updated")).toBe("Preço atualizado");
    expect(eventWord(pt, "portfolio.sku", "created")).toBe("SKU criado");
    expect(eventWord(en, "portfolio.sku", "created")).toBe("SKU created");
  });

  it("read the spec's `order` domain as order.order", () => {
    expect(eventWord(wordsIn("pt-BR"), "order", "cancelled")).toBe("Pedido cancelado");
    expect(domainWord(wordsIn("en"), "order")).toBe("Orders");
  });

  it.each(LOCALES)("name every domain of the event log's filter in %s", (locale) => {
    const t = wordsIn(locale);
    const words = EVENT_DOMAINS.map((domain) => domainWord(t, domain));
    for (const word of words) expect(word).not.toMatch(CODE);
    expect(new Set(words).size).toBe(EVENT_DOMAINS.length);
  });

  it("mark unknown codes, and show them", () => {
    const en = wordsIn("en");
    const pt = wordsIn("pt-BR");
    expect(eventWord(en, "order.order", "on_hold")).toBe("Orders — other: on_hold");
    expect(eventWord(pt, "order.order", "on_hold")).toBe("Pedidos — outro: on_hold");
    expect(eventWord(en, "loyalty.points", "granted")).toBe("Other: loyalty.points · granted");
    expect(eventWord(pt, "foo_bar", null)).toBe("Outro: foo_bar");
    expect(eventWord(pt, "order.shipping", null)).toBe("Envios por sua conta — outro: —");
    expect(domainWord(pt, "loyalty")).toBe("Outro: loyalty");
    // A body stored invalid has neither.
    expect(eventWord(en, null, null)).toBe("Unrecognised notification");
    expect(eventWord(pt, null, null)).toBe("Notificação não reconhecida");
    // Inherited property names are not domains.
    expect(eventWord(en, "toString", "x")).toBe("Other: toString · x");
  });
});
