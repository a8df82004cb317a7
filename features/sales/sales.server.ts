import "server-only";
import { pool } from "@/lib/pg-pool.server";
import { centavosSql } from "@/lib/orders/centavos-sql";
import type { Period } from "@/features/sales/periods";
import { pieceParameters } from "@/features/sales/rollup-pieces";

// A shop's sales for a period and the one before it (issue 42), from the order mirror's roll-up
// (decision 0022) by the day an order was placed in the shop's zone: the overview's rule (orders
// not cancelled; net as decision 0012 estimates it). Amounts in reais only: a Brazilian seller
// sells in BRL, and a sum across currencies would be no figure; orders in another currency are
// counted apart.

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
  coalesce(sum("gross"), 0)::text AS "gross", coalesce(sum("net"), 0)::text AS "net", coalesce(sum("withoutNet"), 0)::int AS "withoutNet",
  coalesce(sum("orders"), 0)::int AS "orders", coalesce(sum("cancelled"), 0)::int AS "cancelled",
  coalesce(sum("otherCurrency"), 0)::int AS "otherCurrency"`;

/** Each order's part of the figures, as the roll-up's triggers compute it (migration "sales_rollup"). */
const ORDER_FIGURES = `
  CASE WHEN "sold" THEN ${centavosSql(`"total"`)} ELSE 0 END AS "gross",
  CASE WHEN "sold" THEN coalesce(${centavosSql(`"net"`)}, 0) ELSE 0 END AS "net",
  ("sold" AND "net" IS NULL)::int AS "withoutNet", "sold"::int AS "orders",
  ("status" = 'cancelled' AND "currency" = $4)::int AS "cancelled", ("currency" <> $4)::int AS "otherCurrency"`;

const ROLLED_FIGURES = `r."gross", r."net", r."withoutNet", r."orders", r."cancelled", r."otherCurrency"`;

/**
 * The roll-up's rows of one piece `p`, read by its primary key. OFFSET 0 keeps the subquery whole, so
 * each piece is its own index range: joined, the planner guessed a scan of the shop's every row.
 */
export const ROLLED = (dimension: "state" | "sku") => `
  SELECT * FROM "SalesRollup"
  WHERE "sellerId" = $1 AND "dimension" = '${dimension}' AND "grain" = p."grain"
    AND "at" >= (p."from"::timestamptz AT TIME ZONE 'UTC') AND "at" < (p."to"::timestamptz AT TIME ZONE 'UTC')
  OFFSET 0`;

/**
 * A period as decision 0022 reads it: whole UTC months, days and hours from the roll-up (grains,
 * froms and tos in $2, $3, $5, from rollup-pieces.ts; $4 is the currency), the parts of an hour at
 * either end from the orders ($6, $7). `by_state`: the figures by the recipient's UF, which sum to
 * the period's.
 */
const PERIOD = `
  pieces AS (SELECT * FROM unnest($2::text[], $3::text[], $5::text[]) AS p("grain", "from", "to")),
  ends AS (
    SELECT m."createdAt", coalesce(m."state", '') AS "key", ${ORDER_FIGURES}
    FROM unnest($6::text[], $7::text[]) AS p("from", "to")
    JOIN LATERAL (
      SELECT *, "status" <> 'cancelled' AND "currency" = $4 AS "sold" FROM "OrderMirror"
      WHERE "sellerId" = $1 AND "createdAt" >= (p."from"::timestamptz AT TIME ZONE 'UTC') AND "createdAt" < (p."to"::timestamptz AT TIME ZONE 'UTC')
      OFFSET 0
    ) AS m ON true
  ),
  by_state AS (
    SELECT r."key", ${ROLLED_FIGURES}
    FROM pieces p CROSS JOIN LATERAL (${ROLLED("state")}) AS r
    UNION ALL
    SELECT "key", "gross", "net", "withoutNet", "orders", "cancelled", "otherCurrency" FROM ends
  )`;

/** The period in one statement: its totals and states, and its chart's days (or weeks) from the roll-up's hours. */
const REPORT = (bucket: Period["bucket"]) => ({
  name: `sales_report_${bucket}`,
  text: `
    WITH ${PERIOD},
    by_hour AS (
      SELECT r."at", ${ROLLED_FIGURES}
      FROM "SalesRollup" r
      WHERE r."sellerId" = $1 AND r."dimension" = 'total' AND r."grain" = 'hour'
        AND r."at" >= ($8::timestamptz AT TIME ZONE 'UTC') AND r."at" < ($9::timestamptz AT TIME ZONE 'UTC')
      UNION ALL
      SELECT "createdAt", "gross", "net", "withoutNet", "orders", "cancelled", "otherCurrency" FROM ends
    )
    SELECT 'bucket' AS "kind", date_trunc('${bucket}', ("at" AT TIME ZONE 'UTC') AT TIME ZONE $10)::date::text AS "day",
           NULL AS "state", ${FIGURES}
    FROM by_hour GROUP BY 2
    UNION ALL
    SELECT CASE WHEN grouping("key") = 0 THEN 'state' ELSE 'totals' END, NULL, nullif("key", ''), ${FIGURES}
    FROM by_state GROUP BY GROUPING SETS ((), ("key"))`,
});

/** The period before: its totals only. */
const TOTALS = { name: "sales_totals", text: `WITH ${PERIOD} SELECT 'totals' AS "kind", ${FIGURES} FROM by_state` };

/** The statements' parameters $1–$7 for a period. */
function periodValues(shopId: string, from: Date, to: Date) {
  const pieces = pieceParameters(from, to);
  return {
    values: [shopId, pieces.grains, pieces.froms, SALES_CURRENCY, pieces.tos, pieces.orderFroms, pieces.orderTos],
    pieces,
  };
}

const totalsOf = (row: ReportRow | undefined): SalesTotals => ({
  gross: Number(row?.gross ?? 0),
  net: Number(row?.net ?? 0),
  withoutNet: row?.withoutNet ?? 0,
  orders: row?.orders ?? 0,
  cancelled: row?.cancelled ?? 0,
  otherCurrency: row?.otherCurrency ?? 0,
});

/** Two statements at once, each over its own period. */
export async function salesReport(shop: { id: string; timeZone: string }, period: Period): Promise<SalesReport> {
  const current = periodValues(shop.id, period.from, period.to);
  const [report, previous] = await Promise.all([
    pool.query<ReportRow>({
      ...REPORT(period.bucket),
      values: [...current.values, current.pieces.hourFrom, current.pieces.hourTo, shop.timeZone],
    }),
    pool.query<ReportRow>({ ...TOTALS, values: periodValues(shop.id, period.previous.from, period.previous.to).values }),
  ]);
  const sold = report.rows.filter((row) => row.orders > 0);
  return {
    current: totalsOf(report.rows.find((row) => row.kind === "totals")),
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
