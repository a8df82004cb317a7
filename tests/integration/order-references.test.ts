import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Mirror from "@/lib/orders/order-mirror.server";
import type * as References from "@/lib/orders/order-references.server";
import type * as Orders from "@/features/orders/orders.server";
import type * as Packing from "@/features/shipping/packing.server";
import type * as Sellers from "@/lib/shops/shops.server";
import { ordersSchema } from "@/features/orders/order-filters";
import { createMarketplaceClient } from "@marketplace/api/client";
import { ordersQuery } from "@marketplace/api/list-query";
import type { Order } from "@marketplace/api/schemas/order";
import { startTestSandbox } from "@marketplace/sandbox/testing";
import type { TestSandbox } from "@marketplace/sandbox/testing";
import { useTestDatabase } from "../support/database";
import { freeFixedPorts } from "../support/free-port";
import { connectTestShop } from "../support/shops";

// Short order references (decision 0018) against a real database and the sandbox: every mirrored
// order gets one, oldest first, once; two writers never give one number twice; a seller finds an
// order by it; and a role that does not see customers gets rows without their names (decision 0010).

let sandbox: TestSandbox;
let mirror: typeof Mirror;
let references: typeof References;
let orders: typeof Orders;
let packing: typeof Packing;
let shops: typeof Sellers;
let shopId: string;
let all: Order[];

const filters = (query: string) => ordersSchema.parse(new URLSearchParams(query)).data!;

beforeAll(async () => {
  await useTestDatabase();
  const [port] = await freeFixedPorts(1);
  sandbox = await startTestSandbox({ config: { port, publicUrl: `http://localhost:${port}`, seedOrders: 30 } });
  process.env.MARKETPLACE_BASE_URL = sandbox.url;
  mirror = await import("@/lib/orders/order-mirror.server");
  references = await import("@/lib/orders/order-references.server");
  orders = await import("@/features/orders/orders.server");
  packing = await import("@/features/shipping/packing.server");
  shops = await import("@/lib/shops/shops.server");
  const shop = await connectTestShop({ sandboxUrl: sandbox.url });
  shopId = shop.sellerId;
  const client = createMarketplaceClient({ baseUrl: sandbox.url, accessToken: shop.token });
  all = (await client.listOrders(ordersQuery({ limit: 100 }))).items;
}, 60_000);

afterAll(async () => {
  await sandbox?.close();
});

describe("short order references", () => {
  it("are given to every mirrored order from 1001, oldest first, and never change", async () => {
    // The platform's newest-first page, mirrored as one batch.
    await mirror.upsertMirrorOrders(shopId, all);
    const given = await references.readReferences(
      shopId,
      all.map((order) => order.id),
    );
    const oldestFirst = [...all].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || (a.id < b.id ? -1 : 1));
    expect(oldestFirst.map((order) => given.get(order.id))).toEqual(oldestFirst.map((_, index) => 1001 + index));

    await mirror.upsertMirrorOrders(shopId, all.slice(0, 5));
    expect(
      await references.readReferences(
        shopId,
        all.map((order) => order.id),
      ),
    ).toEqual(given);
  });

  it("never give one number twice when several writers see the same new orders at once", async () => {
    const other = await shops.connectShop({ email: "refs@example.com", name: "Loja Refs", accessToken: "t-refs", scopesRequested: "" });
    const seen = all.slice(0, 12);
    // Four writers (two instances' processing, reconciliation) mirror overlapping batches at once.
    await Promise.all(
      [seen, seen.slice(3), seen.slice(0, 8), [...seen].reverse()].map((batch) => mirror.upsertMirrorOrders(other.id, batch)),
    );
    const final = await references.readReferences(
      other.id,
      seen.map((order) => order.id),
    );
    expect(final.size).toBe(12);
    expect(new Set(final.values()).size).toBe(12);
  });

  it("are given to several shops' orders written in one batch, each shop from its own counter", async () => {
    const a = await shops.connectShop({ email: "refs-a@example.com", name: "Loja A", accessToken: "t-refs-a", scopesRequested: "" });
    const b = await shops.connectShop({ email: "refs-b@example.com", name: "Loja B", accessToken: "t-refs-b", scopesRequested: "" });
    await mirror.upsertShopsMirrorOrders([
      { sellerId: b.id, orders: all.slice(0, 3) },
      { sellerId: a.id, orders: all.slice(3, 8) },
    ]);
    const numbers = async (shopId: string, batch: Order[]) => {
      const given = await references.readReferences(
        shopId,
        batch.map((order) => order.id),
      );
      return [...batch]
        .sort((x, y) => Date.parse(x.created_at) - Date.parse(y.created_at) || (x.id < y.id ? -1 : 1))
        .map((order) => given.get(order.id));
    };
    expect(await numbers(a.id, all.slice(3, 8))).toEqual([1001, 1002, 1003, 1004, 1005]);
    expect(await numbers(b.id, all.slice(0, 3))).toEqual([1001, 1002, 1003]);
  });

  it("are given when a batch names one shop in several parts whose orders sell the same products, or one order twice", async () => {
    // Processing lists a batch's orders in chunks: a write with one shop twice, both selling a code,
    // failed whole ("ON CONFLICT DO UPDATE command cannot affect row a second time") and every event
    // of the batch waited for its retry.
    const parts = await shops.connectShop({
      email: "refs-parts@example.com",
      name: "Loja Partes",
      accessToken: "t-refs-parts",
      scopesRequested: "",
    });
    const skusOf = (batch: Order[]) =>
      new Set(batch.flatMap((order) => order.deliveries.flatMap((delivery) => delivery.items.map((item) => item.info?.sku))));
    const [first, second] = [all.slice(0, 10), all.slice(10, 20)];
    expect([...skusOf(first)].some((sku) => skusOf(second).has(sku))).toBe(true);
    const written = await mirror.upsertShopsMirrorOrders([
      { sellerId: parts.id, orders: first },
      { sellerId: parts.id, orders: [...second, first[0]!] },
    ]);
    expect(written).toHaveLength(20);
    const given = await references.readReferences(
      parts.id,
      [...first, ...second].map((order) => order.id),
    );
    expect([...given.values()].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, index) => 1001 + index));
  });

  it("are only given by the mirror's writers: a list read before the mirror has an order names it by its id", async () => {
    const second = await connectTestShop({ sandboxUrl: sandbox.url, login: "seller2@example.com", name: "Loja Dois" });
    const shop = (await shops.findCurrentShop(second.sellerId))!;
    const page = await orders.listOrdersForShop(shop, filters("size=25"), { role: "owner" });
    expect(page.ok && page.data.rows.length).toBeGreaterThan(0);
    expect(page.ok && page.data.rows.every((row) => row.reference === null)).toBe(true);
    const ids = page.ok ? page.data.rows.map((row) => row.id) : [];
    expect((await references.readReferences(second.sellerId, ids)).size).toBe(0);
  });

  it("find an order by what a seller types, and nothing for a number no order has", async () => {
    const target = all[7]!;
    const number = (await references.readReferences(shopId, [target.id])).get(target.id)!;
    for (const typed of [`#${number}`, String(number), `nº ${number}`]) {
      const page = await orders.listOrdersForShop((await shops.findCurrentShop(shopId))!, filters(`id=${encodeURIComponent(typed)}`), {
        role: "owner",
      });
      expect(page.ok && page.data.rows.map((row) => [row.id, row.reference])).toEqual([[target.id, number]]);
    }
    const none = await orders.listOrdersForShop((await shops.findCurrentShop(shopId))!, filters("id=%23999999"), { role: "owner" });
    expect(none.ok && none.data).toMatchObject({ rows: [], total: 0 });
  });
});

describe("a role that does not see customers", () => {
  it("gets the orders and shipping lists without the buyers' names, and cannot search by one", async () => {
    const shop = (await shops.findCurrentShop(shopId))!;
    const name = all[0]!.customer.name;
    const owner = await orders.listOrdersForShop(shop, filters("size=100"), { role: "owner" });
    const viewer = await orders.listOrdersForShop(shop, filters("size=100"), { role: "viewer" });
    expect(owner.ok && owner.data.rows.some((row) => row.customerName === name)).toBe(true);
    expect(viewer.ok && viewer.data.rows.length).toBe(owner.ok && owner.data.rows.length);
    expect(viewer.ok && viewer.data.rows.every((row) => row.customerName === "")).toBe(true);
    expect(JSON.stringify(viewer)).not.toContain(name);

    // A name search would tell whether someone bought: the filter is dropped, the list is the same.
    const searched = await orders.listOrdersForShop(shop, filters(`size=100&customer=${encodeURIComponent(name)}`), { role: "viewer" });
    expect(searched.ok && searched.data.rows.map((row) => row.id)).toEqual(viewer.ok && viewer.data.rows.map((row) => row.id));

    const shipping = { sort: "ship_by:asc" as const, page: 1, size: 200 };
    const toShip = await packing.listShippingOrders(shop, shipping, { seesCustomers: false });
    expect(toShip.rows.length).toBeGreaterThan(0);
    expect(toShip.rows.every((row) => row.customerName === "" && row.reference !== null)).toBe(true);
  });
});
