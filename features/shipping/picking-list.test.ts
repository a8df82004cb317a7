import { describe, expect, it } from "vitest";
import { orderSchema } from "@marketplace/api/schemas/order";
import type { Order } from "@marketplace/api/schemas/order";
import { order as specOrder } from "@marketplace/api/spec-examples";
import { buildPickingList, labelJobsOf } from "./picking-list";

interface ItemSpec {
  sku: string;
  name?: string;
  quantity: number;
  images?: string[];
}
interface DeliverySpec {
  id: string;
  status?: string;
  limit: string;
  tracking?: string;
  items: ItemSpec[];
}

const oid = (n: number) => n.toString(16).padStart(24, "0");

/** The spec's example order, with these deliveries and items. */
function orderOf(id: string, deliveries: DeliverySpec[], overrides: { status?: string; customer?: string } = {}): Order {
  const [delivery] = specOrder.deliveries;
  const [item] = delivery!.items;
  return orderSchema.parse({
    ...specOrder,
    id,
    status: overrides.status ?? "approved",
    customer: { ...specOrder.customer, name: overrides.customer ?? `Cliente ${id.slice(-2)}` },
    deliveries: deliveries.map((spec) => ({
      ...delivery,
      id: spec.id,
      status: spec.status ?? "created",
      items: spec.items.map((line, index) => ({
        ...item,
        sequencial: index + 1,
        info: { ...item!.info, sku: line.sku, name: line.name ?? `Produto ${line.sku}`, images: line.images ?? [] },
        quantity: line.quantity,
      })),
      shipping: {
        ...delivery!.shipping,
        labels: { ...delivery!.shipping.labels, url: `https://labels.example/${spec.id}.pdf` },
        tracking: { ...delivery!.shipping.tracking, number: spec.tracking ?? `AA${spec.id.slice(-9)}BR` },
        handling_time: { ...delivery!.shipping.handling_time, limit_date: spec.limit },
      },
    })),
  });
}

const MORNING = "2026-11-26T15:00:00.000Z";
const NOON = "2026-11-26T18:00:00.000Z";
const YESTERDAY = "2026-11-25T18:00:00.000Z";

describe("the picking list", () => {
  const late = orderOf(oid(0x30), [
    {
      id: oid(0x301),
      limit: YESTERDAY,
      items: [{ sku: "CAM-M", quantity: 1, images: ["javascript:alert(1)", "https://img.example/cam.png"] }],
    },
  ]);
  const noonA = orderOf(oid(0x20), [
    {
      id: oid(0x201),
      limit: NOON,
      items: [
        { sku: "CAM-M", quantity: 2 },
        { sku: "BON-1", quantity: 1 },
      ],
    },
    { id: oid(0x202), limit: MORNING, items: [{ sku: "CAM-M", quantity: 3 }] },
  ]);
  const noonB = orderOf(oid(0x10), [
    { id: oid(0x101), limit: MORNING, items: [{ sku: "ZIP-9", quantity: 4, images: ["https://img.example/zip.png"] }] },
  ]);

  it("totals each SKU over every order and parcel, with each order's share", () => {
    const list = buildPickingList([late, noonA, noonB]);
    expect(list.skus.map(({ sku, quantity }) => [sku, quantity])).toEqual([
      ["BON-1", 1],
      ["CAM-M", 6],
      ["ZIP-9", 4],
    ]);
    const cam = list.skus.find((sku) => sku.sku === "CAM-M")!;
    // In the list's order of orders: the late one first, then by ship-by and id.
    expect(cam.orders).toEqual([
      { orderId: late.id, reference: null, quantity: 1 },
      { orderId: noonA.id, reference: null, quantity: 5 },
    ]);
    expect(list.totals).toEqual({ orders: 3, parcels: 4, units: 11, skus: 3 });
    // The sum of the SKU totals is the sum of every parcel's items.
    const parcelUnits = list.orders.flatMap((order) => order.parcels.flatMap((parcel) => parcel.items.map((item) => item.quantity)));
    expect(parcelUnits.reduce((a, b) => a + b, 0)).toBe(list.totals.units);
  });

  it("orders by ship-by (the earliest open delivery), then id, whatever order the platform answered in", () => {
    const forward = buildPickingList([late, noonA, noonB]);
    const backward = buildPickingList([noonB, noonA, late]);
    // noonA's earliest delivery is due in the morning, as noonB's: the id decides.
    expect(forward.orders.map((order) => order.id)).toEqual([late.id, noonB.id, noonA.id]);
    expect(backward).toEqual(forward);
    expect(forward.orders[2]!.parcels.map((parcel) => parcel.deliveryId)).toEqual([oid(0x201), oid(0x202)]);
  });

  it("names a SKU with the shop's name for its code first, then the item's own; pictures are web addresses only", () => {
    const list = buildPickingList([late, noonB], { productNames: new Map([["CAM-M", "Camiseta média (catálogo)"]]) });
    expect(list.skus.find((sku) => sku.sku === "CAM-M")).toMatchObject({
      name: "Camiseta média (catálogo)",
      picture: "https://img.example/cam.png",
    });
    expect(list.skus.find((sku) => sku.sku === "ZIP-9")).toMatchObject({ name: "Produto ZIP-9", picture: "https://img.example/zip.png" });
    expect(list.orders[0]!.parcels[0]!.items[0]!.name).toBe("Camiseta média (catálogo)");
  });

  it("leaves out posted deliveries, and reports orders it cannot pick and ids the platform did not return", () => {
    const partlyPosted = orderOf(oid(0x40), [
      { id: oid(0x401), status: "posted", limit: YESTERDAY, items: [{ sku: "CAM-M", quantity: 9 }] },
      { id: oid(0x402), status: "received", limit: NOON, items: [{ sku: "BON-1", quantity: 2 }] },
    ]);
    const allPosted = orderOf(oid(0x50), [{ id: oid(0x501), status: "posted", limit: NOON, items: [{ sku: "CAM-M", quantity: 1 }] }]);
    const cancelled = orderOf(oid(0x60), [{ id: oid(0x601), limit: NOON, items: [{ sku: "CAM-M", quantity: 1 }] }], {
      status: "cancelled",
    });
    const list = buildPickingList([partlyPosted, allPosted, cancelled], { requestedIds: [oid(0x40), oid(0x50), oid(0x60), oid(0x70)] });
    expect(list.orders.map((order) => [order.id, order.shipBy, order.parcels.map((parcel) => parcel.deliveryId)])).toEqual([
      [oid(0x40), NOON, [oid(0x402)]],
    ]);
    expect(list.skus).toEqual([
      { sku: "BON-1", name: "Produto BON-1", picture: null, quantity: 2, orders: [{ orderId: oid(0x40), reference: null, quantity: 2 }] },
    ]);
    expect(list.skipped).toEqual([
      { id: oid(0x70), reference: null, reason: "not_found" },
      { id: oid(0x50), reference: null, reason: "nothing_to_ship" },
      { id: oid(0x60), reference: null, reason: "not_approved", status: "cancelled" },
    ]);
  });

  it("names each order, share, label and skipped order by its short reference when it has one", () => {
    const references = new Map([
      [late.id, 1041],
      [noonA.id, 1042],
      [oid(0x70), 1070],
    ]);
    const list = buildPickingList([late, noonA], { requestedIds: [late.id, noonA.id, oid(0x70)], references });
    expect(list.orders.map((order) => order.reference)).toEqual([1041, 1042]);
    expect(list.skus.find((sku) => sku.sku === "CAM-M")!.orders.map((share) => share.reference)).toEqual([1041, 1042]);
    expect(labelJobsOf(list).map((job) => job.orderReference)).toEqual([1041, 1042, 1042]);
    expect(list.skipped).toEqual([{ id: oid(0x70), reference: 1070, reason: "not_found" }]);
  });

  it("gives one label per parcel, in the list's order", () => {
    const list = buildPickingList([noonA, late, noonB]);
    expect(labelJobsOf(list)).toEqual([
      {
        orderId: late.id,
        orderReference: null,
        deliveryId: oid(0x301),
        trackingNumber: `AA${oid(0x301).slice(-9)}BR`,
        url: `https://labels.example/${oid(0x301)}.pdf`,
      },
      {
        orderId: noonB.id,
        orderReference: null,
        deliveryId: oid(0x101),
        trackingNumber: `AA${oid(0x101).slice(-9)}BR`,
        url: `https://labels.example/${oid(0x101)}.pdf`,
      },
      {
        orderId: noonA.id,
        orderReference: null,
        deliveryId: oid(0x201),
        trackingNumber: `AA${oid(0x201).slice(-9)}BR`,
        url: `https://labels.example/${oid(0x201)}.pdf`,
      },
      {
        orderId: noonA.id,
        orderReference: null,
        deliveryId: oid(0x202),
        trackingNumber: `AA${oid(0x202).slice(-9)}BR`,
        url: `https://labels.example/${oid(0x202)}.pdf`,
      },
    ]);
  });

  it("is empty for no orders", () => {
    expect(buildPickingList([])).toEqual({ skus: [], orders: [], skipped: [], totals: { orders: 0, parcels: 0, units: 0, skus: 0 } });
  });
});
