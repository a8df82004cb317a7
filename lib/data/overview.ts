import "server-only";
import { deadlineRange, startOfDay } from "@/lib/orders/ship-by";
import { pool } from "@/lib/pg-pool";
import { DISPLAY_TIME_ZONE } from "@/lib/format";

// The overview (the home page once connected): what needs the seller now and how sales go, all
// from the order mirror (lib/data/order-mirror.ts), never by paging the platform. Days are the
// seller's (São Paulo). The mirror's timestamps are UTC without a zone, the pool's session is UTC
// (lib/pg-pool.ts): instants go in as ISO text cast to timestamptz.

export interface SalesFigure {
  orders: number;
  /** Per currency (a seller normally sells in one): total in minor units, with its normalizer. */
  totals: { currency: string; total: number; normalizer: number }[];
}

export interface Overview {
  awaitingApproval: number;
  shipToday: number;
  late: number;
  sales: { today: SalesFigure; last7Days: SalesFigure; last30Days: SalesFigure };
  /** The last 30 days, oldest first: the seller's calendar day and its orders (cancelled excluded). */
  daily: { day: string; orders: number }[];
}

const SALES_DAYS = 30;

export async function getOverview(sellerId: string, now = new Date()): Promise<Overview> {
  const today = deadlineRange("today", now);
  const since = { today: startOfDay(now), last7Days: startOfDay(now, -6), last30Days: startOfDay(now, -(SALES_DAYS - 1)) };
  const [counts, sales, daily] = await Promise.all([
    pool.query<{ awaiting: number; ship_today: number; late: number }>(
      `SELECT COUNT(*) FILTER (WHERE "status" = 'new')::int AS awaiting,
              COUNT(*) FILTER (WHERE "nextLimitAt" >= $2::timestamptz AND "nextLimitAt" < $3::timestamptz)::int AS ship_today,
              COUNT(*) FILTER (WHERE "nextLimitAt" < $2::timestamptz)::int AS late
       FROM "OrderMirror" WHERE "sellerId" = $1`,
      [sellerId, today.from!.toISOString(), today.before.toISOString()],
    ),
    pool.query<{ period: "today" | "last7Days" | "last30Days"; currency: string | null; normalizer: number | null; orders: number; total: string | null }>(
      `SELECT p.period, m."currency", m."normalizer", COUNT(m.*)::int AS orders, SUM(m."total")::text AS total
       FROM (VALUES ('today', $2::timestamptz), ('last7Days', $3::timestamptz), ('last30Days', $4::timestamptz)) AS p(period, since)
       LEFT JOIN "OrderMirror" m ON m."sellerId" = $1 AND m."status" <> 'cancelled' AND m."createdAt" >= p.since
       GROUP BY p.period, m."currency", m."normalizer"`,
      [sellerId, since.today.toISOString(), since.last7Days.toISOString(), since.last30Days.toISOString()],
    ),
    pool.query<{ day: string; orders: number }>(
      `SELECT to_char(("createdAt" AT TIME ZONE 'UTC') AT TIME ZONE $3, 'YYYY-MM-DD') AS day, COUNT(*)::int AS orders
       FROM "OrderMirror" WHERE "sellerId" = $1 AND "status" <> 'cancelled' AND "createdAt" >= $2::timestamptz
       GROUP BY day ORDER BY day`,
      [sellerId, since.last30Days.toISOString(), DISPLAY_TIME_ZONE],
    ),
  ]);

  const figure = (period: "today" | "last7Days" | "last30Days"): SalesFigure => {
    const rows = sales.rows.filter((row) => row.period === period && row.currency !== null);
    return {
      orders: rows.reduce((sum, row) => sum + row.orders, 0),
      totals: rows.map((row) => ({ currency: row.currency!, total: Number(row.total ?? 0), normalizer: row.normalizer ?? 100 })),
    };
  };
  const byDay = new Map(daily.rows.map((row) => [row.day, row.orders]));
  const days = Array.from({ length: SALES_DAYS }, (_, index) => {
    const day = dayKey(startOfDay(now, index - (SALES_DAYS - 1)));
    return { day, orders: byDay.get(day) ?? 0 };
  });
  const count = counts.rows[0]!;
  return {
    awaitingApproval: count.awaiting,
    shipToday: count.ship_today,
    late: count.late,
    sales: { today: figure("today"), last7Days: figure("last7Days"), last30Days: figure("last30Days") },
    daily: days,
  };
}

const dayFormat = new Intl.DateTimeFormat("en-CA", { timeZone: DISPLAY_TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" });
const dayKey = (date: Date) => dayFormat.format(date);
