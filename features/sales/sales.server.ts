import "server-only";
import { pool } from "@/lib/pg-pool.server";
import type { Period } from "@/features/sales/periods";

// A shop's sales for a period and the one before it (issue 42), from the order mirror by the day an
// order was placed in the shop's zone: the overview's rule (orders not cancelled; net as decision
// 0012 estimates it). Amounts in reais only: a Brazilian seller sells in BRL, and a sum across
// currencies would be no figure; orders in another currency are counted apart.

export const SALES_CURRENCY = "BRL";
export const SALES_NORMALIZER = 100;

export interface SalesTotals {
  /** Centavos. */
  gross: number;
  net: number;
  /** Orders whose net the mirror does not know: left out of `net`. */
  withoutNet: number;
  orders: number;
  cancelled: number;
  /** Orders in another currency, in no figure. */
  otherCurrency: number;
}

export interface SalesBucket {
  /** "2026-11-29", the day (or the week's Monday) in the shop's zone. */
  day: string;
  gross: number;
  net: number;
  orders: number;
}

export interface SalesByState {
  /** The recipient's UF; null when the mirror does not know it. */
  state: string | null;
  gross: number;
  orders: number;
}

export interface SalesReport {
  current: SalesTotals;
  previous: SalesTotals;
  buckets: SalesBucket[];
  states: SalesByState[];
}

/** Centavos of a mirrored order: its total in BRL at any normalizer. */
const CENTAVOS = (column: string) => `round(${column}::numeric * ${SALES_NORMALIZER} / "normalizer")`;

async function totals(shopId: string, from: Date, to: Date): Promise<SalesTotals> {
  const { rows } = await pool.query<Record<keyof SalesTotals, string | number>>({
    name: "sales_totals",
    text: `
      SELECT coalesce(sum(${CENTAVOS(`"total"`)}) FILTER (WHERE "status" <> 'cancelled' AND "currency" = $4), 0)::text AS "gross",
             coalesce(sum(${CENTAVOS(`"net"`)}) FILTER (WHERE "status" <> 'cancelled' AND "currency" = $4), 0)::text AS "net",
             count(*) FILTER (WHERE "status" <> 'cancelled' AND "currency" = $4 AND "net" IS NULL)::int AS "withoutNet",
             count(*) FILTER (WHERE "status" <> 'cancelled' AND "currency" = $4)::int AS "orders",
             count(*) FILTER (WHERE "status" = 'cancelled' AND "currency" = $4)::int AS "cancelled",
             count(*) FILTER (WHERE "currency" <> $4)::int AS "otherCurrency"
      FROM "OrderMirror"
      WHERE "sellerId" = $1 AND "createdAt" >= ($2::timestamptz AT TIME ZONE 'UTC') AND "createdAt" < ($3::timestamptz AT TIME ZONE 'UTC')`,
    values: [shopId, from.toISOString(), to.toISOString(), SALES_CURRENCY],
  });
  const row = rows[0]!;
  return {
    gross: Number(row.gross),
    net: Number(row.net),
    withoutNet: Number(row.withoutNet),
    orders: Number(row.orders),
    cancelled: Number(row.cancelled),
    otherCurrency: Number(row.otherCurrency),
  };
}

export async function salesReport(shop: { id: string; timeZone: string }, period: Period): Promise<SalesReport> {
  const range = [shop.id, period.from.toISOString(), period.to.toISOString(), SALES_CURRENCY];
  const where = `"sellerId" = $1 AND "createdAt" >= ($2::timestamptz AT TIME ZONE 'UTC') AND "createdAt" < ($3::timestamptz AT TIME ZONE 'UTC')
                 AND "status" <> 'cancelled' AND "currency" = $4`;
  const [current, previous, buckets, states] = await Promise.all([
    totals(shop.id, period.from, period.to),
    totals(shop.id, period.previous.from, period.previous.to),
    pool.query<{ day: string; gross: string; net: string; orders: number }>({
      name: `sales_buckets_${period.bucket}`,
      text: `
        SELECT to_char(date_trunc($6, ("createdAt" AT TIME ZONE 'UTC') AT TIME ZONE $5), 'YYYY-MM-DD') AS "day",
               sum(${CENTAVOS(`"total"`)})::text AS "gross", coalesce(sum(${CENTAVOS(`"net"`)}), 0)::text AS "net", count(*)::int AS "orders"
        FROM "OrderMirror" WHERE ${where}
        GROUP BY 1 ORDER BY 1`,
      values: [...range, shop.timeZone, period.bucket],
    }),
    pool.query<{ state: string | null; gross: string; orders: number }>({
      name: "sales_states",
      text: `
        SELECT "state", sum(${CENTAVOS(`"total"`)})::text AS "gross", count(*)::int AS "orders"
        FROM "OrderMirror" WHERE ${where}
        GROUP BY "state" ORDER BY sum("total") DESC`,
      values: range,
    }),
  ]);
  return {
    current,
    previous,
    buckets: buckets.rows.map((row) => ({ day: row.day, gross: Number(row.gross), net: Number(row.net), orders: row.orders })),
    states: states.rows.map((row) => ({ state: row.state, gross: Number(row.gross), orders: row.orders })),
  };
}
