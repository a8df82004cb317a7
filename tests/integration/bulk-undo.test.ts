import { randomUUID } from "node:crypto";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type * as BulkActions from "@/features/prices/bulk/actions";
import type { ApplyPriceRow } from "@/features/prices/bulk/actions";
import type * as Costs from "@/features/prices/costs/product-costs.server";
import type * as Prices from "@/features/prices/prices.server";
import type * as Shops from "@/lib/shops/shops.server";
import type { BulkPreview } from "@/features/prices/bulk/bulk-preview-rows";
import { marginOf } from "@/features/prices/margin";
import { applyPercent } from "@/features/prices/price-products";
import { pricesQuery } from "@marketplace/api/list-query";
import { startTestSandbox } from "@marketplace/sandbox/testing";
import type { TestSandbox } from "@marketplace/sandbox/testing";
import { connect, useTestDatabase } from "../support/database";
import { connectTestShop } from "../support/shops";

// Undoing a bulk change (issue 40, point 10) through the bulk actions the page calls, against a real
// database and the sandbox: the preview reads what the run set from its audit entries and the
// sandbox's prices now; the undo goes through the same guarded path as any change, is audited as an
// undo of that run, keeps a price changed since, and sends each price back once however often it
// is asked, even twice at once.

const maria = { id: "person-maria-undo", name: "Maria Preços" };
/** The capabilities the actions asked for: undoing needs what applying needs. */
const asked: string[] = [];

vi.mock("@/lib/auth/session.server", () => ({
  requireShop: async (shopId: string, capability: string) => {
    asked.push(capability);
    const { findCurrentShop } = await import("@/lib/shops/shops.server");
    return {
      shop: await findCurrentShop(shopId),
      person: { ...maria, marketplaceEmail: null, lastShopId: null, shops: [] },
      role: "manager",
    };
  },
}));
// The actions' words need a request; the English catalogue stands in for it.
vi.mock("next-intl/server", async () => {
  const { createTranslator } = await import("next-intl");
  const { catalogues } = await import("@/messages");
  return { getTranslations: async (namespace: "prices") => createTranslator({ locale: "en", messages: catalogues.en, namespace }) };
});
vi.mock("@/lib/format.server", async () => {
  const { displayFormat } = await import("@/lib/format");
  return { getDisplayFormat: async () => displayFormat({ locale: "en" }) };
});

let sandbox: TestSandbox;
let sql: pg.Client;
let token: string;
let shopId: string;
let actions: typeof BulkActions;
let costs: typeof Costs;
let prices: typeof Prices;
let shops: typeof Shops;

beforeAll(async () => {
  const url = await useTestDatabase();
  sandbox = await startTestSandbox({ config: { seedOrders: 0 } });
  process.env.MARKETPLACE_BASE_URL = sandbox.url;
  sql = await connect(url);
  ({ token, sellerId: shopId } = await connectTestShop({ sandboxUrl: sandbox.url }));
  actions = await import("@/features/prices/bulk/actions");
  costs = await import("@/features/prices/costs/product-costs.server");
  prices = await import("@/features/prices/prices.server");
  shops = await import("@/lib/shops/shops.server");
  await sql.query(`INSERT INTO "Person" (id, name) VALUES ($1, $2)`, [maria.id, maria.name]);
}, 60_000);

afterAll(async () => {
  await sql?.end();
  await sandbox?.close();
});

/** A product's list and sell values as the sandbox holds them now, through its own API. */
async function sandboxPrices(sku: string): Promise<{ list?: number; sell?: number }> {
  const response = await sandbox.api(`/v1.0/marketplace/portfolios/prices?${pricesQuery({ sku, limit: 10 })}`, { token });
  expect(response.status).toBe(200);
  const { results } = (await response.json()) as { results: { type: "list" | "sell"; value: number }[] };
  return Object.fromEntries(results.map((price) => [price.type, price.value]));
}

/** The price.set entries of a run, and its price.bulk entry, as the log keeps them. */
async function auditOf(runId: string) {
  const { rows } = await sql.query<{ action: string; subject: string | null; before: unknown; after: Record<string, unknown> }>(
    `SELECT "action", "subject", "before", "after" FROM "AuditEntry" WHERE "sellerId" = $1 AND "after"->>'run' = $2 ORDER BY "id"`,
    [shopId, runId],
  );
  return { sets: rows.filter((row) => row.action === "price.set"), bulk: rows.filter((row) => row.action === "price.bulk") };
}

const brl = { currency: "BRL", normalizer: 100 };
const row = (line: number, sku: string, type: "list" | "sell", value: number): ApplyPriceRow => ({
  line,
  sku,
  type,
  value,
  ...brl,
  amount: (value / 100).toFixed(2),
});

/** A bulk change of the products' prices by −10 %, as the page sends it; answers its run id. */
async function applyRun(changes: [sku: string, type: "list" | "sell"][]): Promise<string> {
  const run = randomUUID();
  const rows = [];
  for (const [index, [sku, type]] of changes.entries())
    rows.push(row(index + 2, sku, type, applyPercent((await sandboxPrices(sku))[type]!, -1000)));
  const answer = await actions.applyPriceBatchAction(shopId, rows, { run: { id: run, source: "percent" } });
  expect(answer.status).toBe("success");
  expect(answer.data?.results.map((result) => result.outcome)).toEqual(rows.map(() => "applied"));
  return run;
}

async function previewUndo(runId: string) {
  const form = new FormData();
  form.set("undo", runId);
  return actions.previewBulkPricesAction(shopId, form);
}

/** The rows an undo's preview sends, as the page turns them into a batch. */
const undoRows = (preview: BulkPreview): ApplyPriceRow[] =>
  preview.rows.flatMap((previewRow) =>
    previewRow.kind === "changed"
      ? [{ ...row(previewRow.line, previewRow.sku, previewRow.type, previewRow.value), amount: previewRow.amount }]
      : [],
  );

const undoRun = (undoOf: string, rows: ApplyPriceRow[], confirmed: string[] = []) =>
  actions.applyPriceBatchAction(shopId, rows, { run: { id: randomUUID(), source: "undo", undoOf }, confirmed });

describe("undoing a bulk change", () => {
  it("sends back the prices the run replaced, keeps one changed since, and logs each as an undo of that run", async () => {
    const before = { cam1: await sandboxPrices("CAM-001"), cam2: await sandboxPrices("CAM-002"), cam3: await sandboxPrices("CAM-003") };
    const run = await applyRun([
      ["CAM-001", "sell"],
      ["CAM-002", "sell"],
      ["CAM-003", "list"],
    ]);
    // The run's entries keep what the sandbox held just before each price was sent.
    expect((await auditOf(run)).sets.map((entry) => [entry.subject, (entry.before as { value: number }).value])).toEqual([
      ["CAM-001", before.cam1.sell],
      ["CAM-002", before.cam2.sell],
      ["CAM-003", before.cam3.list],
    ]);
    // Someone sets CAM-002's price again after the run: that newer price is kept.
    const shop = (await shops.findCurrentShop(shopId))!;
    const later = before.cam2.sell! - 500;
    await prices.setPriceGuarded(shop, { sku: "CAM-002", type: "sell", value: later, ...brl }, { confirmed: true });

    asked.length = 0;
    const preview = await previewUndo(run);
    if (preview.status !== "success") throw new Error(preview.message);
    expect(preview.data).toMatchObject({ source: "undo", undoOf: run });
    expect(
      preview.data.rows.map((previewRow) => [
        previewRow.sku,
        previewRow.kind,
        previewRow.kind === "invalid" ? previewRow.reason : previewRow.value,
      ]),
    ).toEqual([
      ["CAM-001", "changed", before.cam1.sell],
      ["CAM-002", "invalid", { code: "undoChangedSince" }],
      ["CAM-003", "changed", before.cam3.list],
    ]);
    expect(preview.data.rows[1]).toMatchObject({ kept: { value: later } });

    const undone = await undoRun(run, undoRows(preview.data));
    expect(asked).toEqual(["prices.change", "prices.change"]);
    expect(undone.status).toBe("success");
    expect(undone.data?.results.map((result) => [result.line, result.outcome])).toEqual([
      [2, "applied"],
      [4, "applied"],
    ]);
    expect(await sandboxPrices("CAM-001")).toEqual(before.cam1);
    expect((await sandboxPrices("CAM-002")).sell).toBe(later);
    expect(await sandboxPrices("CAM-003")).toEqual(before.cam3);

    // Each price sent back is an entry naming the run it undoes, from the run's price to the one before.
    const { rows: undoEntries } = await sql.query<{ subject: string; before: { value: number }; after: Record<string, unknown> }>(
      `SELECT "subject", "before", "after" FROM "AuditEntry" WHERE "sellerId" = $1 AND "action" = 'price.set' AND "after"->>'undoOf' = $2 ORDER BY "id"`,
      [shopId, run],
    );
    expect(undoEntries.map((entry) => [entry.subject, entry.before.value, entry.after.value])).toEqual([
      ["CAM-001", applyPercent(before.cam1.sell!, -1000), before.cam1.sell],
      ["CAM-003", applyPercent(before.cam3.list!, -1000), before.cam3.list],
    ]);
    const undoRunId = undoEntries[0]!.after.run as string;
    expect((await auditOf(undoRunId)).bulk.map((entry) => entry.after)).toEqual([
      { run: undoRunId, source: "undo", undoOf: run, sent: 2, failed: 0, skipped: 0 },
    ]);

    // CAM-002 named anyway (a stale page): judged on the sandbox's price now, it is kept and counted as skipped.
    const stale = await undoRun(run, [row(3, "CAM-002", "sell", before.cam2.sell!)]);
    expect(stale.data?.results).toEqual([
      { line: 3, outcome: "skipped", message: "Changed after the bulk change: left as it is", priceId: null },
    ]);
    expect((await sandboxPrices("CAM-002")).sell).toBe(later);
  });

  it("sends each price back once, however often the undo is asked for, even twice at once", async () => {
    const start = await sandboxPrices("CAF-001");
    const run = await applyRun([["CAF-001", "sell"]]);
    const preview = await previewUndo(run);
    if (preview.status !== "success") throw new Error(preview.message);
    const rows = undoRows(preview.data);

    // A double click: two undoes of the same run at the same time.
    const [first, second] = await Promise.all([undoRun(run, rows), undoRun(run, rows)]);
    const outcomes = [first, second].flatMap((answer) => answer.data?.results.map((result) => result.outcome) ?? []);
    expect(outcomes.sort()).toEqual(["applied", "skipped"]);
    expect(await sandboxPrices("CAF-001")).toEqual(start);
    const sentBack = async () =>
      (
        await sql.query(`SELECT 1 FROM "AuditEntry" WHERE "sellerId" = $1 AND "action" = 'price.set' AND "after"->>'undoOf' = $2`, [
          shopId,
          run,
        ])
      ).rowCount;
    expect(await sentBack()).toBe(1);

    // Later, again: the price is already back, so nothing is sent; the preview says so.
    const again = await undoRun(run, rows);
    expect(again.data?.results).toEqual([
      { line: 2, outcome: "skipped", message: "Already at the price it had before the bulk change", priceId: null },
    ]);
    expect(await sentBack()).toBe(1);
    const previewAgain = await previewUndo(run);
    expect(
      previewAgain.status === "success" && previewAgain.data.rows.map((previewRow) => previewRow.kind === "invalid" && previewRow.reason),
    ).toEqual([{ code: "undoAlreadyBack" }]);
  });

  it("holds an undo the price guard objects to, like any change, until its product is confirmed", async () => {
    const start = (await sandboxPrices("FON-003")).sell!;
    // A −40 % change confirmed past the guard; going back is a +66.7 % move, beyond the ±30 % limit.
    const run = randomUUID();
    const cut = applyPercent(start, -4000);
    const applied = await actions.applyPriceBatchAction(shopId, [row(2, "FON-003", "sell", cut)], {
      run: { id: run, source: "percent" },
      confirmed: ["FON-003"],
    });
    expect(applied.data?.results.map((result) => result.outcome)).toEqual(["applied"]);
    // With a cost, the guard's words say what margin going back leaves.
    await costs.setCommissionRate(shopId, maria, 1000);
    await costs.setProductCost(shopId, maria, { sku: "FON-003", cost: Math.round(start / 2) }, "prices");

    const preview = await previewUndo(run);
    if (preview.status !== "success") throw new Error(preview.message);
    const margin = marginOf({ value: start, ...brl }, Math.round(start / 2), 1000)!;
    expect(preview.data.rows).toMatchObject([
      {
        sku: "FON-003",
        kind: "changed",
        value: start,
        held: [{ code: "moveTooLarge", type: "sell", limitPercent: 30, margin: { amount: margin.amount, percentBps: margin.percentBps } }],
      },
    ]);

    const held = await undoRun(run, undoRows(preview.data));
    expect(held.data?.results).toMatchObject([
      { outcome: "held", message: expect.stringMatching(/; Leaves a 4\d(\.\d)?% margin \(R\$[\d.,]+ a sale\)$/) },
    ]);
    expect((await sandboxPrices("FON-003")).sell).toBe(cut);
    const confirmed = await undoRun(run, undoRows(preview.data), ["FON-003"]);
    expect(confirmed.data?.results.map((result) => result.outcome)).toEqual(["applied"]);
    expect((await sandboxPrices("FON-003")).sell).toBe(start);
    await costs.setCommissionRate(shopId, maria, null);
  });

  it("refuses a row the run did not set, an undo of an undo, and a run it cannot find", async () => {
    const start = await sandboxPrices("LIV-001");
    const run = await applyRun([["LIV-001", "sell"]]);
    const cut = applyPercent(start.sell!, -1000);
    // A forged row: another price than the one before the run, and a product the run did not touch.
    const forged = await undoRun(run, [row(2, "LIV-001", "sell", 1), row(3, "LIV-002", "sell", 100)]);
    expect(forged.data?.results.map((result) => [result.outcome, result.message])).toEqual([
      ["skipped", "Not set by the bulk change being undone: not sent"],
      ["skipped", "Not set by the bulk change being undone: not sent"],
    ]);
    expect((await sandboxPrices("LIV-001")).sell).toBe(cut);

    const preview = await previewUndo(run);
    if (preview.status !== "success") throw new Error(preview.message);
    await undoRun(run, undoRows(preview.data));
    const undoEntry = (
      await sql.query<{ run: string }>(
        `SELECT "after"->>'run' AS run FROM "AuditEntry" WHERE "sellerId" = $1 AND "action" = 'price.set' AND "after"->>'undoOf' = $2`,
        [shopId, run],
      )
    ).rows[0]!;
    expect(await previewUndo(undoEntry.run)).toMatchObject({
      status: "error",
      message: "An undo cannot itself be undone: make a new change instead.",
    });
    expect(await previewUndo(randomUUID())).toMatchObject({ status: "error", message: expect.stringContaining("can no longer be undone") });
    expect(await previewUndo("not a run")).toMatchObject({ status: "error" });
  });
});
