import { PDFDocument } from "@pdfme/pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Db from "@/lib/db.server";
import type * as LabelsRun from "@/features/shipping/labels-run.server";
import type * as Mirror from "@/lib/orders/order-mirror.server";
import type * as Packing from "@/features/shipping/packing.server";
import type * as PickingData from "@/features/shipping/picking-data.server";
import type * as Sellers from "@/lib/shops/shops.server";
import { createMarketplaceClient } from "@marketplace/api/client";
import { ordersQuery } from "@marketplace/api/list-query";
import type { Order } from "@marketplace/api/schemas/order";
import { shipByOf, startOfNextDay } from "@/lib/orders/ship-by";
import { LabelsStreamReader } from "@/features/shipping/labels-wire";
import type { LabelsEvent } from "@/features/shipping/labels-wire";
import { labelJobsOf } from "@/features/shipping/picking-list";
import type { LabelJob } from "@/features/shipping/picking-list";
import { startTestSandbox } from "@marketplace/sandbox/testing";
import type { TestSandbox } from "@marketplace/sandbox/testing";
import { useTestDatabase } from "../support/database";
import { freeFixedPorts } from "../support/free-port";
import { pdfPageTexts } from "@marketplace/pdf-text";
import { connectTestShop } from "../support/shops";

// The shipping morning (issue 29) against a real database and the sandbox: packing stages stay
// within their shop and are audited; "to ship today" means what the ship-by says; and the labels
// of a selection are fetched from the sandbox (its /_assets/labels/:deliveryId PDFs) and merged
// in the picking list's order, a failing one reported while the rest still come.

interface Shop {
  sellerId: string;
  token: string;
  orders: Order[];
}

let sandbox: TestSandbox;
let a: Shop;
let b: Shop;
let db: typeof Db.db;
let packing: typeof Packing;
let pickingData: typeof PickingData;
let labelsRun: typeof LabelsRun;
let shops: typeof Sellers;

const personOf = (shop: Shop) => ({ id: `p_${shop.sellerId}`, name: `Pessoa ${shop.sellerId.slice(-4)}` });
const FIRST_PAGE = { sort: "ship_by:asc" as const, page: 1, size: 200 };

/** Every order of the shop, from the sandbox, mirrored as reconciliation mirrors them. */
async function mirrorAll(shop: { sellerId: string; token: string }, mirror: typeof Mirror): Promise<Order[]> {
  const client = createMarketplaceClient({ baseUrl: sandbox.url, accessToken: shop.token });
  const orders: Order[] = [];
  for (let offset = 0; ; offset += 50) {
    const page = await client.listOrders(ordersQuery({ limit: 50, offset }));
    orders.push(...page.items);
    if (!page.next || page.items.length === 0) break;
  }
  const summaries = orders.map((order) => ({ ...order, customer: { name: order.customer.name } }));
  await mirror.upsertMirrorOrders(shop.sellerId, summaries);
  return orders;
}

/** Orders the shipping page lists: approved, with a delivery still to post. */
const toShip = (orders: Order[]) => orders.filter((order) => order.status === "approved" && shipByOf(order) !== null);

async function createApprovedOrders(shop: string, count: number): Promise<void> {
  const created = await sandbox.api("/_sandbox/orders", { method: "POST", json: { seller: shop, count } });
  const { orders } = (await created.json()) as { orders: { id: string }[] };
  for (const order of orders) await sandbox.api(`/_sandbox/orders/${order.id}/status`, { method: "POST", json: { status: "approved" } });
}

beforeAll(async () => {
  await useTestDatabase();
  // The seeded label addresses name the sandbox's public origin: make it the one it listens on.
  const [port] = await freeFixedPorts(1);
  sandbox = await startTestSandbox({ config: { port, publicUrl: `http://localhost:${port}`, seedOrders: 40 } });
  process.env.MARKETPLACE_BASE_URL = sandbox.url;
  const mirror = await import("@/lib/orders/order-mirror.server");
  ({ db } = await import("@/lib/db.server"));
  packing = await import("@/features/shipping/packing.server");
  pickingData = await import("@/features/shipping/picking-data.server");
  labelsRun = await import("@/features/shipping/labels-run.server");
  shops = await import("@/lib/shops/shops.server");
  await createApprovedOrders("seller@example.com", 6);
  await createApprovedOrders("seller2@example.com", 3);
  const shopA = await connectTestShop({ sandboxUrl: sandbox.url });
  const shopB = await connectTestShop({ sandboxUrl: sandbox.url, login: "seller2@example.com", name: "Loja Dois" });
  a = { ...shopA, orders: await mirrorAll(shopA, mirror) };
  b = { ...shopB, orders: await mirrorAll(shopB, mirror) };
}, 60_000);

afterAll(async () => {
  await sandbox?.close();
});

describe("orders to ship", () => {
  it("are the shop's approved orders with a delivery still to post, earliest ship-by first", async () => {
    const expected = toShip(a.orders)
      .map((order) => ({ id: order.id, shipBy: new Date(shipByOf(order)!).toISOString() }))
      .sort((x, y) => x.shipBy.localeCompare(y.shipBy) || x.id.localeCompare(y.id));
    expect(expected.length).toBeGreaterThan(6);
    const page = await packing.listShippingOrders({ id: a.sellerId, timeZone: "America/Sao_Paulo" }, FIRST_PAGE);
    expect(page.rows.map((row) => ({ id: row.id, shipBy: row.shipBy }))).toEqual(expected);
    expect(page.total).toBe(expected.length);
    expect(page.rows.every((row) => row.stage === "to_pick" && row.stageAt === null)).toBe(true);
  });

  it("by today means by the end of the shop's day, late ones included; late means past already", async () => {
    const now = new Date();
    const timeZone = "America/Sao_Paulo";
    const endOfDay = startOfNextDay(now, timeZone).getTime();
    const due = (before: number) =>
      toShip(a.orders)
        .filter((order) => Date.parse(shipByOf(order)!) < before)
        .map((order) => order.id)
        .sort();
    const today = await packing.shippingOrderIds({ id: a.sellerId, timeZone }, { due: "today" }, 500, now);
    const late = await packing.shippingOrderIds({ id: a.sellerId, timeZone }, { due: "late" }, 500, now);
    expect([...today.ids].sort()).toEqual(due(endOfDay));
    expect([...late.ids].sort()).toEqual(due(now.getTime()));
    expect(late.ids.length).toBeGreaterThan(0);
    expect(today.total).toBe(today.ids.length);
  });
});

describe("packing stages", () => {
  it("are set for a selection, filter the list, and are recorded once in the audit log", async () => {
    const shop = { id: a.sellerId, timeZone: "America/Sao_Paulo" };
    const rows = (await packing.listShippingOrders(shop, FIRST_PAGE)).rows;
    const chosen = [rows[1]!.id, rows[0]!.id];
    const change = await packing.setPackingStage(shop, personOf(a), chosen, "picked");
    expect(change).toEqual({ set: [...chosen].sort(), unknown: [] });

    const picked = await packing.listShippingOrders(shop, { ...FIRST_PAGE, stage: ["picked"] });
    expect(picked.rows.map((row) => row.id).sort()).toEqual([...chosen].sort());
    expect(picked.rows.every((row) => row.stageAt !== null)).toBe(true);
    const toPick = await packing.listShippingOrders(shop, { ...FIRST_PAGE, stage: ["to_pick"] });
    expect(toPick.total).toBe(rows.length - 2);

    await packing.setPackingStage(shop, personOf(a), [rows[0]!.id], "packed");
    expect([...(await packing.packingStagesOf(a.sellerId, [rows[0]!.id, rows[1]!.id, rows[2]!.id])).entries()]).toEqual([
      [rows[0]!.id, "packed"],
      [rows[1]!.id, "picked"],
      [rows[2]!.id, "to_pick"],
    ]);

    const entries = await db.auditEntry.findMany({ where: { shopId: a.sellerId, action: "order.packing" }, orderBy: { id: "asc" } });
    expect(entries.map(({ kind, subject, personId, after }) => ({ kind, subject, personId, after }))).toEqual([
      { kind: "order", subject: null, personId: personOf(a).id, after: { stage: "picked", orderIds: [...chosen].sort() } },
      { kind: "order", subject: rows[0]!.id, personId: personOf(a).id, after: { stage: "packed", orderIds: [rows[0]!.id] } },
    ]);
  });

  it("of one shop never touch another's orders, whatever ids it sends", async () => {
    const theirs = toShip(a.orders)
      .slice(-3)
      .map((order) => order.id);
    const before = await db.orderPacking.findMany({
      where: { shopId: a.sellerId, orderId: { in: theirs } },
      orderBy: { orderId: "asc" },
    });
    const auditBefore = await db.auditEntry.count({ where: { shopId: b.sellerId } });

    expect(await packing.setPackingStage({ id: b.sellerId }, personOf(b), theirs, "packed")).toEqual({
      set: [],
      unknown: [...theirs].sort(),
    });
    expect(await db.auditEntry.count({ where: { shopId: b.sellerId } })).toBe(auditBefore);

    const own = toShip(b.orders)[0]!.id;
    const mixed = await packing.setPackingStage({ id: b.sellerId }, personOf(b), [own, ...theirs], "packed");
    expect(mixed).toEqual({ set: [own], unknown: [...theirs].sort() });
    expect(await db.orderPacking.findMany({ where: { shopId: a.sellerId, orderId: { in: theirs } }, orderBy: { orderId: "asc" } })).toEqual(
      before,
    );
    expect(await db.orderPacking.count({ where: { shopId: b.sellerId, orderId: { in: theirs } } })).toBe(0);
    expect((await db.orderPacking.findUniqueOrThrow({ where: { shopId_orderId: { shopId: b.sellerId, orderId: own } } })).stage).toBe(
      "packed",
    );
  });

  it("a selection of ids the platform does not give this shop yields a picking list of nothing", async () => {
    const shop = (await shops.findCurrentShop(b.sellerId))!;
    const foreign = toShip(a.orders)[0]!.id;
    const loaded = await pickingData.loadPickingList(shop, { ids: [foreign] }, { seesCustomers: true });
    expect(loaded.ok && loaded.data.list).toMatchObject({ orders: [], skus: [], skipped: [{ id: foreign, reason: "not_found" }] });
  });
});

/** Runs the labels of `jobs` as the route handler does, and reads the stream as the browser does. */
async function runLabels(jobs: readonly LabelJob[], limits: { timeoutMs?: number } = {}) {
  const errors: unknown[] = [];
  const stream = labelsRun.labelsRunStream({
    jobs,
    skipped: [],
    truncated: false,
    fetcher: { platformBaseUrl: sandbox.url, accessToken: a.token, limits },
    title: "Etiquetas",
    failureMessage: "failed",
    tooLargeMessage: "too large",
    onError: (error) => errors.push(error),
  });
  const reader = new LabelsStreamReader();
  const events: LabelsEvent[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) events.push(...reader.push(chunk));
  expect(errors).toEqual([]);
  return { events, pdf: reader.pdf() };
}

describe("the labels PDF", () => {
  it("holds every parcel's label in the picking list's order; a failing label is reported and the rest still come", async () => {
    const shop = (await shops.findCurrentShop(a.sellerId))!;
    const loaded = await pickingData.loadPickingList(shop, { all: {} }, { seesCustomers: true });
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.problem));
    const jobs = labelJobsOf(loaded.data.list).slice(0, 10);
    expect(jobs.length).toBe(10);
    const failing = jobs[3]!;
    await sandbox.api("/_sandbox/faults", { method: "POST", json: { failLabels: [failing.deliveryId] } });
    try {
      const { events, pdf } = await runLabels(jobs);
      expect(events[0]).toEqual({ type: "start", total: 10, skipped: [], truncated: false });
      expect(events.filter((event) => event.type === "progress").map((event) => event.type === "progress" && event.done)).toEqual([
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
      ]);
      const done = events.at(-1)!;
      expect(done).toMatchObject({
        type: "done",
        total: 10,
        pages: 9,
        failed: [
          {
            orderId: failing.orderId,
            deliveryId: failing.deliveryId,
            trackingNumber: failing.trackingNumber,
            reason: "http_error",
            status: 503,
          },
        ],
      });
      const document = await PDFDocument.load(pdf!);
      expect(document.getPageCount()).toBe(9);
      const texts = await pdfPageTexts(pdf!);
      const expected = jobs.filter((job) => job !== failing).map((job) => job.trackingNumber);
      expect(texts.map((text, index) => text.includes(expected[index]!))).toEqual(expected.map(() => true));
    } finally {
      await sandbox.api("/_sandbox/faults", { method: "DELETE" });
    }
  });

  it("gives up on a label the sandbox is too slow to send", async () => {
    const shop = (await shops.findCurrentShop(a.sellerId))!;
    const loaded = await pickingData.loadPickingList(shop, { all: {} }, { seesCustomers: true });
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.problem));
    const jobs = labelJobsOf(loaded.data.list).slice(0, 2);
    await sandbox.api("/_sandbox/faults", { method: "POST", json: { labelLatencyMs: 2_000 } });
    try {
      const { events, pdf } = await runLabels(jobs, { timeoutMs: 300 });
      expect(events.at(-1)).toMatchObject({
        type: "done",
        pages: 0,
        pdfBytes: 0,
        failed: jobs.map((job) => ({ deliveryId: job.deliveryId, reason: "timeout" })),
      });
      expect(pdf).toBeNull();
    } finally {
      await sandbox.api("/_sandbox/faults", { method: "DELETE" });
    }
  });
});
