import { describe, expect, it } from "vitest";
import { samplePrice } from "./fixtures";
import { priceCreateSchema } from "./price";

describe("priceCreateSchema", () => {
  it("accepts a price and defaults the normalizer to 100", () => {
    const { normalizer: _omitted, ...withoutNormalizer } = samplePrice();
    expect(priceCreateSchema.parse(withoutNormalizer).normalizer).toBe(100);
  });

  it.each([
    ["type", { type: "promo" }],
    ["value", { value: 49.9 }],
    ["value", { value: -1 }],
    ["currency", { currency: "real" }],
    ["normalizer", { normalizer: 0 }],
  ])("rejects a bad %s", (field, change) => {
    const result = priceCreateSchema.safeParse({ ...samplePrice(), ...change });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual([field]);
  });

  it("requires extras and sku", () => {
    const { extras: _extras, sku: _sku, ...rest } = samplePrice();
    const result = priceCreateSchema.safeParse(rest);
    expect(result.error?.issues.map((issue) => issue.path[0]).sort()).toEqual(["extras", "sku"]);
  });
});
