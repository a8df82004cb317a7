import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { afterQuietHours, minuteOfDay, timeOfDay } from "./quiet-hours";

const SP = "America/Sao_Paulo";
const night = { from: minuteOfDay("22:00")!, to: minuteOfDay("07:00")! };

describe("afterQuietHours", () => {
  it("lets a message go at once outside quiet hours, or without any", () => {
    const noon = new Date("2026-11-30T15:00:00Z"); // 12:00 in São Paulo
    expect(afterQuietHours(noon, night, SP)).toEqual(noon);
    expect(afterQuietHours(noon, null, SP)).toEqual(noon);
  });

  it("holds a message in a window crossing midnight until the window ends on the shop's clock", () => {
    // 23:30 and 02:10 in São Paulo → 07:00 the next morning there (10:00 UTC).
    expect(afterQuietHours(new Date("2026-11-30T02:30:45Z"), night, SP)).toEqual(new Date("2026-11-30T10:00:00Z"));
    expect(afterQuietHours(new Date("2026-11-30T05:10:00Z"), night, SP)).toEqual(new Date("2026-11-30T10:00:00Z"));
    // In Manaus, an hour behind, that instant is 22:30: quiet too, until 07:00 there.
    expect(afterQuietHours(new Date("2026-11-30T02:30:00Z"), night, "America/Manaus")).toEqual(new Date("2026-11-30T11:00:00Z"));
  });

  it("treats the window as [from, to): 07:00 sharp goes, 22:00 sharp waits", () => {
    expect(afterQuietHours(new Date("2026-11-30T10:00:00Z"), night, SP)).toEqual(new Date("2026-11-30T10:00:00Z"));
    expect(afterQuietHours(new Date("2026-12-01T01:00:00Z"), night, SP)).toEqual(new Date("2026-12-01T10:00:00Z"));
  });

  it("never answers a time before the message was due, nor one inside the window", () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date("2026-01-01T00:00:00Z"), max: new Date("2027-12-31T00:00:00Z"), noInvalidDate: true }),
        fc.integer({ min: 0, max: 1439 }),
        fc.integer({ min: 0, max: 1439 }),
        (at, from, to) => {
          const due = afterQuietHours(at, { from, to }, SP);
          expect(due.getTime()).toBeGreaterThanOrEqual(at.getTime() - 60_000);
          expect(due.getTime() - at.getTime()).toBeLessThan(24 * 3_600_000);
          if (due.getTime() !== at.getTime()) expect(afterQuietHours(due, { from, to }, SP)).toEqual(due);
        },
      ),
    );
  });
});

describe("minuteOfDay and timeOfDay", () => {
  it("read and write a form's time field", () => {
    expect(minuteOfDay("07:05")).toBe(425);
    expect(minuteOfDay("24:00")).toBeNull();
    expect(minuteOfDay("7:05")).toBeNull();
    expect(timeOfDay(425)).toBe("07:05");
  });
});
