import "server-only";
import { countPricesBelowCost } from "@/features/prices";
import { startOfDay } from "@/lib/orders/ship-by";
import { attentionOrder } from "@/features/shops/glance";
import { startOfMonth } from "@/lib/orders/month";
import type { ConnectionProblem, SalesTotal, ShopGlance } from "@/features/shops/glance";
import { countDue } from "@/lib/orders/shipping-due.server";
import type { PersonShop } from "@/lib/people/people.server";
import { can } from "@/lib/people/roles";
import { pool } from "@/lib/pg-pool.server";
import { DEAD_UNTIL } from "@/lib/webhook-work";

// Every shop of a person at a glance (issue 42): what needs them today and how sales go, per shop,
// by the same rules as each shop's own pages: the shipping page's due counts (countDue), the
// overview's sales (orders not cancelled, by the day they were placed in the shop's zone), the
// digest's prices below cost. All from the mirrors, never by paging the platform.

async function shopStates(shopIds: readonly string[]) {
  const { rows } = await pool.query<{ id: string; timeZone: string; needsReconnect: boolean; scopesMissing: string; deadEvents: number }>({
    name: "shops_glance_states",
    text: `
      SELECT s."id", s."timeZone", c."needsReconnectAt" IS NOT NULL AS "needsReconnect", coalesce(c."scopesMissing", '') AS "scopesMissing",
             (SELECT count(*)::int FROM "WebhookWork" w JOIN "WebhookEvent" e ON e."id" = w."eventId"
               WHERE e."sellerId" = s."id" AND w."availableAt" = ${DEAD_UNTIL}) AS "deadEvents"
      FROM "Seller" s LEFT JOIN "Connection" c ON c."sellerId" = s."id"
      WHERE s."id" = ANY($1::text[])`,
    values: [shopIds],
  });
  return new Map(rows.map((row) => [row.id, row]));
}

async function salesSince(shopId: string, since: { today: Date; month: Date }): Promise<{ today: SalesTotal; month: SalesTotal }> {
  const { rows } = await pool.query<{
    currency: string;
    normalizer: number;
    todayOrders: number;
    todayTotal: string;
    monthOrders: number;
    monthTotal: string;
  }>({
    name: "shops_glance_sales",
    text: `
      SELECT "currency", "normalizer",
             count(*) FILTER (WHERE "createdAt" >= ($2::timestamptz AT TIME ZONE 'UTC'))::int AS "todayOrders",
             coalesce(sum("total") FILTER (WHERE "createdAt" >= ($2::timestamptz AT TIME ZONE 'UTC')), 0)::text AS "todayTotal",
             count(*)::int AS "monthOrders", sum("total")::text AS "monthTotal"
      FROM "OrderMirror"
      WHERE "sellerId" = $1 AND "status" <> 'cancelled' AND "createdAt" >= ($3::timestamptz AT TIME ZONE 'UTC')
      GROUP BY "currency", "normalizer"
      ORDER BY count(*) DESC`,
    values: [shopId, since.today.toISOString(), since.month.toISOString()],
  });
  const total = (orders: "todayOrders" | "monthOrders", sum: "todayTotal" | "monthTotal"): SalesTotal => {
    const withOrders = rows.filter((row) => row[orders] > 0);
    return {
      orders: withOrders.reduce((count, row) => count + row[orders], 0),
      totals: withOrders.map((row) => ({ currency: row.currency, total: Number(row[sum]), normalizer: row.normalizer })),
    };
  };
  return { today: total("todayOrders", "todayTotal"), month: total("monthOrders", "monthTotal") };
}

export async function shopsAtAGlance(shops: readonly PersonShop[], now: Date = new Date()): Promise<ShopGlance[]> {
  if (shops.length === 0) return [];
  const ids = shops.map((shop) => shop.id);
  const [states, belowCost] = await Promise.all([
    shopStates(ids),
    countPricesBelowCost(shops.filter((shop) => can(shop.role, "prices.view")).map((shop) => shop.id)),
  ]);
  const glances = await Promise.all(
    shops.map(async (shop): Promise<ShopGlance> => {
      const state = states.get(shop.id);
      const timeZone = state?.timeZone ?? "America/Sao_Paulo";
      const since = { today: startOfDay(now, timeZone), month: startOfMonth(now, timeZone) };
      const [due, sales] = await Promise.all([countDue({ id: shop.id, timeZone }, now), salesSince(shop.id, since)]);
      const problems: ConnectionProblem[] = [];
      // Only those who may mend it are shown what is wrong with the connection.
      if (state && can(shop.role, "connection.manage")) {
        if (state.needsReconnect || !shop.connected) problems.push("reconnect");
        else if (state.scopesMissing.trim() !== "") problems.push("permissions");
        if (state.deadEvents > 0) problems.push("deadEvents");
      }
      return {
        shop,
        timeZone,
        shipToday: due.today,
        late: due.late,
        pricesBelowCost: can(shop.role, "prices.view") ? (belowCost.get(shop.id) ?? 0) : null,
        problems,
        ...sales,
        since,
      };
    }),
  );
  return glances.sort(attentionOrder);
}
