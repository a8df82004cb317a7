import "server-only";
import { shippingOrderIds } from "@/lib/data/packing";
import { ordersByIds } from "@/lib/data/orders";
import type { PlatformResult } from "@/lib/data/platform";
import { productNamesFor } from "@/lib/data/product-names";
import type { CurrentSeller } from "@/lib/data/sellers";
import { buildPickingList } from "@/lib/shipping/picking-list";
import type { PickingList } from "@/lib/shipping/picking-list";
import { MAX_SELECTION_ORDERS } from "@/lib/shipping/shipping-params";
import type { ShippingSelection } from "@/lib/shipping/shipping-params";

// A selection of the shipping table, turned into the orders it means and their picking list:
// the mirror says which orders (for "every order of the filter"), the platform says what they
// are now (endpoint 9 by ids, many per request), and the shop's product names name their SKUs.

export interface SelectedIds {
  ids: string[];
  /** "Every order of the filter" matched more than MAX_SELECTION_ORDERS: the first ones by ship-by were taken. */
  truncated: boolean;
}

/** The order ids a selection means now. Ids given one by one are taken as they are: the platform only answers the shop's own. */
export async function selectedOrderIds(shop: Pick<CurrentSeller, "id" | "timeZone">, selection: ShippingSelection, now = new Date()): Promise<SelectedIds> {
  if ("ids" in selection) return { ids: selection.ids, truncated: false };
  const { ids, total } = await shippingOrderIds(shop, selection.all, MAX_SELECTION_ORDERS, now);
  return { ids, truncated: total > ids.length };
}

export interface LoadedPickingList {
  list: PickingList;
  truncated: boolean;
}

/** The picking list of a selection, from the orders as the platform has them now. */
export async function loadPickingList(seller: CurrentSeller, selection: ShippingSelection): Promise<PlatformResult<LoadedPickingList>> {
  const { ids, truncated } = await selectedOrderIds(seller, selection);
  const orders = await ordersByIds(seller, ids);
  if (!orders.ok) return orders;
  const codes = orders.data.flatMap((order) => order.deliveries.flatMap((delivery) => delivery.items.map((item) => item.info.sku)));
  const productNames = await productNamesFor(seller.id, codes);
  return { ok: true, data: { list: buildPickingList(orders.data, { requestedIds: ids, productNames }), truncated } };
}
