import { describe, expect, it } from "vitest";
import { lastShopOf } from "./last-shop";

describe("lastShopOf", () => {
  const person = {
    lastShopId: "b",
    shops: [
      { id: "a", connected: true },
      { id: "b", connected: true },
      { id: "c", connected: false },
    ],
  };

  it("leads to the shop this browser showed last, if the person is still in it and it is connected", () => {
    expect(lastShopOf(person, "a")).toBe("a");
    expect(lastShopOf(person, "c")).toBe("b");
    expect(lastShopOf(person, "someone-elses")).toBe("b");
  });

  it("falls back on the shop joined or connected last, then on the only one, else on none", () => {
    expect(lastShopOf(person, undefined)).toBe("b");
    expect(lastShopOf({ ...person, lastShopId: null }, undefined)).toBeNull();
    expect(lastShopOf({ lastShopId: null, shops: [{ id: "a", connected: true }] }, undefined)).toBe("a");
    expect(lastShopOf({ lastShopId: "c", shops: [{ id: "c", connected: false }] }, undefined)).toBeNull();
  });
});
