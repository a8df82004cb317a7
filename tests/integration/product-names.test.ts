import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Mirror from "@/lib/orders/order-mirror.server";
import type * as PriceProducts from "@/features/prices/price-products.server";
import type * as Prices from "@/features/prices/prices.server";
import type * as ProductNames from "@/lib/catalogue/product-names.server";
import type * as Sellers from "@/lib/shops/shops.server";
import type * as Skus from "@/features/skus/skus.server";
import type * as BulkPreview from "@/features/prices/bulk/bulk-preview.server";
import type * as Reconcile from "@/features/webhooks/sync/reconcile.server";
import { sampleSku } from "@marketplace/api/schemas/fixtures";
import { orderSummarySchema } from "@marketplace/api/schemas/order";
import type { OrderSummary } from "@marketplace/api/schemas/order";
import { skuCreateSchema } from "@marketplace/api/schemas/sku";
import { order as specOrder } from "@marketplace/api/spec-examples";
import { pricesSchema } from "@/features/prices/price-filters";
import { obtainAccessToken, startTestSandbox } from "@marketplace/sandbox/testing";
import type { TestSandbox } from "@marketplace/sandbox/testing";
import { connect, useTestDatabase } from "../support/database";

// Product names beside SKU codes (issue 26), against a real database and the sandbox's seeded
// shop: the catalogue's titles and mirrored orders' items name codes, the catalogue's name wins,
// and the prices views show the names and find products by them.
let sandbox: TestSandbox;
let sql: pg.Client;
let token: string;
let shopId: string;
let shops: typeof Sellers;
let skus: typeof Skus;
let mirror: typeof Mirror;
let names: typeof ProductNames;
let priceProducts: typeof PriceProducts;
let prices: typeof Prices;
let bulkPreview: typeof BulkPreview;
let reconcile: typeof Reconcile;

beforeAll(async () => {
  const url = await useTestDatabase();
  sandbox = await startTestSandbox({ config: { seedOrders: 20 } });
  process.env.MARKETPLACE_BASE_URL = sandbox.url;
  token = await obtainAccessToken(sandbox.url);
  sql = await connect(url);
  shops = await import("@/lib/shops/shops.server");
  skus = await import("@/features/skus/skus.server");
  mirror = await import("@/lib/orders/order-mirror.server");
  names = await import("@/lib/catalogue/product-names.server");
  priceProducts = await import("@/features/prices/price-products.server");
  prices = await import("@/features/prices/prices.server");
  bulkPreview = await import("@/features/prices/bulk/bulk-preview.server");
  reconcile = await import("@/features/webhooks/sync/reconcile.server");
  const shop = await shops.connectShop({
    email: "seller@example.com",
    name: "Loja Demo",
    accessToken: token,
    scopesRequested: "basic_user_info portfolio:read portfolio:write order-order:read",
  });
  shopId = shop.id;
}, 60_000);

afterAll(async () => {
  await sql?.end();
  await sandbox?.close();
});

let nextId = 0x100;
const objectId = () => (nextId++).toString(16).padStart(24, "0");

/** Records a SKU the platform accepted, as the New SKU form does after a statusCode 0. */
async function createCatalogueSku(code: string, title: string) {
  const sku = skuCreateSchema.parse({ ...sampleSku(code), title: { pt_BR: title, en_US: "An English title" } });
  return skus.recordImportedSku(shopId, { id: objectId(), importToken: `token-${code}`, sku });
}

/** An order (the spec's example) updated at `updatedAt`, selling these codes under these names. */
function orderSelling(updatedAt: string, items: { sku: string; name: string }[]): OrderSummary {
  const [delivery] = specOrder.deliveries;
  const [item] = delivery!.items;
  return orderSummarySchema.parse({
    ...specOrder,
    id: objectId(),
    updated_at: updatedAt,
    deliveries: [
      { ...delivery, items: items.map((named, index) => ({ ...item, sequencial: index + 1, info: { ...item!.info, ...named } })) },
    ],
  });
}

const stored = async (sku: string, shop = shopId) =>
  (
    await sql.query<{ name: string; source: string }>(`SELECT "name", "source" FROM "ProductName" WHERE "sellerId" = $1 AND "sku" = $2`, [
      shop,
      sku,
    ])
  ).rows[0];

async function currentSeller() {
  const shop = await shops.findCurrentShop(shopId);
  expect(shop).not.toBeNull();
  return shop!;
}

describe("where a product's name comes from", () => {
  it("a SKU created through the dashboard is named by its pt_BR title", async () => {
    expect(await createCatalogueSku("CANECA-01", "Caneca Esmaltada Azul")).toEqual({ created: true });
    expect(await stored("CANECA-01")).toEqual({ name: "Caneca Esmaltada Azul", source: "catalogue" });
    // A new version of the SKU (same code, new record) renames it.
    await createCatalogueSku("CANECA-01", "Caneca Esmaltada Azul 350 ml");
    expect(await names.productNameOf(shopId, "CANECA-01")).toBe("Caneca Esmaltada Azul 350 ml");
  });

  it("an order item names a SKU the catalogue does not have, as orders are mirrored", async () => {
    await mirror.upsertMirrorOrders(shopId, [
      orderSelling("2026-05-01T12:00:00.000Z", [{ sku: "MEIA-07", name: "Meia Esportiva Cano Alto" }]),
    ]);
    expect(await stored("MEIA-07")).toEqual({ name: "Meia Esportiva Cano Alto", source: "order" });

    // A later order's name replaces it; an older order read afterwards does not bring the old one back.
    await mirror.upsertMirrorOrders(shopId, [
      orderSelling("2026-05-03T12:00:00.000Z", [{ sku: "MEIA-07", name: "Meia Esportiva Cano Alto Branca" }]),
    ]);
    await mirror.upsertMirrorOrders(shopId, [orderSelling("2026-05-02T12:00:00.000Z", [{ sku: "MEIA-07", name: "Meia antiga" }])]);
    expect(await stored("MEIA-07")).toEqual({ name: "Meia Esportiva Cano Alto Branca", source: "order" });

    // Two orders of one batch selling the same code: the later one names it (and the batch is one statement).
    await mirror.upsertMirrorOrders(shopId, [
      orderSelling("2026-05-06T12:00:00.000Z", [{ sku: "BONE-01", name: "Boné Aba Reta" }]),
      orderSelling("2026-05-05T12:00:00.000Z", [{ sku: "BONE-01", name: "Boné" }]),
    ]);
    expect(await stored("BONE-01")).toEqual({ name: "Boné Aba Reta", source: "order" });
  });

  it("names the seeded shop's SKUs from its orders when the back-fill mirrors them", async () => {
    expect(await reconcile.reconcileShop(shopId)).toMatchObject({ mode: "backfill" });
    // What the orders the back-fill mirrored sell (it reads open orders and recent ones, not all).
    const mirrored = new Set(
      (await sql.query<{ orderId: string }>(`SELECT "orderId" FROM "OrderMirror" WHERE "sellerId" = $1`, [shopId])).rows.map(
        (row) => row.orderId,
      ),
    );
    const response = await sandbox.api("/v1.0/marketplace/orders?_limit=200", { token });
    const { results } = (await response.json()) as {
      results: { id: string; deliveries: { items: { info: { sku: string; name: string } }[] }[] }[];
    };
    const sold = new Map(
      results
        .filter((order) => mirrored.has(order.id))
        .flatMap((order) => order.deliveries.flatMap((delivery) => delivery.items.map((item) => [item.info.sku, item.info.name] as const))),
    );
    expect(sold.size).toBeGreaterThan(0);
    const named = await names.productNamesFor(shopId, sold.keys());
    expect(Object.fromEntries(named)).toEqual(Object.fromEntries(sold));
  });

  it("never lets an order item's name replace the catalogue's, while the catalogue's replaces an order's", async () => {
    await createCatalogueSku("CAM-001", "Camiseta do Catálogo P");
    await mirror.upsertMirrorOrders(shopId, [orderSelling("2030-01-01T00:00:00.000Z", [{ sku: "CAM-001", name: "Camiseta vendida" }])]);
    expect(await stored("CAM-001")).toEqual({ name: "Camiseta do Catálogo P", source: "catalogue" });

    expect(await stored("MEIA-07")).toMatchObject({ source: "order" });
    await createCatalogueSku("MEIA-07", "Meia do Catálogo");
    expect(await stored("MEIA-07")).toEqual({ name: "Meia do Catálogo", source: "catalogue" });
  });

  it("goes with the rest of the seller's data when it is deleted", async () => {
    const leaving = await shops.connectShop({
      email: "leaving@example.com",
      name: "Loja",
      accessToken: "t-leave",
      scopesRequested: "basic_user_info",
    });
    await mirror.upsertMirrorOrders(leaving.id, [orderSelling("2026-05-01T12:00:00.000Z", [{ sku: "X-1", name: "Produto X" }])]);
    expect(await stored("X-1", leaving.id)).toBeDefined();
    await shops.deleteShopData(leaving.id);
    expect((await sql.query(`SELECT 1 FROM "ProductName" WHERE "sellerId" = $1`, [leaving.id])).rowCount).toBe(0);
  });
});

describe("the prices views", () => {
  it("prices by product shows each product's name, and its search finds one by its name", async () => {
    const shop = await currentSeller();
    const page = await priceProducts.listPriceProducts(shop, { search: undefined, page: 1, size: 100 });
    expect(page.ok).toBe(true);
    const rows = page.ok ? page.data.rows : [];
    expect(rows.find((row) => row.sku === "CAM-001")?.name).toBe("Camiseta do Catálogo P");
    // The seeded catalogue's other codes are named by the orders that sold them.
    expect(rows.filter((row) => row.name !== null).length).toBeGreaterThan(1);

    const found = await priceProducts.listPriceProducts(shop, { search: "camiseta", page: 1, size: 25 });
    expect(found.ok && found.data.rows.map((row) => row.sku)).toContain("CAM-001");
    expect(found.ok && found.data.rows.every((row) => row.sku.startsWith("CAM-"))).toBe(true);
    // Letter case and accents do not matter.
    const folded = await priceProducts.listPriceProducts(shop, { search: "CATALOGO", page: 1, size: 25 });
    expect(folded.ok && folded.data.rows.map((row) => row.sku)).toEqual(["CAM-001"]);
  });

  it("the prices list and a bulk preview name the SKUs they show", async () => {
    const shop = await currentSeller();
    const filters = pricesSchema.parse(new URLSearchParams({ sku: "CAM-001" }));
    expect(filters.success).toBe(true);
    const list = await prices.listPricesForShop(shop, filters.data!);
    expect(list.ok && list.data.rows.map((row) => row.name)).toEqual(expect.arrayContaining(["Camiseta do Catálogo P"]));

    const preview = await bulkPreview.previewBulkPrices(shop, {
      rows: [{ line: 2, sku: "CAM-001", type: "sell", amount: "45.00", currency: "BRL", value: 4500, normalizer: 100 }],
      invalid: [],
    });
    expect(preview.ok && preview.data.names).toEqual({ "CAM-001": "Camiseta do Catálogo P" });
  });
});
