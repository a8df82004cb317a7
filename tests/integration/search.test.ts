import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Search from "@/features/search/search.server";
import type { PersonShop } from "@/lib/people/people.server";
import type { Role } from "@/lib/people/roles";
import { createMarketplaceClient } from "@marketplace/api/client";
import { ordersQuery } from "@marketplace/api/list-query";
import type { Order } from "@marketplace/api/schemas/order";
import { startTestSandbox } from "@marketplace/sandbox/testing";
import type { TestSandbox } from "@marketplace/sandbox/testing";
import { connect, useTestDatabase } from "../support/database";
import { connectTestShop } from "../support/shops";

// One search across a person's shops (issue 42) against a real database holding the sandbox's
// orders as the mirror keeps them: accents and case folded, a typo forgiven, any part of a
// tracking number, the short reference, and e-mail or document only for the roles that see them.
let sandbox: TestSandbox;
let sql: pg.Client;
let search: typeof Search;
let shopA: string;
let shopB: string;
let ordersA: Order[];
let ordersB: Order[];

const as = (role: Role, ...shopIds: string[]): PersonShop[] =>
  shopIds.map((id) => ({ id, name: id, email: `${id}@example.com`, role, connected: true }));

const fold = (text: string) =>
  text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase();

beforeAll(async () => {
  const url = await useTestDatabase();
  sandbox = await startTestSandbox({ config: { seedOrders: 60 } });
  process.env.MARKETPLACE_BASE_URL = sandbox.url;
  sql = await connect(url);
  search = await import("@/features/search/search.server");
  const mirror = await import("@/lib/orders/order-mirror.server");
  const a = await connectTestShop({ sandboxUrl: sandbox.url, name: "Loja A" });
  const b = await connectTestShop({ sandboxUrl: sandbox.url, login: "seller2@example.com", name: "Loja B" });
  [shopA, shopB] = [a.sellerId, b.sellerId];
  ordersA = (await createMarketplaceClient({ baseUrl: sandbox.url, accessToken: a.token }).listOrders(ordersQuery({ limit: 100 }))).items;
  ordersB = (await createMarketplaceClient({ baseUrl: sandbox.url, accessToken: b.token }).listOrders(ordersQuery({ limit: 100 }))).items;
  await mirror.upsertMirrorOrders(shopA, ordersA);
  await mirror.upsertMirrorOrders(shopB, ordersB);
}, 60_000);

afterAll(async () => {
  await sql?.end();
  await sandbox?.close();
});

describe("search", () => {
  it("finds an order by its customer's name typed without accents or capitals", async () => {
    const accented = ordersA.find((order) => fold(order.customer.name) !== order.customer.name.toLowerCase());
    expect(accented, "the sandbox's names have accents").toBeDefined();
    const typed = fold(accented!.customer.name);
    const { orders } = await search.searchShops(as("viewer", shopA), typed);
    // Each order found by name is a customer whose folded name holds what was typed.
    expect(orders.filter((order) => order.matched === "customer").every((order) => fold(order.customerName).includes(typed))).toBe(true);
    expect(orders.map((order) => order.orderId)).toContain(accented!.id);
  });

  it("finds an order by the last six digits of its tracking number", async () => {
    const order = ordersA.find((each) => each.deliveries.length > 0)!;
    const tracking = order.deliveries[0]!.shipping.tracking.number;
    const lastSix = tracking.replace(/\D/g, "").slice(-6);
    const { orders } = await search.searchShops(as("operations", shopA), lastSix);
    const found = orders.find((each) => each.orderId === order.id);
    expect(found?.matched).toBe("tracking");
  });

  it("finds an order by its short reference and by its platform id", async () => {
    const order = ordersA[3]!;
    const { rows } = await sql.query<{ number: number }>(`SELECT "number" FROM "OrderReference" WHERE "sellerId" = $1 AND "orderId" = $2`, [
      shopA,
      order.id,
    ]);
    const byReference = await search.searchShops(as("viewer", shopA), `#${rows[0]!.number}`);
    expect(byReference.orders.map((each) => [each.orderId, each.matched])).toEqual([[order.id, "reference"]]);
    const byId = await search.searchShops(as("viewer", shopA), order.id.toUpperCase());
    expect(byId.orders.map((each) => [each.orderId, each.matched])).toEqual([[order.id, "id"]]);
  });

  it("finds an order by the customer's e-mail or document for a role that sees customer data, never for the viewer", async () => {
    const order = ordersA[5]!;
    const document = order.customer.document_number;
    const punctuated =
      document.length === 11 ? `${document.slice(0, 3)}.${document.slice(3, 6)}.${document.slice(6, 9)}-${document.slice(9)}` : document;
    for (const [query, kind] of [
      [` ${order.customer.email.toUpperCase()} `, "email"],
      [punctuated, "document"],
    ] as const) {
      const manager = await search.searchShops(as("manager", shopA), query);
      expect(manager.orders.find((each) => each.orderId === order.id)?.matched).toBe(kind);
      const viewer = await search.searchShops(as("viewer", shopA), query);
      expect(viewer.orders.filter((each) => each.matched === "email" || each.matched === "document")).toEqual([]);
    }
    // Neither is kept in clear.
    const { rows } = await sql.query<{ row: string }>(`SELECT row_to_json(m)::text AS "row" FROM "OrderMirror" m WHERE "orderId" = $1`, [
      order.id,
    ]);
    expect(rows[0]!.row).not.toContain(order.customer.email);
    expect(rows[0]!.row).not.toContain(document);
  });

  it("finds a product by a misspelled name and by part of its SKU code", async () => {
    const item = ordersA
      .flatMap((order) => order.deliveries.flatMap((delivery) => delivery.items))
      .find((each) => each.info.name.length >= 8)!;
    const name = fold(item.info.name);
    // One letter dropped from its longest word.
    const word = name.split(" ").sort((x, y) => y.length - x.length)[0]!;
    const misspelled = name.replace(word, word.slice(0, 2) + word.slice(3));
    const { products } = await search.searchShops(as("viewer", shopA), misspelled);
    expect(products.map((product) => product.sku)).toContain(item.info.sku);
    const byCode = await search.searchShops(as("viewer", shopA), item.info.sku.slice(1).toLowerCase());
    expect(byCode.products.map((product) => product.sku)).toContain(item.info.sku);
    // Operations sees neither prices nor SKUs.
    expect((await search.searchShops(as("operations", shopA), misspelled)).products).toEqual([]);
  });

  it("keeps to the person's shops, and finds the team's people only for those who manage it", async () => {
    const other = ordersB[0]!;
    const inA = await search.searchShops(as("owner", shopA), fold(other.customer.name));
    expect(inA.orders.every((order) => order.shopId === shopA)).toBe(true);
    const inBoth = await search.searchShops([...as("owner", shopA), ...as("viewer", shopB)], other.id);
    expect(inBoth.orders.map((order) => [order.shopId, order.orderId])).toEqual([[shopB, other.id]]);

    await sql.query(`INSERT INTO "Person" (id, name) VALUES ('search-person', 'Conceição Araújo')`);
    await sql.query(`INSERT INTO "Membership" ("sellerId", "personId", role) VALUES ($1, 'search-person', 'operations')`, [shopA]);
    expect((await search.searchShops(as("owner", shopA), "conceicao")).people.map((person) => person.name)).toEqual(["Conceição Araújo"]);
    expect((await search.searchShops(as("manager", shopA), "conceicao")).people).toEqual([]);
  });

  it("searches nothing for a text too short, and answers empty groups for a text nothing matches", async () => {
    expect(await search.searchShops(as("owner", shopA), " a ")).toEqual({ orders: [], products: [], people: [] });
    expect(await search.searchShops(as("owner", shopA), "zzqxw zzqxw")).toEqual({ orders: [], products: [], people: [] });
  });
});
