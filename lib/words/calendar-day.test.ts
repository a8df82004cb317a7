import { describe, expect, it } from "vitest";
import { calendarDayWords } from "./calendar-day";

describe("calendarDayWords", () => {
  it("names the day the shop's clock named, in the reader's language, whatever the process's zone", () => {
    expect(calendarDayWords("2026-11-30", "pt-BR")).toBe("30 de novembro");
    expect(calendarDayWords("2026-11-30", "en")).toBe("November 30");
    expect(calendarDayWords("2027-01-01", "pt-BR")).toBe("1 de janeiro");
  });
});
