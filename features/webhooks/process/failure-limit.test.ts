import { describe, expect, it } from "vitest";
import { FailureLimit } from "./failure-limit";

describe("FailureLimit", () => {
  it("allows `limit` failures per key and window, then refuses until the window ends", () => {
    let now = 60_000 * 10 + 5_000;
    const limit = new FailureLimit(3, 60_000, () => now);
    expect([limit.take("a"), limit.take("a"), limit.take("a"), limit.take("a")]).toEqual([true, true, true, false]);
    // Another key has its own count.
    expect(limit.take("b")).toBe(true);
    expect(limit.secondsLeft()).toBe(55);
    now += 55_000;
    expect(limit.take("a")).toBe(true);
  });

  it("gives back a slot taken for a body that turned out authentic", () => {
    const limit = new FailureLimit(1, 60_000, () => 0);
    expect(limit.take("a")).toBe(true);
    limit.giveBack("a");
    expect(limit.take("a")).toBe(true);
    expect(limit.take("a")).toBe(false);
  });
});
