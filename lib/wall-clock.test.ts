import { describe, expect, it } from "vitest";
import { wallClock } from "./wall-clock";

describe("wallClock", () => {
  it("reads the wall clock of the zone, zero-padded, midnight as 00", () => {
    // 03:05:09 UTC is 00:05:09 in São Paulo (UTC−3, no daylight saving since 2019).
    expect(wallClock(new Date("2026-03-01T03:05:09Z"), "America/Sao_Paulo")).toEqual({
      year: "2026",
      month: "03",
      day: "01",
      hour: "00",
      minute: "05",
      second: "09",
    });
    expect(wallClock(Date.parse("2026-03-01T03:05:09Z"), "Asia/Tokyo")).toMatchObject({ day: "01", hour: "12" });
  });
});
