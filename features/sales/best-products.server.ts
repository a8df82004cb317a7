import "server-only";
import { currentCosts, pricingSettings } from "@/features/prices";
import { withMargins } from "@/features/sales/best-products";
import type { ProductSales, ProductSold } from "@/features/sales/best-products";
import type { Period } from "@/features/sales/periods";
import { pool } from "@/lib/pg-pool.server";
import { pieceParameters } from "@/features/sales/rollup-pieces";
import type { Grain } from "@/features/sales/rollup-pieces";
import { ROLLED } from "@/features/sales/sales.server";

/** What the roll-up keeps of a SKU (migration "sales_rollup"): a period's ends read its orders. */
const SKU_GRAINS: readonly Grain[] = ["month", "day"];

/**
 * Every SKU code the shop sold in the period (orders not cancelled), named as the catalogue or its
 * latest order names it (ProductName), with its margin when its cost is known. From the roll-up
 * and, for the parts of a day at the period's ends, from its orders (decision 0022).
 */
export async function productSales(shopId: string, period: Pick<Period, "from" | "to">): Promise<ProductSales[]> {
  const pieces = pieceParameters(period.from, period.to, SKU_GRAINS);
  const { rows } = await pool.query<{ sku: string; name: string; units: number; revenue: string; withoutRevenue: number }>({
    name: "sales_products",
    text: `
      WITH sold AS (
        SELECT r."key" AS "sku", r."units", r."revenue", r."withoutRevenue"
        FROM unnest($2::text[], $3::text[], $4::text[]) AS p("grain", "from", "to") CROSS JOIN LATERAL (${ROLLED("sku")}) AS r
        UNION ALL
        SELECT i."sku", coalesce(i."quantity", 0), coalesce(i."revenue", 0), (i."revenue" IS NULL)::int
        FROM unnest($5::text[], $6::text[]) AS p("from", "to")
        CROSS JOIN LATERAL (
          SELECT "items" FROM "OrderMirror"
          WHERE "sellerId" = $1 AND "status" <> 'cancelled'
            AND "createdAt" >= (p."from"::timestamptz AT TIME ZONE 'UTC') AND "createdAt" < (p."to"::timestamptz AT TIME ZONE 'UTC')
          OFFSET 0
        ) AS m
        CROSS JOIN LATERAL jsonb_to_recordset(m."items") AS i("sku" text, "quantity" int, "revenue" bigint)
        WHERE i."sku" IS NOT NULL
      )
      SELECT s."sku", coalesce(n."name", s."sku") AS "name", sum(s."units")::int AS "units", sum(s."revenue")::text AS "revenue",
             sum(s."withoutRevenue")::int AS "withoutRevenue"
      FROM sold s LEFT JOIN "ProductName" n ON n."sellerId" = $1 AND n."sku" = s."sku"
      GROUP BY s."sku", n."name"
      HAVING sum(s."units") <> 0 OR sum(s."revenue") <> 0 OR sum(s."withoutRevenue") <> 0`,
    values: [shopId, pieces.grains, pieces.froms, pieces.tos, pieces.orderFroms, pieces.orderTos],
  });
  const sold: ProductSold[] = rows.map((row) => ({ ...row, revenue: Number(row.revenue) }));
  const costs = await currentCosts(
    shopId,
    sold.map((product) => product.sku),
  );
  // The commission rate is learned from every order of the shop: read only when a margin needs it.
  if (costs.size === 0) return withMargins(sold, costs, null);
  return withMargins(sold, costs, (await pricingSettings(shopId)).commission.rateBps);
}
