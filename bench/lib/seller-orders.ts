// What a benchmark asks the dashboard about a signed-in seller's orders, through its own API.
import { shopOf } from "./sign-in";

/** Ids of the seller's newest orders, as many as asked if there are that many, through `app`'s /api/s/{shop}/orders. */
export async function newestOrderIds(app: string, cookie: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  const shop = await shopOf(app, cookie);
  for (let page = 1; ids.length < count; page++) {
    const response = await fetch(`${app}/api/s/${shop}/orders?size=200&page=${page}`, { headers: { cookie } });
    const body = (await response.json()) as { rows?: { id: string }[]; hasNext?: boolean; error?: string };
    if (!response.ok || !body.rows) throw new Error(`/api/orders: HTTP ${response.status} ${body.error ?? ""}`);
    ids.push(...body.rows.map((row) => row.id));
    if (!body.hasNext) break;
  }
  if (ids.length === 0) throw new Error("The seller has no orders to open");
  return ids;
}
