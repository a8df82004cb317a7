import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import { catalogues } from "@/messages";
import type { Messages } from "@/messages";
import { describeProblem } from "./platform-problem";
import type { ProblemWords } from "./platform-problem";

const words = (locale: "en" | "pt-BR") =>
  createTranslator({ locale, messages: catalogues[locale] as Messages, namespace: "problems" }) as unknown as ProblemWords;

describe("describeProblem", () => {
  it("tells the seller what to do for each kind of problem", () => {
    const t = words("en");
    expect(describeProblem({ kind: "reconnect" }, t, "changePrices")).toBe(
      "The marketplace no longer accepts this dashboard's access (it expired or was revoked). Reconnect, then try again.",
    );
    expect(describeProblem({ kind: "missing_scope", scopes: ["portfolio:write"] }, t, "setPrices", "resume")).toBe(
      "To set prices, the portfolio:write permission is needed, and it was not granted. Reconnect and grant it, then resume.",
    );
    expect(describeProblem({ kind: "missing_scope", scopes: ["orders:read"] }, t, { see: "yourOrders" }, { seeAgain: "yourOrders" })).toBe(
      "To see your orders, the orders:read permission is needed, and it was not granted. Reconnect and grant it, then see your orders again.",
    );
    expect(describeProblem({ kind: "error", message: "boom", status: 503 }, t, { see: "yourOrders" })).toBe(
      "The marketplace had a server error (HTTP 503). Try again in a moment.",
    );
    expect(describeProblem({ kind: "error", message: "fetch failed", status: null }, t, { see: "yourOrders" }, "resume")).toBe(
      "The marketplace could not be reached. Resume in a moment.",
    );
    expect(describeProblem({ kind: "error", message: "Too many requests", status: 429, retryAfterMs: 30_000 }, t, "exportOrders")).toBe(
      "The marketplace asked this shop to slow down (too many requests). Try again in 30 seconds.",
    );
    expect(describeProblem({ kind: "error", message: "Too many requests", status: 429 }, t, "exportOrders")).toBe(
      "The marketplace asked this shop to slow down (too many requests). Try again in 60 seconds.",
    );
    expect(describeProblem({ kind: "error", message: "Price not found", status: 404 }, t, { see: "thisPrice" })).toBe("Price not found");
  });

  it("says it in Portuguese", () => {
    const t = words("pt-BR");
    expect(describeProblem({ kind: "error", message: "fetch failed", status: null }, t, "setPrices", "resume")).toBe(
      "Não foi possível falar com o marketplace. Retome em instantes.",
    );
    expect(describeProblem({ kind: "error", message: "Too many requests", status: 429, retryAfterMs: 1_000 }, t, "exportOrders")).toBe(
      "O marketplace pediu a esta loja que diminua o ritmo (pedidos demais). Tente novamente em 1 segundo.",
    );
    expect(describeProblem({ kind: "missing_scope", scopes: ["portfolio:write", "orders:read"] }, t, "setPrices")).toBe(
      "Para definir preços, são necessárias as permissões portfolio:write, orders:read, que não foram concedidas. Reconecte, conceda as permissões e depois tente novamente.",
    );
  });
});
