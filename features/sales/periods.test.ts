import { describe, expect, it } from "vitest";
import { changePercent, customPeriod, presetPeriod } from "./periods";

const ZONE = "America/Sao_Paulo";

describe("sales periods", () => {
  it("ends a preset now, and compares it with the same length right before", () => {
    const now = new Date("2026-11-29T15:00:00Z");
    const week = presetPeriod("7d", now, ZONE);
    expect(week.from.toISOString()).toBe("2026-11-23T03:00:00.000Z");
    expect(week.previous).toEqual({ from: new Date(2 * week.from.getTime() - now.getTime()), to: week.from });
    expect(presetPeriod("month", now, ZONE).from.toISOString()).toBe("2026-11-01T03:00:00.000Z");
    expect(presetPeriod("today", now, ZONE).from.toISOString()).toBe("2026-11-29T03:00:00.000Z");
  });

  it("takes a custom range's both days whole, charted by week when longer than two months", () => {
    const range = customPeriod("2026-11-01", "2026-11-30", ZONE)!;
    expect([range.from.toISOString(), range.to.toISOString(), range.bucket]).toEqual([
      "2026-11-01T03:00:00.000Z",
      "2026-12-01T03:00:00.000Z",
      "day",
    ]);
    expect(customPeriod("2026-01-01", "2026-12-31", ZONE)!.bucket).toBe("week");
    expect(customPeriod("2026-11-30", "2026-11-01", ZONE)).toBeNull();
  });

  it("says no change in percent when there was nothing before", () => {
    expect(changePercent(150, 100)).toBe(50);
    expect(changePercent(50, 100)).toBe(-50);
    expect(changePercent(10, 0)).toBeNull();
  });
});
