import { describe, expect, it } from "vitest";
import { attentionOrder, startOfMonth } from "./glance";
import type { ShopGlance } from "./glance";

describe("startOfMonth", () => {
  it("is midnight of the 1st in the shop's zone, also when UTC is already in the next month", () => {
    // 30 Nov, 23:30 in São Paulo (UTC−3) is 1 Dec in UTC: still November there.
    expect(startOfMonth(new Date("2026-12-01T02:30:00Z"), "America/Sao_Paulo").toISOString()).toBe("2026-11-01T03:00:00.000Z");
    expect(startOfMonth(new Date("2026-12-01T03:00:00Z"), "America/Sao_Paulo").toISOString()).toBe("2026-12-01T03:00:00.000Z");
    // Manaus is UTC−4.
    expect(startOfMonth(new Date("2026-03-15T12:00:00Z"), "America/Manaus").toISOString()).toBe("2026-03-01T04:00:00.000Z");
  });
});

describe("attentionOrder", () => {
  const glance = (name: string, figures: Partial<ShopGlance>): ShopGlance => ({
    shop: { id: name, name, email: `${name}@example.com`, role: "owner", connected: true },
    timeZone: "America/Sao_Paulo",
    shipToday: 0,
    late: 0,
    pricesBelowCost: 0,
    problems: [],
    today: { orders: 0, totals: [] },
    month: { orders: 0, totals: [] },
    since: { today: new Date(0), month: new Date(0) },
    ...figures,
  });

  it("puts a connection to mend first, then late orders, prices below cost, what ships today, then the name", () => {
    const shops = [
      glance("Calma", {}),
      glance("Beta", { shipToday: 9 }),
      glance("Alfa", { shipToday: 9 }),
      glance("Preços", { pricesBelowCost: 2, shipToday: 1 }),
      glance("Atrasos", { late: 1 }),
      glance("Conexão", { problems: ["reconnect"] }),
    ];
    expect(shops.sort(attentionOrder).map((shop) => shop.shop.name)).toEqual(["Conexão", "Atrasos", "Preços", "Alfa", "Beta", "Calma"]);
  });
});
