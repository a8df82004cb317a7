import "server-only";
import { currentCosts, pricingSettings } from "@/features/prices";
import { withMargins } from "@/features/sales/best-products";
import type { ProductSales, ProductSold } from "@/features/sales/best-products";
import type { Period } from "@/features/sales/periods";
import { pool } from "@/lib/pg-pool.server";

/** Every SKU code the shop sold in the period (orders not cancelled), with its margin when its cost is known. */
export async function productSales(shopId: string, period: Pick<Period, "from" | "to">): Promise<ProductSales[]> {
  const { rows } = await pool.query<{ sku: string; name: string; units: number; revenue: string; withoutRevenue: number }>({
    name: "sales_products",
    text: `
      SELECT i."sku", (array_agg(i."name" ORDER BY m."createdAt" DESC))[1] AS "name", sum(i."quantity")::int AS "units",
             coalesce(sum(i."revenue"), 0)::text AS "revenue", count(*) FILTER (WHERE i."revenue" IS NULL)::int AS "withoutRevenue"
      FROM "OrderMirror" m CROSS JOIN LATERAL jsonb_to_recordset(m."items") AS i("sku" text, "name" text, "quantity" int, "revenue" bigint)
      WHERE m."sellerId" = $1 AND m."createdAt" >= ($2::timestamptz AT TIME ZONE 'UTC') AND m."createdAt" < ($3::timestamptz AT TIME ZONE 'UTC')
        AND m."status" <> 'cancelled'
      GROUP BY i."sku"`,
    values: [shopId, period.from.toISOString(), period.to.toISOString()],
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
