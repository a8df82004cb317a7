import "server-only";
import { pool } from "@/lib/pg-pool.server";
import { centavosSql } from "@/lib/orders/centavos-sql";
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

type ReportRow = {
  kind: "totals" | "bucket" | "state";
  day: string | null;
  state: string | null;
  gross: string;
  net: string;
  withoutNet: number;
  orders: number;
  cancelled: number;
  otherCurrency: number;
};

const FIGURES = `
  coalesce(sum("gross") FILTER (WHERE "sold"), 0)::text AS "gross", coalesce(sum("net") FILTER (WHERE "sold"), 0)::text AS "net",
  count(*) FILTER (WHERE "sold" AND "net" IS NULL)::int AS "withoutNet", count(*) FILTER (WHERE "sold")::int AS "orders",
  count(*) FILTER (WHERE "cancelled")::int AS "cancelled", count(*) FILTER (WHERE "other")::int AS "otherCurrency"`;

/** The orders placed in [$2, $3), with what the figures need. */
const PLACED = (day: string) => `
  SELECT "status" <> 'cancelled' AND "currency" = $4 AS "sold", "status" = 'cancelled' AND "currency" = $4 AS "cancelled",
         "currency" <> $4 AS "other", ${centavosSql(`"total"`)} AS "gross", ${centavosSql(`"net"`)} AS "net", "state"${day}
  FROM "OrderMirror"
  WHERE "sellerId" = $1 AND "createdAt" >= ($2::timestamptz AT TIME ZONE 'UTC') AND "createdAt" < ($3::timestamptz AT TIME ZONE 'UTC')`;

/** The period in one pass: its totals, and its buckets and states as grouping sets. */
const REPORT = (bucket: Period["bucket"]) => ({
  name: `sales_report_${bucket}`,
  text: `
    WITH placed AS (${PLACED(`, date_trunc('${bucket}', ("createdAt" AT TIME ZONE 'UTC') AT TIME ZONE $5)::date::text AS "day"`)})
    SELECT CASE WHEN grouping("day") = 0 THEN 'bucket' WHEN grouping("state") = 0 THEN 'state' ELSE 'totals' END AS "kind",
           "day", "state", ${FIGURES}
    FROM placed
    GROUP BY GROUPING SETS ((), ("day"), ("state"))`,
});

/** The period before: its totals only. */
const TOTALS = { name: "sales_totals", text: `WITH placed AS (${PLACED("")}) SELECT 'totals' AS "kind", ${FIGURES} FROM placed` };

const totalsOf = (row: ReportRow | undefined): SalesTotals => ({
  gross: Number(row?.gross ?? 0),
  net: Number(row?.net ?? 0),
  withoutNet: row?.withoutNet ?? 0,
  orders: row?.orders ?? 0,
  cancelled: row?.cancelled ?? 0,
  otherCurrency: row?.otherCurrency ?? 0,
});

/** Two statements at once, each over its own period: the mirror's rows of each read once. */
export async function salesReport(shop: { id: string; timeZone: string }, period: Period): Promise<SalesReport> {
  const [current, previous] = await Promise.all([
    pool.query<ReportRow>({
      ...REPORT(period.bucket),
      values: [shop.id, period.from.toISOString(), period.to.toISOString(), SALES_CURRENCY, shop.timeZone],
    }),
    pool.query<ReportRow>({
      ...TOTALS,
      values: [shop.id, period.previous.from.toISOString(), period.previous.to.toISOString(), SALES_CURRENCY],
    }),
  ]);
  const sold = current.rows.filter((row) => row.orders > 0);
  return {
    current: totalsOf(current.rows.find((row) => row.kind === "totals")),
    previous: totalsOf(previous.rows[0]),
    buckets: sold
      .filter((row) => row.kind === "bucket")
      .map((row) => ({ day: row.day!, gross: Number(row.gross), net: Number(row.net), orders: row.orders }))
      .sort((x, y) => (x.day < y.day ? -1 : 1)),
    states: sold
      .filter((row) => row.kind === "state")
      .map((row) => ({ state: row.state, gross: Number(row.gross), orders: row.orders }))
      .sort((x, y) => y.gross - x.gross),
  };
}
