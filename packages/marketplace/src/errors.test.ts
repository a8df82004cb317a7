import { describe, expect, it } from "vitest";
import { kindForStatus, parseRetryAfter } from "./errors";

describe("parseRetryAfter", () => {
  it("reads delta-seconds and HTTP dates", () => {
    expect(parseRetryAfter("42")).toBe(42_000);
    const now = Date.parse("2026-11-21T10:00:00Z");
    expect(parseRetryAfter("Sat, 21 Nov 2026 10:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Sat, 21 Nov 2026 09:59:00 GMT", now)).toBe(0);
  });

  it("ignores an absent or unreadable value", () => {
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter("")).toBeUndefined();
    expect(parseRetryAfter("soon")).toBeUndefined();
  });
});

describe("kindForStatus", () => {
  it.each([
    [401, "unauthorized"],
    [403, "forbidden"],
    [404, "not_found"],
    [429, "rate_limited"],
    [500, "unavailable"],
    [503, "unavailable"],
    [400, "bad_request"],
  ])("%i → %s", (status, kind) => {
    expect(kindForStatus(status)).toBe(kind);
  });
});
