import { describe, expect, it } from "vitest";
import { orderAmountsSchema } from "@marketplace/api/schemas/order";
import type { OrderAmounts } from "@marketplace/api/schemas/order";
import { order as specOrder } from "@marketplace/api/spec-examples";
import { orderNet } from "./net";

// The net per order (docs/decisions/0012-net-per-order.md): total − commission − the part of the
// freight the seller pays, in the order's normalizer, with `shared` read as the part of the
// freight that reaches the seller.

const brl = (value: number, normalizer = 100) => ({ currency: "BRL", normalizer, total: value });

/** Amounts in BRL with normalizer 100 unless told otherwise, parsed as the platform's would be. */
function amounts(change: Partial<OrderAmounts> = {}): OrderAmounts {
  return orderAmountsSchema.parse({
    ...brl(10_000),
    discount: { ...brl(0), shared: 0 },
    freight: { ...brl(1_500), shared: 0 },
    comission: { ...brl(1_200), type: "value" },
    ...change,
  });
}

describe("orderNet", () => {
  it("the spec's example order: R$ 109,80 − R$ 12,00 commission − R$ 10,00 freight = R$ 87,80", () => {
    expect(orderNet(orderAmountsSchema.parse(specOrder.amounts))).toEqual({
      total: 10_980,
      commission: 1_200,
      sellerFreight: 1_000,
      net: 8_780,
      currency: "BRL",
      normalizer: 100,
    });
  });

  it("takes only the unshared part of the freight: the shared part reaches the seller", () => {
    expect(orderNet(amounts({ freight: { ...brl(1_500), shared: 750 } }))).toMatchObject({ sellerFreight: 750, net: 10_000 - 1_200 - 750 });
  });

  it("with no freight, nothing is taken for it", () => {
    expect(orderNet(amounts({ freight: { ...brl(0), shared: 0 } }))).toMatchObject({ sellerFreight: 0, net: 8_800 });
  });

  it("with the freight fully shared (shared = total), the seller pays none of it", () => {
    expect(orderNet(amounts({ freight: { ...brl(1_500), shared: 1_500 } }))).toMatchObject({ sellerFreight: 0, net: 8_800 });
  });

  it("a shared part larger than the freight is never money the freight gives", () => {
    expect(orderNet(amounts({ freight: { ...brl(1_000), shared: 1_200 } }))).toMatchObject({ sellerFreight: 0, net: 8_800 });
  });

  it("a zero commission, or none sent, takes nothing", () => {
    expect(orderNet(amounts({ comission: { ...brl(0), type: "value" } }))).toMatchObject({ commission: 0, net: 8_500 });
    const { comission: _, ...withoutCommission } = amounts();
    expect(orderNet(withoutCommission)).toMatchObject({ commission: 0, net: 8_500 });
    expect(orderNet({ ...withoutCommission, comission: null })).toMatchObject({ commission: 0, net: 8_500 });
  });

  it("reads a commission of type percentage as money too: its total carries currency and normalizer", () => {
    expect(orderNet(amounts({ comission: { ...brl(1_350), type: "percentage" } }))).toMatchObject({ commission: 1_350 });
  });

  it("converts a sub-object's own normalizer to the order's exactly when it divides", () => {
    // R$ 12,345 and R$ 15,000 in thousandths, the order in hundredths.
    const net = orderNet(
      amounts({ comission: { ...brl(12_340, 1_000), type: "value" }, freight: { ...brl(15_000, 1_000), shared: 5_000 } }),
    );
    expect(net).toEqual({ total: 10_000, commission: 1_234, sellerFreight: 1_000, net: 7_766, currency: "BRL", normalizer: 100 });
  });

  it("rounds a deduction that does not divide up, so the net is never above the exact figure", () => {
    // R$ 12,345 is 1234,5 hundredths: 1235 is taken.
    expect(orderNet(amounts({ comission: { ...brl(12_345, 1_000), type: "value" } }))).toMatchObject({
      commission: 1_235,
      net: 10_000 - 1_235 - 1_500,
    });
    // An order in whole reais (normalizer 1): R$ 12,50 of commission becomes R$ 13, R$ 0,01 of freight R$ 1.
    expect(
      orderNet({
        ...brl(100, 1),
        freight: { ...brl(1, 100), shared: 0 },
        comission: { ...brl(1_250, 100), type: "value" },
      }),
    ).toEqual({ total: 100, commission: 13, sellerFreight: 1, net: 86, currency: "BRL", normalizer: 1 });
    // A refund-like negative commission rounds up too (toward the smaller net).
    expect(orderNet(amounts({ comission: { ...brl(-12_345, 1_000), type: "value" } }))).toMatchObject({ commission: -1_234 });
  });

  it("converts to a finer order normalizer without loss", () => {
    expect(
      orderNet({
        ...brl(109_800, 1_000),
        freight: { ...brl(1_000), shared: 0 },
        comission: { ...brl(1_200), type: "value" },
      }),
    ).toMatchObject({ commission: 12_000, sellerFreight: 10_000, net: 87_800, normalizer: 1_000 });
  });

  it("gives no net when a deduction is in another currency than the order", () => {
    expect(orderNet(amounts({ comission: { currency: "USD", normalizer: 100, total: 200, type: "value" } }))).toBeNull();
    expect(orderNet(amounts({ freight: { currency: "USD", normalizer: 100, total: 200, shared: 0 } }))).toBeNull();
  });

  it("stays exact for amounts whose product with a normalizer passes 2^53", () => {
    // 10^15 thousandths × 100 is 10^17 on the way; the result, 10^14 hundredths, is exact.
    expect(
      orderNet({ ...brl(10 ** 14), freight: { ...brl(0), shared: 0 }, comission: { ...brl(10 ** 15, 1_000), type: "value" } }),
    ).toMatchObject({ commission: 10 ** 14, net: 0 });
  });
});
