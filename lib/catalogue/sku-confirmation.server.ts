import "server-only";
import { db } from "@/lib/db.server";

// The local catalogue (the platform cannot list SKUs: spec, Endpoints 4–7) is written by the SKU
// form when a SKU is imported (features/skus) and confirmed here when the platform's portfolio.sku
// notification says it was created (features/webhooks).

/** False for an id we did not create: it is left alone. */
export async function confirmSku(shopId: string, id: string, at = new Date()): Promise<boolean> {
  const { count } = await db.sku.updateMany({ where: { id, shopId }, data: { status: "created", confirmedAt: at } });
  return count > 0;
}
