import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Costs from "@/features/prices/costs/product-costs.server";
import type * as Prices from "@/features/prices/prices.server";
import type * as Sellers from "@/lib/shops/shops.server";
import type * as BulkPreview from "@/features/prices/bulk/bulk-preview.server";
import { pricesQuery } from "@marketplace/api/list-query";
import { parseBulkPriceCsv } from "@/features/prices/bulk/bulk-csv";
import { applyPercent } from "@/features/prices/price-products";
import { startTestSandbox } from "@marketplace/sandbox/testing";
import type { TestSandbox } from "@marketplace/sandbox/testing";
import { connect, useTestDatabase } from "../support/database";
import { connectTestShop } from "../support/shops";

// Product costs and the price guard (issue 29) against a real database and the sandbox's seeded
// shop: costs keep their history and audit entries, the commission rate is learned from mirrored
// orders, and the functions every price action calls judge each change with the sandbox's current
// prices and the stored costs: a held change is never sent unless its product was confirmed, and
// is sent once it is.
let sandbox: TestSandbox;
let sql: pg.Client;
let token: string;
let shopId: string;
let costs: typeof Costs;
let prices: typeof Prices;
let shops: typeof Sellers;
let bulkPreview: typeof BulkPreview;
const maria = { id: "person-maria", name: "Maria Preços" };

beforeAll(async () => {
  const url = await useTestDatabase();
  sandbox = await startTestSandbox({ config: { seedOrders: 0 } });
  process.env.MARKETPLACE_BASE_URL = sandbox.url;
  sql = await connect(url);
  ({ token, sellerId: shopId } = await connectTestShop({ sandboxUrl: sandbox.url }));
  costs = await import("@/features/prices/costs/product-costs.server");
  prices = await import("@/features/prices/prices.server");
  shops = await import("@/lib/shops/shops.server");
  bulkPreview = await import("@/features/prices/bulk/bulk-preview.server");
  await sql.query(`INSERT INTO "Person" (id, name) VALUES ($1, $2)`, [maria.id, maria.name]);
}, 60_000);

afterAll(async () => {
  await sql?.end();
  await sandbox?.close();
});

async function currentSeller() {
  const shop = await shops.findCurrentShop(shopId);
  expect(shop).not.toBeNull();
  return shop!;
}

/** The product's list and sell values as the sandbox holds them now, through its own API. */
async function sandboxPrices(sku: string): Promise<{ list?: number; sell?: number }> {
  const response = await sandbox.api(`/v1.0/marketplace/portfolios/prices?${pricesQuery({ sku, limit: 10 })}`, { token });
  expect(response.status).toBe(200);
  const { results } = (await response.json()) as { results: { type: "list" | "sell"; value: number }[] };
  return Object.fromEntries(results.map((price) => [price.type, price.value]));
}

const auditOf = async (action: string) =>
  (
    await sql.query<{ subject: string | null; before: unknown; after: unknown; personName: string }>(
      `SELECT "subject", "before", "after", "personName" FROM "AuditEntry" WHERE "sellerId" = $1 AND "action" = $2 ORDER BY "id"`,
      [shopId, action],
    )
  ).rows;

describe("product costs", () => {
  it("sets a code's cost with a history row and an audit entry, ignores the same cost again, and removes it", async () => {
    expect(await costs.setProductCost(shopId, maria, { sku: "LIV-001", cost: 2500 }, "catalogue")).toEqual({
      changed: true,
      before: null,
    });
    expect(await costs.setProductCost(shopId, maria, { sku: "LIV-001", cost: 2500 }, "prices")).toEqual({ changed: false, before: 2500 });
    expect(await costs.setProductCost(shopId, maria, { sku: "LIV-001", cost: 2750 }, "prices")).toEqual({ changed: true, before: 2500 });
    expect((await costs.currentCosts(shopId, ["LIV-001", "LIV-002"])).get("LIV-001")).toBe(2750);

    expect(await costs.setProductCost(shopId, maria, { sku: "LIV-001", cost: null }, "prices")).toEqual({ changed: true, before: 2750 });
    expect(await costs.currentCosts(shopId, ["LIV-001"])).toEqual(new Map());
    const history = await costs.costHistory(shopId, "LIV-001");
    expect(history.map((entry) => [entry.cost, entry.source, entry.personName])).toEqual([
      [null, "prices", "Maria Preços"],
      [2750, "prices", "Maria Preços"],
      [2500, "catalogue", "Maria Preços"],
    ]);
    expect((await auditOf("cost.set")).filter((entry) => entry.subject === "LIV-001")).toEqual([
      { subject: "LIV-001", before: null, after: { cost: 2500 }, personName: "Maria Preços" },
      { subject: "LIV-001", before: { cost: 2500 }, after: { cost: 2750 }, personName: "Maria Preços" },
      { subject: "LIV-001", before: { cost: 2750 }, after: { cost: null }, personName: "Maria Preços" },
    ]);
  });

  it("sets many costs from a CSV in one transaction, with one entry for the file and one per changed code", async () => {
    await costs.setProductCost(shopId, maria, { sku: "GAR-001", cost: 4000 }, "prices");
    const before = (await auditOf("cost.set")).length;
    const result = await costs.setProductCosts(
      shopId,
      maria,
      [
        { sku: "GAR-001", cost: 4000 },
        { sku: "GAR-002", cost: 4100 },
        { sku: "PAN-001", cost: 20000 },
      ],
      "csv",
    );
    expect(result).toEqual({ changed: 2 });
    expect(Object.fromEntries(await costs.currentCosts(shopId, ["GAR-001", "GAR-002", "PAN-001"]))).toEqual({
      "GAR-001": 4000,
      "GAR-002": 4100,
      "PAN-001": 20000,
    });
    expect((await auditOf("cost.bulk")).map((entry) => entry.after)).toEqual([{ count: 2 }]);
    expect((await auditOf("cost.set")).slice(before).map((entry) => entry.subject)).toEqual(["GAR-002", "PAN-001"]);
  });
});

describe("the shop's pricing settings", () => {
  it("learns the commission rate from the latest mirrored orders that carry one, leaving out cancelled ones, until one is set by hand", async () => {
    expect((await costs.pricingSettings(shopId)).commission).toEqual({ manualBps: null, learned: null, rateBps: null });
    const order = (id: string, status: string, total: number, commission: number | null, normalizer = 100) =>
      sql.query(
        `INSERT INTO "OrderMirror" ("sellerId", "orderId", "status", "createdAt", "updatedAt", "customerName", "total", "currency", "normalizer", "itemCount", "deliveries", "commission", "syncedAt")
         VALUES ($1, $2, $3, now(), now(), 'Cliente', $4, 'BRL', $5, 1, '[]', $6, now())`,
        [shopId, id, status, total, normalizer, commission],
      );
    // R$ 100,00 with R$ 12,00 and R$ 300,00 (in thousandths) with R$ 36,00: 48 / 400 = 12 %.
    await order("o1", "approved", 10000, 1200);
    await order("o2", "finished", 300000, 36000, 1000);
    await order("o3", "approved", 50000, null);
    await order("o4", "cancelled", 10000, 9000);
    expect(await costs.learnedCommissionRate(shopId)).toEqual({ rateBps: 1200, orders: 2 });

    // From the latest thousand only: a thousand newer orders at 10 % put the older ones out of it.
    await sql.query(
      `INSERT INTO "OrderMirror" ("sellerId", "orderId", "status", "createdAt", "updatedAt", "customerName", "total", "currency", "normalizer", "itemCount", "deliveries", "commission", "syncedAt")
       SELECT $1, 'recent-' || n, 'approved', now() + n * interval '1 second', now(), 'Cliente', 10000, 'BRL', 100, 1, '[]', 1000, now()
       FROM generate_series(1, $2::int) n`,
      [shopId, costs.LEARNED_FROM_ORDERS],
    );
    expect(await costs.learnedCommissionRate(shopId)).toEqual({ rateBps: 1000, orders: costs.LEARNED_FROM_ORDERS });
    await sql.query(`DELETE FROM "OrderMirror" WHERE "sellerId" = $1 AND "orderId" LIKE 'recent-%'`, [shopId]);

    expect(await costs.setCommissionRate(shopId, maria, 1650)).toBe(true);
    expect((await costs.pricingSettings(shopId)).commission).toEqual({
      manualBps: 1650,
      learned: { rateBps: 1200, orders: 2 },
      rateBps: 1650,
    });
    expect(await costs.setCommissionRate(shopId, maria, 1650)).toBe(false);
    expect(await costs.setCommissionRate(shopId, maria, null)).toBe(true);
    expect((await costs.pricingSettings(shopId)).commission.rateBps).toBe(1200);
    expect((await auditOf("price.commissionRate")).map((entry) => [entry.before, entry.after])).toEqual([
      [{ rateBps: null }, { rateBps: 1650 }],
      [{ rateBps: 1650 }, { rateBps: null }],
    ]);
  });

  it("keeps the guard's limit, 30 % unless set, with its audit entry", async () => {
    expect((await costs.pricingSettings(shopId)).limitPercent).toBe(30);
    expect(await costs.setPriceChangeLimit(shopId, maria, 45)).toBe(true);
    expect((await costs.priceGuardContext(shopId, [])).limitPercent).toBe(45);
    expect(await costs.setPriceChangeLimit(shopId, maria, 30)).toBe(true);
    expect((await auditOf("price.guardLimit")).map((entry) => entry.after)).toEqual([{ limitPercent: 45 }, { limitPercent: 30 }]);
  });
});

describe("the price guard on a single change (the price's page, an in-place edit)", () => {
  it("holds a sell price below cost, sends nothing, and sends it once the product is confirmed", async () => {
    const shop = await currentSeller();
    const start = await sandboxPrices("CAM-001");
    expect(start.sell).toBe(4990);
    await costs.setProductCost(shopId, maria, { sku: "CAM-001", cost: 4000 }, "prices");
    // −21.8 %: within the limit, below the cost.
    const change = { sku: "CAM-001", type: "sell" as const, value: 3900, currency: "BRL", normalizer: 100 };

    const held = await prices.setPriceGuarded(shop, change, { confirmed: false });
    expect(held).toMatchObject({ kind: "held", reasons: [{ code: "belowCost", type: "sell", cost: 4000 }], before: { value: 4990 } });
    if (held.kind === "held") expect(held.reasons).toHaveLength(1);
    expect(await sandboxPrices("CAM-001")).toEqual(start);

    const sent = await prices.setPriceGuarded(shop, change, { confirmed: true });
    expect(sent.kind).toBe("sent");
    if (sent.kind === "sent") expect(sent.result).toMatchObject({ ok: true, data: { statusCode: 0 } });
    expect((await sandboxPrices("CAM-001")).sell).toBe(3900);
  });

  it("holds a list price moving more than the limit from the sandbox's current one, and lets one within it through", async () => {
    const shop = await currentSeller();
    const { list } = await sandboxPrices("TEN-001");
    expect(list).toBeDefined();
    const far = await prices.setPriceGuarded(
      shop,
      { sku: "TEN-001", type: "list", value: Math.round(list! * 1.5), currency: "BRL", normalizer: 100 },
      { confirmed: false },
    );
    expect(far).toMatchObject({ kind: "held", reasons: [{ code: "moveTooLarge", type: "list", limitPercent: 30, changeBps: 5000 }] });
    expect((await sandboxPrices("TEN-001")).list).toBe(list);

    const near = await prices.setPriceGuarded(
      shop,
      { sku: "TEN-001", type: "list", value: Math.round(list! * 1.25), currency: "BRL", normalizer: 100 },
      { confirmed: false },
    );
    expect(near.kind).toBe("sent");
    expect((await sandboxPrices("TEN-001")).list).toBe(Math.round(list! * 1.25));
  });
});

describe("the price guard on a change of currency", () => {
  it("holds a sell price in another currency, however small, and says what was confirmed once it is sent", async () => {
    const shop = await currentSeller();
    // A change the guard lets through: nothing is confirmed past it, even when the call says "confirmed".
    const within = await prices.setPriceGuarded(
      shop,
      { sku: "CAM-002", type: "sell", value: Math.round((await sandboxPrices("CAM-002")).sell! * 1.1), currency: "BRL", normalizer: 100 },
      { confirmed: true },
    );
    expect(within).toMatchObject({ kind: "sent", result: { ok: true }, confirmedPast: [] });
    const start = await sandboxPrices("CAM-002");
    // A forged call's USD 0.01: neither below cost nor a move could judge it, so the currency itself holds it.
    const change = { sku: "CAM-002", type: "sell" as const, value: 1, currency: "USD", normalizer: 100 };
    const held = await prices.setPriceGuarded(shop, change, { confirmed: false });
    expect(held).toMatchObject({ kind: "held", reasons: [{ code: "currencyChange", type: "sell", from: "BRL", to: "USD" }] });
    expect(await sandboxPrices("CAM-002")).toEqual(start);

    const sent = await prices.setPriceGuarded(shop, change, { confirmed: true });
    expect(sent).toMatchObject({ kind: "sent", result: { ok: true }, confirmedPast: [{ code: "currencyChange", from: "BRL", to: "USD" }] });
    expect((await sandboxPrices("CAM-002")).sell).toBe(1);
  });

  it("holds bulk rows in another currency unless their product is confirmed, and tells what was confirmed", async () => {
    const shop = await currentSeller();
    const { list } = await sandboxPrices("CAM-003");
    const rows = [{ line: 2, sku: "CAM-003", type: "list" as const, value: list!, currency: "EUR", normalizer: 100 }];
    const first = await prices.applyGuardedPriceRows(shop, rows, { confirmed: new Set() });
    expect(first.ok && first.data.results.map((result) => [result.outcome, result.outcome === "held" ? result.reasons : null])).toEqual([
      ["held", [{ code: "currencyChange", type: "list", from: "BRL", to: "EUR" }]],
    ]);
    expect((await sandboxPrices("CAM-003")).list).toBe(list);

    const confirmedPast: unknown[] = [];
    const second = await prices.applyGuardedPriceRows(shop, rows, {
      confirmed: new Set(["CAM-003"]),
      onConfirmedPastGuard: (row, reasons) => confirmedPast.push([row.line, reasons.map((reason) => reason.code)]),
    });
    expect(second.ok && second.data.results.map((result) => result.outcome)).toEqual(["applied"]);
    expect(confirmedPast).toEqual([[2, ["currencyChange"]]]);
  });
});

describe("the price guard on bulk changes (a CSV, a change of prices by product)", () => {
  it("previews a −40 % change of two products with costs as held, each with its reasons", async () => {
    const shop = await currentSeller();
    await costs.setProductCosts(
      shopId,
      maria,
      [
        { sku: "FON-001", cost: 9000 },
        { sku: "FON-002", cost: 9000 },
      ],
      "csv",
    );
    const fon1 = (await sandboxPrices("FON-001")).sell!;
    const fon2 = (await sandboxPrices("FON-002")).sell!;
    const csv = `sku;type;value;currency\nFON-001;sell;${(applyPercent(fon1, -4000) / 100).toFixed(2).replace(".", ",")};BRL\nFON-002;sell;${(applyPercent(fon2, -4000) / 100).toFixed(2).replace(".", ",")};BRL\nFON-003;sell;${((fon1 + 100) / 100).toFixed(2)};BRL\n`;
    const parsed = parseBulkPriceCsv(csv);
    if (!parsed.ok) throw new Error("the file was not read");
    const preview = await bulkPreview.previewBulkPrices(shop, parsed);
    if (!preview.ok) throw new Error("no preview");
    expect(
      preview.data.rows.map((row) => [row.sku, row.kind, row.kind === "invalid" ? [] : (row.held ?? []).map((reason) => reason.code)]),
    ).toEqual([
      ["FON-001", "changed", ["belowCost", "moveTooLarge"]],
      ["FON-002", "changed", ["belowCost", "moveTooLarge"]],
      ["FON-003", "changed", []],
    ]);
  });

  it("sends nothing for held rows that were not confirmed, and sends a product's rows once it is confirmed", async () => {
    const shop = await currentSeller();
    const before = { fon1: await sandboxPrices("FON-001"), fon2: await sandboxPrices("FON-002"), fon3: await sandboxPrices("FON-003") };
    const row = (line: number, sku: string, value: number) => ({
      line,
      sku,
      type: "sell" as const,
      value,
      currency: "BRL",
      normalizer: 100,
    });
    const rows = [
      row(2, "FON-001", applyPercent(before.fon1.sell!, -4000)),
      row(3, "FON-002", applyPercent(before.fon2.sell!, -4000)),
      row(4, "FON-003", applyPercent(before.fon3.sell!, -500)),
    ];

    // Nothing confirmed, though the page (or a forged call) sends every row: only the one the guard lets through goes.
    const first = await prices.applyGuardedPriceRows(shop, rows, { confirmed: new Set() });
    if (!first.ok) throw new Error("the platform refused");
    expect(first.data.results.map((result) => [result.row.sku, result.outcome])).toEqual([
      ["FON-001", "held"],
      ["FON-002", "held"],
      ["FON-003", "applied"],
    ]);
    // Below cost is known from the stored cost alone: held without asking the platform.
    expect(first.data.results[0]).toMatchObject({ outcome: "held", reasons: [{ code: "belowCost", cost: 9000 }] });
    expect(await sandboxPrices("FON-001")).toEqual(before.fon1);
    expect(await sandboxPrices("FON-002")).toEqual(before.fon2);
    expect((await sandboxPrices("FON-003")).sell).toBe(rows[2]!.value);

    // FON-001 confirmed: it is sent; FON-002 still is not.
    const second = await prices.applyGuardedPriceRows(shop, rows.slice(0, 2), { confirmed: new Set(["FON-001"]) });
    if (!second.ok) throw new Error("the platform refused");
    expect(second.data.results.map((result) => [result.row.sku, result.outcome])).toEqual([
      ["FON-001", "applied"],
      ["FON-002", "held"],
    ]);
    expect((await sandboxPrices("FON-001")).sell).toBe(rows[0]!.value);
    expect(await sandboxPrices("FON-002")).toEqual(before.fon2);

    // Confirming a product covers only that product.
    const third = await prices.applyGuardedPriceRows(shop, rows.slice(1, 2), { confirmed: new Set(["FON-001"]) });
    expect(third.ok && third.data.results.map((result) => result.outcome)).toEqual(["held"]);
    const fourth = await prices.applyGuardedPriceRows(shop, rows.slice(1, 2), { confirmed: new Set(["FON-002"]) });
    expect(fourth.ok && fourth.data.results.map((result) => result.outcome)).toEqual(["applied"]);
    expect((await sandboxPrices("FON-002")).sell).toBe(rows[1]!.value);
  });

  it("judges a move against the sandbox's price now, not the one a page saw", async () => {
    const shop = await currentSeller();
    const { sell } = await sandboxPrices("MOC-001");
    // Another tab lowers the price a lot (confirmed there); a change planned against the old price is now a large rise.
    await prices.setPriceGuarded(
      shop,
      { sku: "MOC-001", type: "sell", value: Math.round(sell! / 2), currency: "BRL", normalizer: 100 },
      { confirmed: true },
    );
    const stale = await prices.applyGuardedPriceRows(
      shop,
      [{ line: 2, sku: "MOC-001", type: "sell", value: sell!, currency: "BRL", normalizer: 100 }],
      { confirmed: new Set() },
    );
    expect(
      stale.ok && stale.data.results.map((result) => [result.outcome, result.outcome === "held" ? result.reasons[0]?.code : null]),
    ).toEqual([["held", "moveTooLarge"]]);
    expect((await sandboxPrices("MOC-001")).sell).toBe(Math.round(sell! / 2));
  });
});
