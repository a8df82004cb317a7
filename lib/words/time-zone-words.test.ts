import { describe, expect, it } from "vitest";
import { BRAZILIAN_TIME_ZONES, timeZoneWord } from "./time-zone-words";

describe("time zones in words", () => {
  const at = new Date("2026-11-29T12:00:00Z");

  it("names Brazil's zones by their city, accents included, with the zone's name and offset", () => {
    expect(timeZoneWord("America/Sao_Paulo", "pt-BR", at)).toBe("São Paulo — Horário Padrão de Brasília (GMT-3)");
    expect(timeZoneWord("America/Cuiaba", "pt-BR", at)).toMatch(/^Cuiabá — .+ \(GMT-4\)$/);
    expect(timeZoneWord("America/Sao_Paulo", "en", at)).toBe("São Paulo — Brasilia Standard Time (GMT-3)");
  });

  it("never shows an IANA id, for any zone Intl knows", () => {
    for (const zone of Intl.supportedValuesOf("timeZone")) {
      const word = timeZoneWord(zone, "pt-BR", at);
      expect(word, zone).not.toContain("/");
      expect(word, zone).not.toContain("_");
    }
  });

  it("lists São Paulo first among Brazil's zones", () => {
    expect(BRAZILIAN_TIME_ZONES[0]).toBe("America/Sao_Paulo");
    expect(BRAZILIAN_TIME_ZONES).toHaveLength(16);
  });
});
