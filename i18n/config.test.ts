import { describe, expect, it } from "vitest";
import { isTimeZone, negotiateLocale } from "./config";

describe("negotiateLocale", () => {
  it("keeps the seller's stored choice over the browser's languages", () => {
    expect(negotiateLocale("en", "pt-BR,pt;q=0.9")).toBe("en");
    expect(negotiateLocale("pt-BR", "en-US,en;q=0.9")).toBe("pt-BR");
  });

  it("follows Accept-Language, by its weights and to the nearest language", () => {
    expect(negotiateLocale(undefined, "en-US,en;q=0.9")).toBe("en");
    expect(negotiateLocale(undefined, "en-GB")).toBe("en");
    expect(negotiateLocale(undefined, "pt-PT,pt;q=0.9,en;q=0.8")).toBe("pt-BR");
    expect(negotiateLocale(undefined, "fr-FR,en;q=0.5")).toBe("en");
  });

  it("falls back to Portuguese when nothing matches, nothing is sent, or the stored choice is unknown", () => {
    expect(negotiateLocale(undefined, "fr-FR,de;q=0.5")).toBe("pt-BR");
    expect(negotiateLocale(undefined, null)).toBe("pt-BR");
    expect(negotiateLocale("xx", null)).toBe("pt-BR");
    expect(negotiateLocale(undefined, "*")).toBe("pt-BR");
    expect(negotiateLocale(undefined, "not a tag!!,@@")).toBe("pt-BR");
  });
});

describe("isTimeZone", () => {
  it("accepts the zones Intl knows and nothing else", () => {
    expect(isTimeZone("America/Sao_Paulo")).toBe(true);
    expect(isTimeZone("America/Manaus")).toBe(true);
    expect(isTimeZone("Mars/Olympus_Mons")).toBe(false);
    expect(isTimeZone("")).toBe(false);
    expect(isTimeZone(undefined)).toBe(false);
  });
});
