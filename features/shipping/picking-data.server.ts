import "server-only";
import { shippingOrderIds } from "@/features/shipping/packing.server";
import { ordersByIds, withoutCustomerData } from "@/features/orders";
import { readReferences } from "@/lib/orders/order-references.server";
import type { PlatformResult } from "@/lib/platform/platform.server";
import { productNamesFor } from "@/lib/catalogue/product-names.server";
import type { CurrentShop } from "@/lib/shops/shops.server";
import { buildPickingList } from "@/features/shipping/picking-list";
import type { PickingList } from "@/features/shipping/picking-list";
import { MAX_SELECTION_ORDERS } from "@/features/shipping/shipping-params";
import type { ShippingSelection } from "@/features/shipping/shipping-params";

// The mirror says which orders a filter means; the platform says what they are now.

export interface SelectedIds {
  ids: string[];
  /** More than MAX_SELECTION_ORDERS matched: the earliest by ship-by were taken. */
  truncated: boolean;
}

/** Ids given one by one are taken as they are: the platform only answers the shop's own. */
export async function selectedOrderIds(
  shop: Pick<CurrentShop, "id" | "timeZone">,
  selection: ShippingSelection,
  now = new Date(),
): Promise<SelectedIds> {
  if ("ids" in selection) return { ids: selection.ids, truncated: false };
  const { ids, total } = await shippingOrderIds(shop, selection.all, MAX_SELECTION_ORDERS, now);
  return { ids, truncated: total > ids.length };
}

export interface LoadedPickingList {
  list: PickingList;
  truncated: boolean;
}

/** `seesCustomers`: whether the person's role sees buyers' names (decision 0010); the list leaves them out otherwise. */
export async function loadPickingList(
  shop: CurrentShop,
  selection: ShippingSelection,
  { seesCustomers }: { seesCustomers: boolean },
): Promise<PlatformResult<LoadedPickingList>> {
  const { ids, truncated } = await selectedOrderIds(shop, selection);
  const found = await ordersByIds(shop, ids);
  if (!found.ok) return found;
  const orders = seesCustomers ? found.data : found.data.map(withoutCustomerData);
  const codes = orders.flatMap((order) => order.deliveries.flatMap((delivery) => delivery.items.map((item) => item.info.sku)));
  const [productNames, references] = await Promise.all([
    productNamesFor(shop.id, codes),
    readReferences(
      shop.id,
      orders.map((order) => order.id),
    ),
  ]);
  return { ok: true, data: { list: buildPickingList(orders, { requestedIds: ids, productNames, references }), truncated } };
}
