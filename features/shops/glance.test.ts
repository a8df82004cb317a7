import { describe, expect, it } from "vitest";
import { attentionOrder } from "./glance";
import type { ShopGlance } from "./glance";

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
