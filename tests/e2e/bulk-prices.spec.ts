import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import type { APIRequestContext, Page } from "@playwright/test";
import Papa from "papaparse";
import { sampleSku } from "@marketplace/api/schemas/fixtures";
import { E2E_SANDBOX_URL } from "../../scripts/lib/e2e-ports";
import { roundProductPrices } from "../../features/prices/bulk/price-rounding";
import { applyPercent } from "../../features/prices/price-products";
import {
  expectNoSidewaysScroll,
  expectTouchSized,
  gotoHydrated,
  signInAs,
  sandboxPrices,
  storedAccessToken,
  signOut,
  withE2eDatabase,
} from "./support";
import type { SandboxPrice } from "./support";

// The catalogue every PRO seller starts with (sandbox/seed.ts): 20 SKUs, a list and a sell price each.
const SEEDED_SKUS = [
  ...["CAM-001", "CAM-002", "CAM-003", "CAM-004"],
  ...["TEN-001", "TEN-002", "TEN-003"],
  ...["CAF-001", "CAF-002"],
  ...["FON-001", "FON-002", "FON-003"],
  ...["MOC-001", "MOC-002"],
  ...["LIV-001", "LIV-002"],
  ...["PAN-001", "PAN-002"],
  ...["GAR-001", "GAR-002"],
];
/** The seller's prices by "sku|type", from the sandbox's API. */
async function currentPrices(request: APIRequestContext, token: string): Promise<Map<string, SandboxPrice>> {
  return new Map((await sandboxPrices(request, token)).map((price) => [`${price.sku}|${price.type}`, price]));
}

/** A new SKU through the platform API, with the seller's own token. */
async function createSku(request: APIRequestContext, token: string, code: string) {
  const response = await request.post(`${E2E_SANDBOX_URL}/v1.0/marketplace/portfolios/skus`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { ...sampleSku(code), title: { pt_BR: `Produto ${code}` }, brand: "E2E" },
  });
  expect(response.status()).toBe(201);
}

/** Cents as currency units, with a point or (quoted) a comma. */
function amount(cents: number, comma: boolean): string {
  const text = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
  return comma ? `"${text.replace(".", ",")}"` : text;
}

/** A value that differs from the current one, so every row is a change. */
function changedRows(
  prices: Map<string, SandboxPrice>,
  skus: readonly string[],
  bump: number,
): { line: string; sku: string; type: string; value: number }[] {
  return skus.flatMap((sku, i) =>
    (["list", "sell"] as const).map((type, j) => {
      const current = prices.get(`${sku}|${type}`);
      expect(current, `${sku} ${type} has a seeded price`).toBeDefined();
      const value = current!.value + bump + i * 2 + j;
      return { line: `${sku},${type},${amount(value, (i + j) % 2 === 1)},BRL`, sku, type, value };
    }),
  );
}

async function upload(page: Page, csv: string) {
  await page.goto("/prices/bulk");
  await expect(page.getByRole("heading", { name: "Bulk price update" })).toBeVisible();
  await page.getByLabel("CSV file").setInputFiles({ name: "prices.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await page.getByRole("button", { name: "Preview" }).click();
}

test.describe("bulk price update", () => {
  test.afterEach(async ({ request }) => {
    await request.delete(`${E2E_SANDBOX_URL}/_sandbox/faults`);
  });

  test("a bulk upload of 50 rows with 3 bad rows applies 47 and reports 3, and the results download", async ({ page, request }) => {
    test.setTimeout(120_000);
    await signInAs(page, "seller@example.com");
    const token = await storedAccessToken("seller@example.com");

    // 40 pairs from the seeded catalogue, 7 from new SKUs (no price yet), 3 bad rows.
    const run = Date.now().toString(36).toUpperCase();
    const newSkus = [1, 2, 3, 4].map((n) => `BULK-${run}-${n}`);
    for (const code of newSkus) await createSku(request, token, code);
    const before = await currentPrices(request, token);
    const good = [
      ...changedRows(before, SEEDED_SKUS, 111),
      ...newSkus.flatMap((sku, i) => [
        { line: `${sku},list,${amount(5000 + i, false)},BRL`, sku, type: "list", value: 5000 + i },
        { line: `${sku},sell,${amount(4000 + i, true)},brl`, sku, type: "sell", value: 4000 + i },
      ]),
    ].slice(0, 47);
    const bad = ["CAM-001,promo,10.00,BRL", "TEN-001,sell,12.345,BRL", "CAF-001,list,10.00,XYZ"];
    const lines = [...good.map((row) => row.line)];
    // Bad rows at file lines 10, 26 and 42 (line 1 is the header).
    lines.splice(8, 0, bad[0]!);
    lines.splice(24, 0, bad[1]!);
    lines.splice(40, 0, bad[2]!);
    expect(lines).toHaveLength(50);
    await upload(page, `sku,type,value,currency\r\n${lines.join("\r\n")}\r\n`);

    await expect(page.getByTestId("count-changed")).toHaveText("40 changed");
    await expect(page.getByTestId("count-new-price")).toHaveText("7 new price");
    await expect(page.getByTestId("count-unchanged")).toHaveText("0 unchanged");
    await expect(page.getByTestId("count-invalid")).toHaveText("3 invalid");
    await expect(page.locator('tr[data-line="10"]')).toContainText('unknown type "promo"');
    await expect(page.locator('tr[data-line="26"]')).toContainText("more decimals");
    await expect(page.locator('tr[data-line="42"]')).toContainText('unknown currency code "XYZ"');
    await expect(page.locator('tr[data-line="2"]')).toContainText("→");

    await page.getByRole("button", { name: "Apply 47 changes" }).click();
    await expect(page.getByTestId("apply-status")).toHaveText("Done 47 of 47", { timeout: 60_000 });
    await expect(page.getByRole("progressbar", { name: "Rows applied" })).toHaveAttribute("aria-valuenow", "47");
    await expect(page.getByTestId("applied-count")).toHaveText("47");
    await expect(page.getByTestId("invalid-count")).toHaveText("3");
    await expect(page.getByTestId("rejected-count")).toHaveText("0");
    await expect(page.getByTestId("failed-count")).toHaveText("0");

    // The platform holds the new prices.
    const after = await currentPrices(request, token);
    for (const row of good) expect(after.get(`${row.sku}|${row.type}`)?.value, `${row.sku} ${row.type}`).toBe(row.value);

    const downloading = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download results (CSV)" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe("bulk-price-results.csv");
    const text = (await readFile(await download.path(), "utf8")).replace(/^\uFEFF/, "");
    const [header, ...rows] = Papa.parse<string[]>(text.trim()).data;
    expect(header).toEqual(["line", "sku", "type", "value", "currency", "outcome", "message", "price_id"]);
    expect(rows).toHaveLength(50);
    expect(rows.map((row) => Number(row[0]))).toEqual(Array.from({ length: 50 }, (_, i) => i + 2));
    const applied = rows.filter((row) => row[5] === "applied");
    expect(applied).toHaveLength(47);
    for (const row of applied) {
      const price = after.get(`${row[1]}|${row[2]}`);
      expect(row[7]).toBe(price?.id);
      // Amounts come back in currency units, as read (trailing zeros dropped: "61.10" → "61.1").
      expect(Math.round(Number(row[3]) * 100)).toBe(price!.value);
    }
    const invalid = rows.filter((row) => row[5] === "invalid");
    expect(invalid.map((row) => [row[0], row[1], row[2]])).toEqual([
      ["10", "CAM-001", "promo"],
      ["26", "TEN-001", "sell"],
      ["42", "CAF-001", "list"],
    ]);
    expect(invalid.map((row) => row[6])).toEqual([
      expect.stringContaining("unknown type"),
      expect.stringContaining("more decimals"),
      expect.stringContaining("unknown currency code"),
    ]);
  });

  test("slows down when the marketplace rate-limits, shows it, and still applies every row", async ({ page, request }) => {
    test.setTimeout(120_000);
    await signInAs(page, "seller2@example.com");
    const token = await storedAccessToken("seller2@example.com");
    const rows = changedRows(await currentPrices(request, token), SEEDED_SKUS.slice(0, 15), 223);
    await upload(page, `sku,type,value,currency\n${rows.map((row) => row.line).join("\n")}\n`);
    await expect(page.getByTestId("count-changed")).toHaveText("30 changed");

    // Eight calls a minute: the update is blocked after eight rows and must wait for the window.
    const fault = await request.post(`${E2E_SANDBOX_URL}/_sandbox/faults`, { data: { rateLimitPerMinute: 8 } });
    expect(fault.status()).toBe(200);
    await page.getByRole("button", { name: "Apply 30 changes" }).click();

    await expect(page.getByTestId("slowdown")).toContainText("rate limit", { timeout: 30_000 });
    const progress = page.getByRole("progressbar", { name: "Rows applied" });
    expect(Number(await progress.getAttribute("aria-valuenow"))).toBeLessThan(30);
    await expect(page.getByTestId("row-result").filter({ hasText: "pending" }).first()).toBeVisible();

    // The block lifts (as a new window would); "Send now" skips the rest of the platform's
    // Retry-After, and the pending rows are sent again.
    await request.delete(`${E2E_SANDBOX_URL}/_sandbox/faults`);
    await page.getByRole("button", { name: "Send now" }).click();
    await expect(page.getByTestId("apply-status")).toHaveText("Done 30 of 30", { timeout: 60_000 });
    await expect(progress).toHaveAttribute("aria-valuenow", "30");
    await expect(page.getByTestId("applied-count")).toHaveText("30");
    await expect(page.getByTestId("slowdown-count")).toContainText(/Slowed down \d+ time/);

    const after = await currentPrices(request, token);
    for (const row of rows) expect(after.get(`${row.sku}|${row.type}`)?.value, `${row.sku} ${row.type}`).toBe(row.value);
  });

  test("a run goes on while the seller opens other pages, and the bulk page shows it again where it is", async ({ page, request }) => {
    test.setTimeout(120_000);
    await signInAs(page, "seller2@example.com");
    const token = await storedAccessToken("seller2@example.com");
    const rows = changedRows(await currentPrices(request, token), SEEDED_SKUS.slice(15, 20), 331);
    await upload(page, `sku,type,value,currency\n${rows.map((row) => row.line).join("\n")}\n`);
    await expect(page.getByTestId("count-changed")).toHaveText("10 changed");
    await request.post(`${E2E_SANDBOX_URL}/_sandbox/faults`, { data: { latencyMs: 600 } });
    await page.getByRole("button", { name: "Apply 10 changes" }).click();
    await expect(page.getByTestId("apply-status")).not.toHaveText("Done 10 of 10");

    // Away, through the app's own links (the tab keeps running), and back.
    await page.getByRole("link", { name: "Orders", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Orders" })).toBeVisible();
    await page.getByRole("link", { name: "Prices", exact: true }).click();
    await page.getByRole("link", { name: "Bulk update from CSV" }).click();
    await expect(page.getByTestId("apply-status")).toHaveText("Done 10 of 10", { timeout: 60_000 });
    await expect(page.getByTestId("applied-count")).toHaveText("10");
    const after = await currentPrices(request, token);
    for (const row of rows) expect(after.get(`${row.sku}|${row.type}`)?.value, `${row.sku} ${row.type}`).toBe(row.value);
  });

  test("an upload stays with its shop: when another person signs in on the same browser meanwhile, it stops and reaches nobody else's prices", async ({
    page,
    context,
    request,
  }) => {
    test.setTimeout(120_000);
    await signInAs(page, "seller2@example.com");
    const token2 = await storedAccessToken("seller2@example.com");
    const rows = changedRows(await currentPrices(request, token2), SEEDED_SKUS.slice(0, 15), 419);
    await upload(page, `sku,type,value,currency\n${rows.map((row) => row.line).join("\n")}\n`);
    await request.post(`${E2E_SANDBOX_URL}/_sandbox/faults`, { data: { latencyMs: 400 } });
    await page.getByRole("button", { name: "Apply 30 changes" }).click();
    await expect(page.getByTestId("apply-status")).not.toHaveText("Done 30 of 30");

    // Another tab: sign out, and sign in as another seller (the cookies are the browser's).
    const other = await context.newPage();
    await other.goto("/");
    await signOut(other);
    // Signed out before signing in again: connecting while the sign-out is still on its way races it.
    await expect(other.getByRole("link", { name: "Connect account" })).toBeVisible();
    await signInAs(other, "seller@example.com");
    const token1 = await storedAccessToken("seller@example.com");
    const shopPricesBefore = await currentPrices(request, token1);

    // The upload's next batch names its shop (Loja Dois), which the person now signed in is not in:
    // refused, and the tab is told so.
    await expect(page).toHaveURL(/\/refused$/, { timeout: 60_000 });
    await expect(page.getByRole("heading", { name: "You can't open this" })).toBeVisible();
    await request.delete(`${E2E_SANDBOX_URL}/_sandbox/faults`);
    // Seller's own prices for those SKUs are untouched.
    const shopPricesAfter = await currentPrices(request, token1);
    for (const row of rows)
      expect(shopPricesAfter.get(`${row.sku}|${row.type}`)?.value).toBe(shopPricesBefore.get(`${row.sku}|${row.type}`)?.value);
  });
});

// Issue 40, point 10: a change by percentage with the cents rounded (",90"), applied, then undone,
// in Portuguese, at a desk and on a phone. The sandbox's prices say what was sent each time; a
// price changed by someone else after the change is kept by the undo, and the undo says so.
const SELLER = "seller@example.com";
const reais = (cents: number) => new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" }).format(cents / 100);

/** What −10 % with the cents ending in `ending` makes of a product's list and sell prices. */
function roundedCut(prices: Map<string, SandboxPrice>, sku: string, ending: "90" | "99") {
  const list = prices.get(`${sku}|list`)!;
  const sell = prices.get(`${sku}|sell`)!;
  const cut = (price: SandboxPrice) => ({ ...price, value: applyPercent(price.value, -1000) });
  const rounded = roundProductPrices({ list: cut(list), sell: cut(sell) }, { list, sell }, ending);
  return { list: rounded.list!, sell: rounded.sell! };
}

/** How many prices of these products the log records as sent back by an undo. */
const undoEntries = (skus: readonly string[]) =>
  withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM "AuditEntry" a JOIN "Seller" s ON s.id = a."sellerId"
       WHERE s.email = $1 AND a."action" = 'price.set' AND a."after" ? 'undoOf' AND a."subject" = ANY($2::text[])`,
      [SELLER, skus],
    );
    return rows[0]!.count;
  });

async function changeByPercentRounded(page: Page, skus: readonly string[], search: string, ending: "90" | "99") {
  await gotoHydrated(page, `/prices/products?search=${search}`);
  for (const sku of skus) await page.getByRole("checkbox", { name: `Selecionar ${sku}` }).check();
  await expect(page.getByRole("heading", { name: `Alterar ${skus.length} produtos` })).toBeVisible();
  await page.getByRole("combobox", { name: /^Preço/ }).selectOption("both");
  await page.getByRole("radio", { name: "Por porcentagem" }).check();
  await page.getByLabel(/Porcentagem/).fill("-10");
  await page.getByRole("combobox", { name: "Centavos" }).selectOption(ending);
  await page.getByRole("button", { name: "Pré-visualizar" }).click();
}

test.describe("rounding and undoing a bulk change, at 1366 px", () => {
  test.use({ locale: "pt-BR", viewport: { width: 1366, height: 900 } });

  test("−10 % ending in ,90 is previewed and sent rounded; undone, the prices go back, except one changed since, which is kept and named", async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const skus = ["LIV-001", "LIV-002"] as const;
    await signInAs(page, SELLER);
    const token = await storedAccessToken(SELLER);
    const before = await currentPrices(request, token);
    const expected = new Map(skus.map((sku) => [sku, roundedCut(before, sku, "90")]));
    await changeByPercentRounded(page, skus, "LIV-00", "90");

    // Each new price ends in ,90, list and sell alike, and nothing is sent yet.
    const rows = page.getByTestId("bulk-change-preview").locator("tbody tr");
    await expect(rows).toHaveCount(4);
    for (const [index, [sku, type]] of skus.flatMap((sku) => [[sku, "list"] as const, [sku, "sell"] as const]).entries()) {
      await expect(rows.nth(index).locator("td").nth(2)).toHaveText(reais(before.get(`${sku}|${type}`)!.value));
      await expect(rows.nth(index).locator("td").nth(3)).toHaveText(reais(expected.get(sku)![type]));
      await expect(rows.nth(index).locator("td").nth(3)).toHaveText(/,90$/);
    }
    await page.getByRole("button", { name: "Aplicar 4 alterações" }).click();
    await expect(page.getByTestId("bulk-change-outcome")).toHaveText(["aplicado", "aplicado", "aplicado", "aplicado"], { timeout: 30_000 });
    const applied = await currentPrices(request, token);
    for (const sku of skus) {
      expect(applied.get(`${sku}|list`)?.value, `${sku} list`).toBe(expected.get(sku)!.list);
      expect(applied.get(`${sku}|sell`)?.value, `${sku} sell`).toBe(expected.get(sku)!.sell);
    }

    // Someone sets LIV-002's sell price again after the change, straight on the marketplace.
    const later = expected.get("LIV-002")!.sell - 100;
    const set = await request.post(`${E2E_SANDBOX_URL}/v1.0/marketplace/portfolios/prices`, {
      headers: { Authorization: `Bearer ${token}` },
      data: { sku: "LIV-002", type: "sell", value: later, currency: "BRL", normalizer: 100, extras: {} },
    });
    expect(set.ok()).toBe(true);

    // Undo: previewed first, each price now → back, the one changed since kept with why; nothing sent yet.
    await page.getByRole("button", { name: "Desfazer", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Desfazer a alteração em massa" })).toBeVisible();
    await expect(page.getByTestId("bulk-change-outcome")).toHaveText([
      "volta ao preço de antes",
      "volta ao preço de antes",
      "volta ao preço de antes",
      "mudou depois da alteração em massa: fica como está",
    ]);
    await expect(rows.nth(0).locator("td").nth(3)).toHaveText(reais(before.get("LIV-001|list")!.value));
    expect((await currentPrices(request, token)).get("LIV-001|list")?.value).toBe(expected.get("LIV-001")!.list);

    // A double click sends the undo once.
    const undoneBefore = await undoEntries(skus);
    await page.getByRole("button", { name: "Desfazer 3 alterações" }).dblclick();
    await expect(page.getByTestId("bulk-change-outcome")).toHaveText(
      ["aplicado", "aplicado", "aplicado", "mudou depois da alteração em massa: fica como está"],
      { timeout: 30_000 },
    );
    const undone = await currentPrices(request, token);
    for (const key of ["LIV-001|list", "LIV-001|sell", "LIV-002|list"]) expect(undone.get(key)?.value, key).toBe(before.get(key)!.value);
    expect(undone.get("LIV-002|sell")?.value).toBe(later);
    expect(await undoEntries(skus)).toBe(undoneBefore + 3);
    // An undo is not undone in turn; a new change starts over.
    await expect(page.getByRole("button", { name: "Desfazer", exact: true })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Nova alteração" })).toBeVisible();
  });
});

test.describe("undoing a bulk change from a file, at 1366 px", () => {
  test.use({ locale: "pt-BR", viewport: { width: 1366, height: 900 } });

  test("a file's change is undone from its results: back to the prices before, a price changed since kept and counted", async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    await signInAs(page, SELLER);
    const token = await storedAccessToken(SELLER);
    const before = await currentPrices(request, token);
    const raised = (key: string) => before.get(key)!.value + 111;
    const typed = (cents: number) => `${Math.floor(cents / 100)},${String(cents % 100).padStart(2, "0")}`;
    const csv = `\uFEFFsku;type;value;currency\r\nCAF-001;sell;${typed(raised("CAF-001|sell"))};BRL\r\nCAF-002;sell;${typed(raised("CAF-002|sell"))};BRL\r\n`;
    await gotoHydrated(page, "/prices/bulk");
    await page.getByLabel("Arquivo CSV").setInputFiles({ name: "precos.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page.getByRole("button", { name: "Ver prévia" }).click();
    await page.getByRole("button", { name: "Aplicar 2 alterações" }).click();
    await expect(page.getByTestId("row-result")).toHaveText(["aplicada", "aplicada"], { timeout: 30_000 });
    expect((await currentPrices(request, token)).get("CAF-001|sell")?.value).toBe(raised("CAF-001|sell"));

    // CAF-002's price is set again elsewhere after the file.
    const later = raised("CAF-002|sell") + 50;
    const set = await request.post(`${E2E_SANDBOX_URL}/v1.0/marketplace/portfolios/prices`, {
      headers: { Authorization: `Bearer ${token}` },
      data: { sku: "CAF-002", type: "sell", value: later, currency: "BRL", normalizer: 100, extras: {} },
    });
    expect(set.ok()).toBe(true);

    await page.getByRole("button", { name: "Desfazer", exact: true }).click();
    await expect(page.getByText("Desfazendo a alteração em massa")).toBeVisible();
    await expect(page.getByTestId("count-changed")).toHaveText("1 volta ao preço de antes");
    await expect(page.getByTestId("count-invalid")).toHaveText("1 fica como está");
    await expect(page.locator('tr[data-line="3"]')).toContainText("Mudou depois da alteração em massa: fica como está");
    await page.getByRole("button", { name: "Desfazer 1 alteração" }).click();
    await expect(page.getByTestId("row-result")).toHaveText(["aplicada", "mantida"], { timeout: 30_000 });
    await expect(page.getByTestId("skipped-count")).toContainText("1 preço ficou como estava");
    const undone = await currentPrices(request, token);
    expect(undone.get("CAF-001|sell")?.value).toBe(before.get("CAF-001|sell")!.value);
    expect(undone.get("CAF-002|sell")?.value).toBe(later);
    await expect(page.getByRole("button", { name: "Desfazer", exact: true })).toHaveCount(0);
  });
});

test.describe("rounding and undoing a bulk change, at 390 px", () => {
  test.use({ locale: "pt-BR", viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test("on a phone, −10 % ending in ,99 is sent rounded, undone with a tap, and the page fits", async ({ page, request }) => {
    test.setTimeout(120_000);
    const skus = ["MOC-001", "MOC-002"] as const;
    await signInAs(page, SELLER);
    const token = await storedAccessToken(SELLER);
    const before = await currentPrices(request, token);
    const expected = new Map(skus.map((sku) => [sku, roundedCut(before, sku, "99")]));
    await changeByPercentRounded(page, skus, "MOC-00", "99");

    const outcomes = page.getByTestId("bulk-change-preview").getByTestId("bulk-change-outcome");
    await expect(outcomes).toHaveCount(4);
    await expectNoSidewaysScroll(page);
    await page.getByRole("button", { name: "Aplicar 4 alterações" }).tap();
    await expect(outcomes).toHaveText(["aplicado", "aplicado", "aplicado", "aplicado"], { timeout: 30_000 });
    const applied = await currentPrices(request, token);
    for (const sku of skus) {
      expect(applied.get(`${sku}|list`)?.value, `${sku} list`).toBe(expected.get(sku)!.list);
      expect(applied.get(`${sku}|sell`)?.value, `${sku} sell`).toBe(expected.get(sku)!.sell);
      expect(applied.get(`${sku}|sell`)!.value % 100).toBe(99);
    }

    const undo = page.getByRole("button", { name: "Desfazer", exact: true });
    await expectTouchSized(undo);
    await undo.tap();
    await expect(outcomes).toHaveText(Array(4).fill("volta ao preço de antes"));
    await expectNoSidewaysScroll(page);
    await page.getByRole("button", { name: "Desfazer 4 alterações" }).tap();
    await expect(outcomes).toHaveText(["aplicado", "aplicado", "aplicado", "aplicado"], { timeout: 30_000 });
    const undone = await currentPrices(request, token);
    for (const sku of skus)
      for (const type of ["list", "sell"])
        expect(undone.get(`${sku}|${type}`)?.value, `${sku} ${type}`).toBe(before.get(`${sku}|${type}`)!.value);
    await expectNoSidewaysScroll(page);
  });
});
