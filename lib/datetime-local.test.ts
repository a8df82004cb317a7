import { describe, expect, it } from "vitest";
import { isoToLocal, localToIso } from "./datetime-local";

describe("datetime-local conversions", () => {
  it("round-trips a minute-precision instant through the input's form", () => {
    const iso = "2026-11-21T13:45:00.000Z";
    expect(localToIso(isoToLocal(iso))).toBe(iso);
  });

  it("treats empty and unreadable values as no value", () => {
    expect(localToIso("")).toBeNull();
    expect(localToIso("not a date")).toBeNull();
    expect(isoToLocal(undefined)).toBe("");
  });
});
