import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import type { Locale } from "@/i18n/config";
import { LOCALES } from "@/i18n/config";
import { auditActionWord, auditKindWord, describeAuditEntry, describeAuditSide } from "./describe";
import type { AuditWords, DescribableEntry } from "./describe";
import { AUDIT_ACTIONS, AUDIT_KINDS } from "@/lib/audit/kinds";
import type { AuditAction } from "@/lib/audit/kinds";
import { displayFormat } from "@/lib/format";
import { catalogues } from "@/messages";
import type { Messages } from "@/messages";

// What the audit log says of an entry: a sentence a seller reads, amounts and roles in their
// words, in both languages; an entry of a shape this version does not know still reads, without
// JSON.

const wordsIn = (locale: Locale) =>
  createTranslator({ locale, messages: catalogues[locale] as Messages, namespace: "audit" }) as unknown as AuditWords;
const say = (locale: Locale, entry: Partial<DescribableEntry> & { action: string }) =>
  describeAuditEntry(
    { subject: null, before: null, after: null, ...entry },
    wordsIn(locale),
    displayFormat({ locale, timeZone: "America/Sao_Paulo" }),
  );
// Intl separates "R$" from the amount with a no-break space.
const plain = (text: string) => text.replace(/\u00a0/g, " ");

const brl = (value: number, type = "sell") => ({ type, value, currency: "BRL", normalizer: 100 });

/** One entry of every action, in the shape its caller records. */
const SAMPLES: Record<AuditAction, DescribableEntry> = {
  "price.set": { action: "price.set", subject: "ABC-1", before: brl(1000), after: brl(1250) },
  "price.bulk": { action: "price.bulk", subject: null, before: null, after: { source: "percent", sent: 998, failed: 2, skipped: 0 } },
  "price.guardLimit": { action: "price.guardLimit", subject: null, before: { limitPercent: 30 }, after: { limitPercent: 15 } },
  "price.commissionRate": { action: "price.commissionRate", subject: null, before: { rateBps: null }, after: { rateBps: 1250 } },
  "cost.set": { action: "cost.set", subject: "ABC-1", before: { cost: 700 }, after: { cost: 825 } },
  "cost.bulk": { action: "cost.bulk", subject: null, before: null, after: { count: 12 } },
  "order.packing": {
    action: "order.packing",
    subject: "665f1c2a9b1e8a0012345678",
    before: null,
    after: { stage: "picked", orderIds: ["665f1c2a9b1e8a0012345678"] },
  },
  "sku.create": { action: "sku.create", subject: "ABC-2", before: null, after: { title: "Caneca azul" } },
  "webhooks.settings": {
    action: "webhooks.settings",
    subject: null,
    before: { url: "https://old.example.com/hook" },
    after: { url: "https://new.example.com/hook" },
  },
  "webhooks.rotate": { action: "webhooks.rotate", subject: null, before: null, after: null },
  "connection.connect": {
    action: "connection.connect",
    subject: null,
    before: null,
    after: { email: "loja@example.com", reconnect: false },
  },
  "connection.disconnect": { action: "connection.disconnect", subject: null, before: null, after: null },
  "settings.timeZone": {
    action: "settings.timeZone",
    subject: null,
    before: { timeZone: "America/Sao_Paulo" },
    after: { timeZone: "America/Manaus" },
  },
  "member.join": { action: "member.join", subject: "Maria", before: null, after: { role: "manager" } },
  "member.role": { action: "member.role", subject: "Maria", before: { role: "viewer" }, after: { role: "manager" } },
  "member.remove": { action: "member.remove", subject: "Maria", before: { role: "operations" }, after: null },
  "invitation.create": {
    action: "invitation.create",
    subject: null,
    before: null,
    after: { role: "manager", expiresAt: "2026-12-01T15:00:00.000Z" },
  },
  "invitation.revoke": { action: "invitation.revoke", subject: null, before: { role: "viewer" }, after: null },
  "event.processAgain": { action: "event.processAgain", subject: "evt_123", before: null, after: null },
  "event.processAllDead": { action: "event.processAllDead", subject: null, before: null, after: { count: 3 } },
};

describe("describeAuditEntry", () => {
  it("says what happened in English, amounts and roles in words", () => {
    expect(plain(say("en", SAMPLES["price.set"]))).toBe("Selling price of SKU ABC-1 changed: R$10.00 → R$12.50");
    expect(say("en", SAMPLES["price.bulk"])).toBe("Bulk price change by percentage: 998 sent, 2 failed");
    expect(say("en", SAMPLES["member.role"])).toBe("Maria's role changed: Viewer → Manager");
    expect(say("en", SAMPLES["invitation.create"])).toMatch(/^Invite link created for Manager, valid until Dec 1, 2026, 12:00/);
    expect(say("en", SAMPLES["sku.create"])).toBe("SKU ABC-2 created: “Caneca azul”");
    expect(say("en", SAMPLES["event.processAllDead"])).toBe("3 dead events sent to be processed again");
    expect(plain(say("en", SAMPLES["cost.set"]))).toBe("Cost of SKU ABC-1 set: R$8.25 (was R$7.00)");
    expect(plain(say("en", { action: "cost.set", subject: "ABC-1", after: { cost: 825 } }))).toBe("Cost of SKU ABC-1 set: R$8.25");
    expect(plain(say("en", { action: "cost.set", subject: "ABC-1", before: { cost: 825 }, after: { cost: null } }))).toBe(
      "Cost of SKU ABC-1 removed (was R$8.25)",
    );
    expect(say("en", SAMPLES["price.guardLimit"])).toBe("Price guard: changes over 15% need confirmation (was 30%)");
    expect(say("en", SAMPLES["price.commissionRate"])).toBe("Commission rate 12.5% (was learned from orders)");
    expect(say("en", SAMPLES["order.packing"])).toBe("Order 665f1c2a9b1e8a0012345678 marked picked");
    expect(say("en", { action: "order.packing", subject: null, after: { stage: "packed", orderIds: ["a", "b", "c"] } })).toBe(
      "3 orders marked packed",
    );
  });

  it("says it in Brazilian Portuguese, amounts as the app formats them", () => {
    expect(plain(say("pt-BR", SAMPLES["price.set"]))).toBe("Preço de venda do SKU ABC-1 alterado: R$ 10,00 → R$ 12,50");
    expect(plain(say("pt-BR", { ...SAMPLES["price.set"], before: null, after: brl(123456, "list") }))).toBe(
      "Preço de lista do SKU ABC-1 definido: R$ 1.234,56",
    );
    expect(say("pt-BR", { action: "price.bulk", after: { source: "csv", sent: 1000, failed: 1, skipped: 2 } })).toBe(
      "Alteração de preços em massa por arquivo CSV: 1.000 enviados, 1 com falha, 2 ignorados",
    );
    // Undoing a run (features/prices/bulk/bulk-undo.ts) says so.
    expect(say("pt-BR", { action: "price.bulk", after: { source: "undo", sent: 3, failed: 0, skipped: 1 } })).toBe(
      "Alteração de preços em massa desfeita (preços devolvidos): 3 enviados, 0 com falha, 1 ignorado",
    );
    expect(say("en", { action: "price.bulk", after: { source: "undo", sent: 3, failed: 0, skipped: 0 } })).toBe(
      "Bulk price change undone (prices sent back): 3 sent, 0 failed",
    );
    expect(say("pt-BR", SAMPLES["member.role"])).toBe("Papel de Maria alterado: Visualizador → Gerente");
    expect(plain(say("pt-BR", SAMPLES["cost.set"]))).toBe("Custo do SKU ABC-1 definido: R$ 8,25 (era R$ 7,00)");
    expect(say("pt-BR", { action: "order.packing", subject: null, after: { stage: "packed", orderIds: ["a", "b"] } })).toBe(
      "2 pedidos marcados como embalados",
    );
    expect(say("pt-BR", SAMPLES["price.commissionRate"])).toBe("Taxa de comissão 12,5% (era aprendida dos pedidos)");
    expect(say("pt-BR", SAMPLES["member.remove"])).toBe("Maria não faz mais parte da equipe (era Operações)");
    expect(say("pt-BR", SAMPLES["connection.connect"])).toBe("Loja conectada ao marketplace como loja@example.com");
    expect(say("pt-BR", { action: "connection.connect", after: { email: "loja@example.com", reconnect: true } })).toBe(
      "Loja reconectada ao marketplace como loja@example.com",
    );
  });

  it("tells a callback URL set, changed and removed apart", () => {
    expect(say("en", { action: "webhooks.settings", before: { url: null }, after: { url: "https://a.example.com" } })).toBe(
      "Callback URL set: https://a.example.com",
    );
    expect(say("en", SAMPLES["webhooks.settings"])).toBe(
      "Callback URL changed: https://old.example.com/hook → https://new.example.com/hook",
    );
    expect(say("en", { action: "webhooks.settings", before: { url: "https://a.example.com" }, after: { url: null } })).toMatch(
      /^Callback URL removed \(was https:\/\/a\.example\.com\)/,
    );
  });

  it("says when a person sent a price past the price guard, and why it held it", () => {
    const confirmed = {
      action: "price.set",
      subject: "CAM-002",
      before: brl(4990),
      after: {
        ...brl(1),
        currency: "USD",
        confirmedPastGuard: [
          { code: "currencyChange", type: "sell", from: "BRL", to: "USD" },
          { code: "moveTooLarge", type: "sell", limitPercent: 30, changeBps: -9998 },
        ],
      },
    };
    expect(plain(say("en", confirmed))).toBe(
      "Selling price of SKU CAM-002 changed: R$49.90 → $0.01, confirmed past the price guard (another currency, a change larger than the limit)",
    );
    expect(plain(say("pt-BR", { ...confirmed, before: null }))).toBe(
      "Preço de venda do SKU CAM-002 definido: US$ 0,01, confirmado apesar da trava de preço (outra moeda, mudança maior que o limite)",
    );
  });

  it("never shows the receiver key or a URL's credentials, in entries written now or before", () => {
    const key = "Zx9_receiverKEY-only-owners-read";
    const receiver = `http://localhost:3000/api/webhooks/marketplace/${key}`;
    const custom = "https://ana:s3nha@hooks.example.com/in?token=t0ken#x";
    const written = { action: "webhooks.settings", subject: null, before: { url: custom }, after: { receiver: "dashboard" } };
    const before37 = { action: "webhooks.settings", subject: null, before: { url: custom }, after: { url: receiver } };
    for (const entry of [written, before37]) {
      expect(say("en", entry)).toBe("Callback URL changed: https://hooks.example.com/in → this dashboard's receiver");
      expect(say("pt-BR", entry)).toMatch(/→ o receptor deste painel$/);
      const sides = (["before", "after"] as const).map((which) =>
        describeAuditSide(entry, which, wordsIn("en"), displayFormat({ locale: "en", timeZone: "UTC" })),
      );
      expect(sides).toEqual(["https://hooks.example.com/in", "this dashboard's receiver"]);
    }
    expect(say("en", { action: "webhooks.settings", before: { url: receiver }, after: { url: null } })).toMatch(
      /^Callback URL removed \(was this dashboard's receiver\)/,
    );
  });

  it.each(LOCALES)("gives every action a sentence of its own in %s, with no code and no JSON in it", (locale) => {
    const sentences = Object.values(SAMPLES).map((entry) => say(locale, entry));
    for (const sentence of sentences) {
      expect(sentence).not.toMatch(/[{}"]|\b(price|sku|webhooks|connection|member|invitation|event)\.[a-z]+/i);
      expect(sentence).not.toMatch(/^(Other|Outro)\b/);
    }
    expect(new Set(sentences).size).toBe(sentences.length);
  });

  it("falls back to plain words for an unknown action or a changed shape, never JSON", () => {
    const unknown = say("en", {
      action: "shop.rename",
      subject: "Loja",
      before: { name: "Old", open: true },
      after: { name: "New", open: false, tags: ["a", "b"] },
    });
    expect(unknown).toBe("Other: shop.rename · Loja: name: Old, open: yes → name: New, open: no, tags: a, b");
    // A price without a currency: the action's word, and its values as they are.
    const changed = say("pt-BR", { action: "price.set", subject: "ABC-1", before: null, after: { value: 1250 } });
    expect(changed).toBe("Preço definido · ABC-1: value: 1.250");
    expect(say("en", { action: "member.role", subject: "Ana" })).toBe("Role changed · Ana");
    expect(say("en", { action: "member.role", subject: "Ana", before: { role: "intern" }, after: { role: "viewer" } })).toBe(
      "Ana's role changed: Other: intern → Viewer",
    );
  });
});

describe("describeAuditSide", () => {
  const side = (entry: DescribableEntry, which: "before" | "after") =>
    plain(describeAuditSide(entry, which, wordsIn("pt-BR"), displayFormat({ locale: "pt-BR", timeZone: "America/Sao_Paulo" })));

  it("writes known values in words and anything else as compact JSON", () => {
    expect(side(SAMPLES["price.set"], "before")).toBe("R$ 10,00");
    expect(side(SAMPLES["member.role"], "after")).toBe("Gerente");
    expect(side(SAMPLES["invitation.create"], "after")).toMatch(/^Gerente, até 1 de dez\. de 2026/);
    expect(side({ action: "webhooks.settings", subject: null, before: { url: null }, after: null }, "before")).toBe("nenhuma");
    expect(side(SAMPLES["price.bulk"], "after")).toBe('{"source":"percent","sent":998,"failed":2,"skipped":0}');
    expect(side(SAMPLES["price.bulk"], "before")).toBe("");
  });
});

describe("kind and action words", () => {
  it.each(LOCALES)("name every kind and action in %s", (locale) => {
    const t = wordsIn(locale);
    for (const kind of AUDIT_KINDS) expect(auditKindWord(t, kind)).not.toMatch(/^(Other|Outro)|\./);
    for (const action of Object.keys(AUDIT_ACTIONS)) expect(auditActionWord(t, action)).not.toMatch(/^(Other|Outro)|\./);
    expect(auditKindWord(t, "billing")).toMatch(/billing/);
  });
});
