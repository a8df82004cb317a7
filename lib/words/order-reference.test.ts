import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { orderLabel, orderReference, parseOrderReference } from "@/lib/words/order-reference";

describe("order references", () => {
  it("reads back every reference it writes", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 999_999_999 }), (n) => parseOrderReference(orderReference(n)) === n));
  });

  it("reads what a seller types for one", () => {
    expect(parseOrderReference("1042")).toBe(1042);
    expect(parseOrderReference(" #1042 ")).toBe(1042);
    expect(parseOrderReference("nº 1042")).toBe(1042);
    expect(parseOrderReference("No. 1042")).toBe(1042);
  });

  it("leaves the platform's ids and other text to the id filter", () => {
    expect(parseOrderReference("6ae5998fd10e897e3f00a969")).toBeNull();
    expect(parseOrderReference("#")).toBeNull();
    expect(parseOrderReference("10 42")).toBeNull();
    expect(parseOrderReference("1234567890")).toBeNull();
  });

  it("names an order without a reference by the end of its id", () => {
    expect(orderLabel({ id: "6ae5998fd10e897e3f00a969", reference: 1042 })).toBe("#1042");
    expect(orderLabel({ id: "6ae5998fd10e897e3f00a969", reference: null })).toBe("…00a969");
  });
});
