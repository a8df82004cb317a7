import { createTranslator } from "next-intl";
import type { useTranslations } from "next-intl";
import { describe, expect, it } from "vitest";
import { catalogues } from "@/messages";
import type { Messages } from "@/messages";
import { processingStateWord } from "./events/processing-state-word";

// The Webhooks pages' sentences that ICU now builds: the English reads as the string concatenation
// it replaced did (the e2e tests assert it), and the Portuguese says the same.

type WebhookWords = ReturnType<typeof useTranslations<"webhooks">>;
const words = (locale: "en" | "pt-BR") =>
  createTranslator({ locale, messages: catalogues[locale] as Messages, namespace: "webhooks" }) as unknown as WebhookWords;
const en = words("en");
const pt = words("pt-BR");

describe("webhook words", () => {
  it("count what reconciliation recovered", () => {
    const reconciled = (t: WebhookWords, recovered: number) => t("health.reconciled", { when: "W", recovered, total: "7" });
    expect(reconciled(en, 0)).toBe("W: nothing missed (7 in all)");
    expect(reconciled(en, 1)).toBe("W: 1 order change recovered (7 in all)");
    expect(reconciled(en, 3)).toBe("W: 3 order changes recovered (7 in all)");
    expect(reconciled(pt, 0)).toBe("W: nada perdido (7 no total)");
    expect(reconciled(pt, 1)).toBe("W: 1 mudança de pedido recuperada (7 no total)");
    expect(reconciled(pt, 3)).toBe("W: 3 mudanças de pedido recuperadas (7 no total)");
  });

  it("tell how far the order mirror got", () => {
    expect(en("health.backfillRunning", { hasFrom: "yes", from: "F", orders: "40" })).toBe(
      "Copying your orders updated since F: 40 so far…",
    );
    expect(en("health.backfillRunning", { hasFrom: "no", from: "", orders: "40" })).toBe("Copying your orders: 40 so far…");
    expect(en("health.backfillDone", { hasFrom: "yes", from: "F", orders: 12, hasFinished: "yes", finishedAt: "D" })).toBe(
      "12 orders updated since F copied (D).",
    );
    expect(en("health.backfillDone", { hasFrom: "no", from: "", orders: 12, hasFinished: "no", finishedAt: "" })).toBe("12 orders copied.");
    expect(en("health.backfillFailed", { orders: 12 })).toBe("Stopped after 12 orders; it resumes at the next check.");
    expect(pt("health.backfillDone", { hasFrom: "no", from: "", orders: 1, hasFinished: "yes", finishedAt: "D" })).toBe(
      "1 pedido copiado em D.",
    );
  });

  it("describe an event's processing", () => {
    const processing = (t: WebhookWords, attempts: number, processedAt?: string, error?: string) =>
      t("event.processingValue", {
        state: processingStateWord(t, "dead"),
        hasProcessedAt: processedAt ? "yes" : "no",
        processedAt: processedAt ?? "",
        attempts,
        hasError: error ? "yes" : "no",
        error: error ?? "",
      });
    expect(processing(en, 1)).toBe("dead, 1 attempt");
    expect(processing(en, 5, "2026-11-22T12:00:00.000Z", "boom")).toBe("dead at 2026-11-22T12:00:00.000Z, 5 attempts — last error: boom");
    expect(processing(pt, 5, "X", "boom")).toBe("morto em X, 5 tentativas — último erro: boom");
    expect(processingStateWord(en, "someday")).toBe("someday");
  });

  it("answer the actions", () => {
    expect(en("actions.deadRequeued", { count: 1 })).toBe("1 failed event is being processed again.");
    expect(en("actions.deadRequeued", { count: 4 })).toBe("4 failed events are being processed again.");
    expect(pt("actions.deadRequeued", { count: 4 })).toBe("4 eventos que falharam estão sendo processados de novo.");
    expect(en("actions.rotatedNotMoved", { problem: "P." })).toBe(
      'A new receiving address was made, but the marketplace still sends to the old one: P. Use "Use this dashboard" to try again.',
    );
  });

  it("toast an order's change in words, without the platform's id", () => {
    expect(en("live.orderReconciled")).toBe("A change the dashboard found when it checked the platform");
    expect(pt("live.orderReconciled")).toBe("Uma mudança que o painel encontrou ao conferir a plataforma");
  });

  it("say what connecting did to notifications", () => {
    expect(en("notificationsAtConnect.already")).toBe("Notifications are on: the marketplace already sent them to this dashboard.");
    expect(pt("notificationsAtConnect.already")).toBe("As notificações estão ativas: o marketplace já as enviava a este painel.");
  });
});
