import "server-only";
import { pool } from "@/lib/pg-pool.server";
import { COST_CURRENCY, COST_NORMALIZER } from "@/features/prices/margin";

// The prices the guard would hold today: a sell price below its product's cost, the guard's
// "below cost" rule (./price-guard.ts) applied to what is live rather than to a proposed change. Read
// from the price mirror, which holds every price the platform told of and, since its back-fill, every
// price listed when the shop was connected; a cost is the newest row of its code. The morning
// digest counts them (issue 41), and the shops page will (issue 42).

export async function countPricesBelowCost(shopIds: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>(shopIds.map((id) => [id, 0]));
  if (shopIds.length === 0) return counts;
  const result = await pool.query<{ shopId: string; below: number }>({
    name: "prices_below_cost",
    text: `
      WITH price AS (
        SELECT DISTINCT ON ("sellerId", "sku") "sellerId", "sku", "value", "currency", "normalizer"
        FROM "PriceMirror" WHERE "sellerId" = ANY($1::text[]) AND "type" = 'sell'
        ORDER BY "sellerId", "sku", "syncedAt" DESC, "priceId" DESC
      ), cost AS (
        SELECT DISTINCT ON ("sellerId", "sku") "sellerId", "sku", "cost"
        FROM "ProductCost" WHERE "sellerId" = ANY($1::text[])
        ORDER BY "sellerId", "sku", "setAt" DESC, "id" DESC
      )
      SELECT price."sellerId" AS "shopId", count(*)::int AS below
      FROM price JOIN cost USING ("sellerId", "sku")
      WHERE cost."cost" IS NOT NULL AND price."currency" = $2
        AND price."value"::bigint * $3 < cost."cost"::bigint * price."normalizer"
      GROUP BY price."sellerId"`,
    values: [shopIds, COST_CURRENCY, COST_NORMALIZER],
  });
  for (const row of result.rows) counts.set(row.shopId, row.below);
  return counts;
}
