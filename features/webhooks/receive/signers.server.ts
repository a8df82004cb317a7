import "server-only";
import { DB_NOW, pool } from "@/lib/pg-pool.server";
import type { WebhookFields } from "@/features/webhooks/parse";

// Prepared `pg` statements: on the receiver's path Prisma's per-query CPU would make a mis-signed
// body dearer than a valid one.

const OWNERS = {
  name: "webhook_owners_of_named",
  text: `
    SELECT "sellerId" FROM "OrderMirror" WHERE $1::text IS NOT NULL AND "orderId" = $1
    UNION
    SELECT "sellerId" FROM "Sku" WHERE ($2::text IS NOT NULL AND "id" = $2) OR ($2::text IS NULL AND $3::text IS NOT NULL AND "code" = $3)
    LIMIT 16`,
};

/** A SKU is looked up by code only when the body gives no id: codes are the seller's, not unique. */
export async function ownersOfNamedResource(fields: WebhookFields): Promise<string[]> {
  const isSku = fields.domain === "portfolio.sku";
  const orderId = fields.orderId;
  const skuId = isSku ? fields.resourceId : null;
  const skuCode = isSku ? fields.code : null;
  if (!orderId && !skuId && !skuCode) return [];
  const result = await pool.query<{ sellerId: string }>({ ...OWNERS, values: [orderId, skuId, skuCode] });
  return result.rows.map((row) => row.sellerId);
}

const COUNT_MIS_SIGNED = {
  name: "webhook_count_mis_signed_foreign",
  text: `UPDATE "Connection" SET "misSignedForeignCount" = "misSignedForeignCount" + 1, "misSignedForeignAt" = ${DB_NOW} WHERE "sellerId" = $1`,
};

export async function countMisSignedForeign(shopId: string): Promise<void> {
  await pool.query({ ...COUNT_MIS_SIGNED, values: [shopId] });
}

const RECENTLY_CONNECTED = {
  name: "webhook_recently_connected",
  text: `SELECT "sellerId" FROM "Connection" WHERE "needsReconnectAt" IS NULL ORDER BY "connectedAt" DESC LIMIT $1`,
};

let recentlyConnected: { sellers: string[]; limit: number; expiresAt: number } | null = null;

/** Kept 30 s; where a search looks last, since a shop that just connected has no history yet. */
export async function recentlyConnectedShops(limit: number): Promise<string[]> {
  if (limit === 0) return [];
  if (recentlyConnected && recentlyConnected.limit === limit && recentlyConnected.expiresAt > Date.now()) return recentlyConnected.sellers;
  const result = await pool.query<{ sellerId: string }>({ ...RECENTLY_CONNECTED, values: [limit] });
  recentlyConnected = { sellers: result.rows.map((row) => row.sellerId), limit, expiresAt: Date.now() + 30_000 };
  return recentlyConnected.sellers;
}

export function forgetRecentlyConnected(): void {
  recentlyConnected = null;
}
