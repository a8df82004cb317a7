import "server-only";
import { deadlineRange, startOfDay } from "@/lib/orders/ship-by";
import { pool } from "@/lib/pg-pool";

// The overview (the home page once connected): what needs the seller now and how sales go, all
// from the order mirror (lib/data/order-mirror.ts), never by paging the platform. Days are the
// seller's, in the time zone of their Settings (`seller.timeZone`). The mirror's timestamps are UTC without a zone, the pool's session is UTC
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
  /**
   * The last 30 days, oldest first: the seller's calendar day (`2026-11-22`), the instant it
   * starts (ISO, for DisplayFormat to name it) and its orders (cancelled excluded).
   */
  daily: { day: string; startsAt: string; orders: number }[];
}

const SALES_DAYS = 30;

/** The overview of a seller whose days are those of `timeZone` (their Settings' zone). */
export async function getOverview(sellerId: string, timeZone: string, now = new Date()): Promise<Overview> {
  const today = deadlineRange("today", now, timeZone);
  const since = { today: startOfDay(now, timeZone), last7Days: startOfDay(now, timeZone, -6), last30Days: startOfDay(now, timeZone, -(SALES_DAYS - 1)) };
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
      [sellerId, since.last30Days.toISOString(), timeZone],
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
  const dayKey = dayKeyIn(timeZone);
  const days = Array.from({ length: SALES_DAYS }, (_, index) => {
    const startsAt = startOfDay(now, timeZone, index - (SALES_DAYS - 1));
    const day = dayKey(startsAt);
    return { day, startsAt: startsAt.toISOString(), orders: byDay.get(day) ?? 0 };
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

/** `2026-11-22`: a day as the query's to_char writes it (en-CA's order), in `timeZone`. */
function dayKeyIn(timeZone: string): (date: Date) => string {
  const dayFormat = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
  return (date) => dayFormat.format(date);
}
