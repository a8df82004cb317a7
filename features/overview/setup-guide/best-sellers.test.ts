import { describe, expect, it } from "vitest";
import { bestSellersOf, bestSellersSince } from "@/features/overview/setup-guide/best-sellers";
import type { SoldOrder } from "@/features/overview/setup-guide/best-sellers";

// The best sellers the guide asks costs for: most units over the last 30 days' orders.

const NOW = new Date("2026-11-29T12:00:00Z");
const SINCE = bestSellersSince(NOW);

function order(createdAt: string, items: [sku: string, quantity: number][], status = "approved"): SoldOrder {
  return { status, created_at: createdAt, deliveries: [{ items: items.map(([sku, quantity]) => ({ quantity, info: { sku } })) }] };
}

describe("best sellers", () => {
  it("start 30 days before now", () => {
    expect(SINCE.toISOString()).toBe("2026-10-30T12:00:00.000Z");
  });

  it("rank codes by units over every delivery of every order, most first", () => {
    const orders: SoldOrder[] = [
      order("2026-11-28T10:00:00Z", [
        ["CAM-001", 1],
        ["TEN-002", 2],
      ]),
      {
        status: "new",
        created_at: "2026-11-27T10:00:00Z",
        deliveries: [{ items: [{ quantity: 3, info: { sku: "CAM-001" } }] }, { items: [{ quantity: 1, info: { sku: "GAR-001" } }] }],
      },
    ];
    expect(bestSellersOf(orders, SINCE, 5)).toEqual([
      { sku: "CAM-001", units: 4 },
      { sku: "TEN-002", units: 2 },
      { sku: "GAR-001", units: 1 },
    ]);
  });

  it("leave out cancelled orders and orders placed before the window", () => {
    const orders = [
      order("2026-11-28T10:00:00Z", [["CAM-001", 1]]),
      order("2026-11-28T10:00:00Z", [["TEN-002", 9]], "cancelled"),
      order("2026-10-30T11:59:59Z", [["GAR-001", 9]]),
    ];
    expect(bestSellersOf(orders, SINCE, 5)).toEqual([{ sku: "CAM-001", units: 1 }]);
  });

  it("keep the first `limit` codes, ties going to the code that sorts first, so the list does not change between reads", () => {
    const orders = [
      order("2026-11-28T10:00:00Z", [
        ["ZZZ-001", 2],
        ["BBB-001", 2],
        ["AAA-001", 2],
        ["CCC-001", 5],
      ]),
    ];
    expect(bestSellersOf(orders, SINCE, 3).map((product) => product.sku)).toEqual(["CCC-001", "AAA-001", "BBB-001"]);
  });

  it("skip items without a readable code", () => {
    const orders: SoldOrder[] = [
      {
        status: "approved",
        created_at: "2026-11-28T10:00:00Z",
        deliveries: [
          {
            items: [
              { quantity: 2, info: undefined },
              { quantity: 1, info: { sku: "" } },
            ],
          },
        ],
      },
    ];
    expect(bestSellersOf(orders, SINCE, 5)).toEqual([]);
  });
});
