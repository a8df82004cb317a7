import type { PersonShop } from "@/lib/people/people.server";

// What the shops page shows of each shop, and the order it shows them in (glance.server.ts reads them).

export type ConnectionProblem = "reconnect" | "permissions" | "deadEvents";

export interface SalesTotal {
  orders: number;
  /** Per currency, in minor units with its normalizer (a seller normally sells in one). */
  totals: { currency: string; total: number; normalizer: number }[];
}

export interface ShopGlance {
  shop: PersonShop;
  timeZone: string;
  shipToday: number;
  late: number;
  /** Null for a role that does not see prices. */
  pricesBelowCost: number | null;
  problems: ConnectionProblem[];
  today: SalesTotal;
  month: SalesTotal;
  /** Where "today" and "this month" begin in the shop's zone, for the links to its orders. */
  since: { today: Date; month: Date };
}

/** What needs the person first: a connection to mend, then late orders, then prices below cost, then what ships today. */
export function attentionOrder(a: ShopGlance, b: ShopGlance): number {
  return (
    b.problems.length - a.problems.length ||
    b.late - a.late ||
    (b.pricesBelowCost ?? 0) - (a.pricesBelowCost ?? 0) ||
    b.shipToday - a.shipToday ||
    a.shop.name.localeCompare(b.shop.name)
  );
}
