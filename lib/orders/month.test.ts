import { describe, expect, it } from "vitest";
import { startOfMonth } from "./month";

describe("startOfMonth", () => {
  it("is midnight of the 1st in the shop's zone, also when UTC is already in the next month", () => {
    // 30 Nov, 23:30 in São Paulo (UTC−3) is 1 Dec in UTC: still November there.
    expect(startOfMonth(new Date("2026-12-01T02:30:00Z"), "America/Sao_Paulo").toISOString()).toBe("2026-11-01T03:00:00.000Z");
    expect(startOfMonth(new Date("2026-12-01T03:00:00Z"), "America/Sao_Paulo").toISOString()).toBe("2026-12-01T03:00:00.000Z");
    // Manaus is UTC−4.
    expect(startOfMonth(new Date("2026-03-15T12:00:00Z"), "America/Manaus").toISOString()).toBe("2026-03-01T04:00:00.000Z");
  });
});
