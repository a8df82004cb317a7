import "server-only";
import { startOfDay } from "@/lib/orders/ship-by";
import { countShippingOrders } from "@/features/shipping";
import { pool } from "@/lib/pg-pool.server";
import { centavosSql } from "@/lib/orders/centavos-sql";

// All from the order mirror, never by paging the platform. Its timestamps are UTC without a zone,
// so instants go in as ISO text cast to timestamptz.

export interface SalesFigure {
  orders: number;
  /** Per currency (a seller normally sells in one): total in minor units, with its normalizer. */
  totals: { currency: string; total: number; normalizer: number }[];
}

/** The sum of the mirror's estimated nets (lib/orders/net.ts) of a SalesFigure's orders. */
export interface NetSalesFigure {
  nets: { currency: string; net: number; normalizer: number }[];
  /** Orders whose net the mirror does not know yet: left out of `nets`, and said so. */
  withoutNet: number;
}

export interface Overview {
  /** New orders: the platform approves their payment; nothing for the seller to do yet. */
  awaitingApproval: number;
  /** What the shipping page lists for "today" (late included) and "late": counted by the same query. */
  shipToday: number;
  late: number;
  sales: { today: SalesFigure; last7Days: SalesFigure; last30Days: SalesFigure };
  netSales: { today: NetSalesFigure; last7Days: NetSalesFigure; last30Days: NetSalesFigure };
  /**
   * The seller's last 30 days, oldest first; cancelled orders excluded. `gross`: sales in reais
   * (centavos); `previousGross`: the same day of the 30 days before, drawn behind it.
   */
  daily: { day: string; startsAt: string; orders: number; gross: number; previousGross: number }[];
}

const SALES_DAYS = 30;

const PERIOD_COLUMNS = { today: "today", last7Days: "last7", last30Days: "last30" } as const;

type PeriodColumns<Key extends string> = Record<`${Key}_orders`, number> &
  Record<`${Key}_total`, string | null> &
  Record<`${Key}_net`, string | null> &
  Record<`${Key}_without_net`, number>;

type RecentRow = { day: string | null; currency: string | null; normalizer: number | null } & PeriodColumns<"today" | "last7" | "last30">;

export async function getOverview(shopId: string, timeZone: string, now = new Date()): Promise<Overview> {
  const since = {
    today: startOfDay(now, timeZone),
    last7Days: startOfDay(now, timeZone, -6),
    last30Days: startOfDay(now, timeZone, -(SALES_DAYS - 1)),
  };
  // One statement for sales and the chart: with no index on createdAt, each statement over recent
  // orders reads all the seller's orders.
  const shop = { id: shopId, timeZone };
  const [counts, shipToday, late, recent, grossByDay] = await Promise.all([
    pool.query<{ awaiting: number }>(`SELECT COUNT(*)::int AS awaiting FROM "OrderMirror" WHERE "sellerId" = $1 AND "status" = 'new'`, [
      shopId,
    ]),
    countShippingOrders(shop, { due: "today" }, now),
    countShippingOrders(shop, { due: "late" }, now),
    pool.query<RecentRow>(
      `SELECT to_char(("createdAt" AT TIME ZONE 'UTC') AT TIME ZONE $5, 'YYYY-MM-DD') AS day, "currency", "normalizer",
              COUNT(*) FILTER (WHERE "createdAt" >= $2::timestamptz)::int AS today_orders,
              (SUM("total") FILTER (WHERE "createdAt" >= $2::timestamptz))::text AS today_total,
              (SUM("net") FILTER (WHERE "createdAt" >= $2::timestamptz))::text AS today_net,
              COUNT(*) FILTER (WHERE "createdAt" >= $2::timestamptz AND "net" IS NULL)::int AS today_without_net,
              COUNT(*) FILTER (WHERE "createdAt" >= $3::timestamptz)::int AS last7_orders,
              (SUM("total") FILTER (WHERE "createdAt" >= $3::timestamptz))::text AS last7_total,
              (SUM("net") FILTER (WHERE "createdAt" >= $3::timestamptz))::text AS last7_net,
              COUNT(*) FILTER (WHERE "createdAt" >= $3::timestamptz AND "net" IS NULL)::int AS last7_without_net,
              COUNT(*)::int AS last30_orders, SUM("total")::text AS last30_total,
              SUM("net")::text AS last30_net, COUNT(*) FILTER (WHERE "net" IS NULL)::int AS last30_without_net
       FROM "OrderMirror" WHERE "sellerId" = $1 AND "status" <> 'cancelled' AND "createdAt" >= $4::timestamptz
       GROUP BY GROUPING SETS ((to_char(("createdAt" AT TIME ZONE 'UTC') AT TIME ZONE $5, 'YYYY-MM-DD')), ("currency", "normalizer"))`,
      [shopId, since.today.toISOString(), since.last7Days.toISOString(), since.last30Days.toISOString(), timeZone],
    ),
    // Sales in reais per day over the 30 days and the 30 before them (the sales page's rule).
    pool.query<{ day: string; gross: string }>({
      name: "overview_gross_by_day",
      text: `
        SELECT to_char(("createdAt" AT TIME ZONE 'UTC') AT TIME ZONE $3, 'YYYY-MM-DD') AS "day", sum(${centavosSql(`"total"`)})::text AS "gross"
        FROM "OrderMirror"
        WHERE "sellerId" = $1 AND "status" <> 'cancelled' AND "currency" = 'BRL' AND "createdAt" >= ($2::timestamptz AT TIME ZONE 'UTC')
        GROUP BY 1`,
      values: [shopId, startOfDay(now, timeZone, -(2 * SALES_DAYS - 1)).toISOString(), timeZone],
    }),
  ]);

  // Rows grouped by currency have no day; rows grouped by day have no currency.
  const byCurrency = recent.rows.filter((row) => row.day === null);
  const figure = (period: "today" | "last7Days" | "last30Days"): SalesFigure => {
    const key = PERIOD_COLUMNS[period];
    const rows = byCurrency.filter((row) => row[`${key}_orders`] > 0);
    return {
      orders: rows.reduce((sum, row) => sum + row[`${key}_orders`], 0),
      totals: rows.map((row) => ({ currency: row.currency!, total: Number(row[`${key}_total`] ?? 0), normalizer: row.normalizer ?? 100 })),
    };
  };
  const netFigure = (period: "today" | "last7Days" | "last30Days"): NetSalesFigure => {
    const key = PERIOD_COLUMNS[period];
    const rows = byCurrency.filter((row) => row[`${key}_orders`] > 0);
    return {
      // SUM ignores nulls: a currency none of whose orders has a net yet has no figure at all.
      nets: rows
        .filter((row) => row[`${key}_net`] !== null)
        .map((row) => ({ currency: row.currency!, net: Number(row[`${key}_net`]), normalizer: row.normalizer ?? 100 })),
      withoutNet: rows.reduce((sum, row) => sum + row[`${key}_without_net`], 0),
    };
  };
  const daily = recent.rows.filter((row) => row.day !== null);
  const byDay = new Map(daily.map((row) => [row.day, row.last30_orders]));
  const dayKey = dayKeyIn(timeZone);
  const gross = new Map(grossByDay.rows.map((row) => [row.day, Number(row.gross)]));
  const days = Array.from({ length: SALES_DAYS }, (_, index) => {
    const startsAt = startOfDay(now, timeZone, index - (SALES_DAYS - 1));
    const day = dayKey(startsAt);
    const before = dayKey(startOfDay(now, timeZone, index - (2 * SALES_DAYS - 1)));
    return {
      day,
      startsAt: startsAt.toISOString(),
      orders: byDay.get(day) ?? 0,
      gross: gross.get(day) ?? 0,
      previousGross: gross.get(before) ?? 0,
    };
  });
  const count = counts.rows[0]!;
  return {
    awaitingApproval: count.awaiting,
    shipToday,
    late,
    sales: { today: figure("today"), last7Days: figure("last7Days"), last30Days: figure("last30Days") },
    netSales: { today: netFigure("today"), last7Days: netFigure("last7Days"), last30Days: netFigure("last30Days") },
    daily: days,
  };
}

/** `2026-11-22`: a day as the query's to_char writes it (en-CA's order), in `timeZone`. */
function dayKeyIn(timeZone: string): (date: Date) => string {
  const dayFormat = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
  return (date) => dayFormat.format(date);
}
