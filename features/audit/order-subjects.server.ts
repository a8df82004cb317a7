import "server-only";
import { readReferences } from "@/lib/orders/order-references.server";
import { orderReference } from "@/lib/words/order-reference";

/**
 * An entry about one order names it by its short reference on the page (decision 0018); the
 * entry keeps the platform's id, which the export shows.
 */
export async function withOrderReferences<T extends { action: string; subject: string | null }>(shopId: string, rows: T[]): Promise<T[]> {
  const orderIds = rows.flatMap((row) => (row.action === "order.packing" && row.subject ? [row.subject] : []));
  if (orderIds.length === 0) return rows;
  const references = await readReferences(shopId, orderIds);
  return rows.map((row) => {
    const number = row.action === "order.packing" && row.subject ? references.get(row.subject) : undefined;
    return number === undefined ? row : { ...row, subject: orderReference(number) };
  });
}
