import { describe, expect, it } from "vitest";
import { formatCount, formatDate } from "./format";

describe("formatDate", () => {
  it("shows every date in São Paulo time, whatever the process's time zone", () => {
    // 12:00 UTC is 09:00 in São Paulo (UTC−3, no daylight saving since 2019).
    expect(formatDate(new Date("2026-11-22T12:00:00Z"))).toMatch(/Nov 22, 2026, 9:00\sAM GMT-3/);
    expect(formatDate("2026-11-22T02:30:00Z", "date")).toBe("Nov 21, 2026");
  });

  it("says '—' for a missing or unreadable date rather than 'Invalid Date'", () => {
    expect(formatDate(null)).toBe("—");
    expect(formatDate("not a date")).toBe("—");
  });
});

describe("formatCount", () => {
  it("groups thousands", () => {
    expect(formatCount(1234567)).toBe("1,234,567");
  });
});
