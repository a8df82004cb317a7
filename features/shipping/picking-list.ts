// Pure: the page, its PDF and the labels all build it here, so they share one order.
import type { Order } from "@marketplace/api/schemas/order";
import { safeWebUrl } from "@marketplace/api/schemas/common";
import { shipByOf } from "@/lib/orders/ship-by";

/** The same rule as lib/orders/ship-by.ts. */
const OPEN_DELIVERY_STATUSES: ReadonlySet<string> = new Set(["created", "received"]);

export interface PickingItem {
  sku: string;
  name: string;
  quantity: number;
}

export interface PickingParcel {
  deliveryId: string;
  trackingNumber: string;
  labelUrl: string;
  shipBy: string;
  items: PickingItem[];
}

export interface PickingOrder {
  id: string;
  /** The short reference (decision 0018). */
  reference: number | null;
  /** Empty for a role that does not see customers. */
  customerName: string;
  shipBy: string;
  parcels: PickingParcel[];
  units: number;
}

export interface PickingSku {
  sku: string;
  name: string;
  picture: string | null;
  quantity: number;
  /** In the list's order of orders. */
  orders: { orderId: string; reference: number | null; quantity: number }[];
}

export interface SkippedOrder {
  id: string;
  reference: number | null;
  reason: "not_found" | "not_approved" | "nothing_to_ship";
  /** For not_approved. */
  status?: string;
}

export interface PickingList {
  skus: PickingSku[];
  orders: PickingOrder[];
  skipped: SkippedOrder[];
  totals: { orders: number; parcels: number; units: number; skus: number };
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Requested ids the platform did not return are skipped; `productNames` win over an item's own
 * (decision 0009); `references` are the orders' short references (decision 0018).
 */
export function buildPickingList(
  orders: readonly Order[],
  options: {
    requestedIds?: readonly string[];
    productNames?: ReadonlyMap<string, string>;
    references?: ReadonlyMap<string, number>;
  } = {},
): PickingList {
  const names = options.productNames ?? new Map<string, string>();
  const referenceOf = (id: string) => options.references?.get(id) ?? null;
  const skipped: SkippedOrder[] = [];
  const returned = new Set(orders.map((order) => order.id));
  for (const id of options.requestedIds ?? []) if (!returned.has(id)) skipped.push({ id, reference: referenceOf(id), reason: "not_found" });

  const picked: PickingOrder[] = [];
  const seen = new Set<string>();
  for (const order of orders) {
    if (seen.has(order.id)) continue;
    seen.add(order.id);
    if (order.status !== "approved") {
      skipped.push({ id: order.id, reference: referenceOf(order.id), reason: "not_approved", status: order.status });
      continue;
    }
    const shipBy = shipByOf(order);
    const open = order.deliveries.filter((delivery) => OPEN_DELIVERY_STATUSES.has(delivery.status));
    if (shipBy === null || open.length === 0) {
      skipped.push({ id: order.id, reference: referenceOf(order.id), reason: "nothing_to_ship" });
      continue;
    }
    const parcels = open.map((delivery) => ({
      deliveryId: delivery.id,
      trackingNumber: delivery.shipping.tracking.number,
      labelUrl: delivery.shipping.labels.url,
      shipBy: delivery.shipping.handling_time.limit_date,
      items: delivery.items.map((item) => ({ sku: item.info.sku, name: nameOf(item.info, names), quantity: item.quantity })),
    }));
    picked.push({
      id: order.id,
      reference: referenceOf(order.id),
      customerName: order.customer.name,
      shipBy,
      parcels,
      units: parcels.reduce((sum, parcel) => sum + parcel.items.reduce((n, item) => n + item.quantity, 0), 0),
    });
  }
  picked.sort((a, b) => Date.parse(a.shipBy) - Date.parse(b.shipBy) || byText(a.id, b.id));

  // In the list's order, so each SKU's breakdown reads like the list and its picture is stable.
  const byId = new Map(orders.map((order) => [order.id, order]));
  const skus = new Map<string, PickingSku>();
  for (const order of picked) {
    const pictures = picturesOf(byId.get(order.id)!);
    for (const parcel of order.parcels) {
      for (const item of parcel.items) {
        const entry = skus.get(item.sku) ?? { sku: item.sku, name: item.name, picture: null, quantity: 0, orders: [] };
        entry.picture ??= pictures.get(item.sku) ?? null;
        entry.quantity += item.quantity;
        const line = entry.orders.find((candidate) => candidate.orderId === order.id);
        if (line) line.quantity += item.quantity;
        else entry.orders.push({ orderId: order.id, reference: order.reference, quantity: item.quantity });
        skus.set(item.sku, entry);
      }
    }
  }
  const skuList = [...skus.values()].sort((a, b) => byText(a.sku, b.sku));

  return {
    skus: skuList,
    orders: picked,
    skipped,
    totals: {
      orders: picked.length,
      parcels: picked.reduce((sum, order) => sum + order.parcels.length, 0),
      units: skuList.reduce((sum, sku) => sum + sku.quantity, 0),
      skus: skuList.length,
    },
  };
}

function picturesOf(order: Order): Map<string, string> {
  const pictures = new Map<string, string>();
  for (const delivery of order.deliveries) {
    for (const item of delivery.items) {
      if (pictures.has(item.info.sku)) continue;
      const picture = item.info.images.map(safeWebUrl).find((url) => url !== null);
      if (picture) pictures.set(item.info.sku, picture);
    }
  }
  return pictures;
}

function nameOf(info: { sku: string; name: string }, names: ReadonlyMap<string, string>): string {
  return names.get(info.sku) ?? (info.name.trim() || info.sku);
}

export interface LabelJob {
  orderId: string;
  orderReference: number | null;
  deliveryId: string;
  trackingNumber: string;
  url: string;
}

/** One per parcel, in the order the list prints them. */
export function labelJobsOf(list: PickingList): LabelJob[] {
  return list.orders.flatMap((order) =>
    order.parcels.map((parcel) => ({
      orderId: order.id,
      orderReference: order.reference,
      deliveryId: parcel.deliveryId,
      trackingNumber: parcel.trackingNumber,
      url: parcel.labelUrl,
    })),
  );
}
