import { expect, test } from "@playwright/test";
import { marginOf } from "../../features/prices/margin";
import { applyPercent } from "../../features/prices/price-products";
import {
  buildActions,
  callAction,
  signInAs,
  expectNoSidewaysScroll,
  expectTouchSized,
  gotoHydrated,
  sandboxPrices,
  shopPathOf,
  storedAccessToken,
  withE2eDatabase,
} from "./support";
import type { SandboxPrice } from "./support";

// The price guard (issue 29), in Portuguese as a Brazilian seller works: costs of two products set
// in place on prices by product, then a −40 % change of their sell prices. The preview names both
// as below cost and beyond the ±30 % limit, nothing reaches the marketplace (its API says so)
// until each product is confirmed, and then the new prices do. A CSV row and an in-place edit
// below cost are stopped too. At 1366 px; one check at 390 px.
const SELLER = "seller@example.com";
const PRODUCTS = ["GAR-001", "GAR-002"] as const;
const brl = (cents: number) => new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" }).format(cents / 100);
/** Cents as a pt-BR amount to type: 1234,56. */
const typed = (cents: number) => `${Math.floor(cents / 100)},${String(cents % 100).padStart(2, "0")}`;

/** The guard starts from the shop's defaults (30 %, no costs, no commission rate set) and leaves nothing behind for other tests. */
async function resetGuard() {
  await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ id: string }>(`SELECT id FROM "Seller" WHERE email = $1`, [SELLER]);
    for (const { id } of rows) {
      await client.query(`DELETE FROM "ProductCost" WHERE "sellerId" = $1`, [id]);
      await client.query(`UPDATE "Seller" SET "priceChangeLimitPercent" = 30, "commissionRateBps" = NULL WHERE id = $1`, [id]);
    }
  });
}

/** A commission rate set by hand, so the margin the guard's words name does not depend on the orders mirrored so far. */
const COMMISSION_BPS = 1000;
const setCommission = () =>
  withE2eDatabase((client) => client.query(`UPDATE "Seller" SET "commissionRateBps" = $2 WHERE email = $1`, [SELLER, COMMISSION_BPS]));

/** The guard's words for the margin a new sell price leaves: "Deixa margem de −16,9% (-R$ 5,06 por venda)". */
function marginWords(sell: number, cost: number): string {
  const margin = marginOf({ value: sell, currency: "BRL", normalizer: 100 }, cost, COMMISSION_BPS)!;
  const percent = new Intl.NumberFormat("pt-BR", { style: "percent", maximumFractionDigits: 1 }).format(
    Math.abs(margin.percentBps!) / 10_000,
  );
  return `Deixa margem de ${margin.percentBps! < 0 ? "\u2212" : ""}${percent} (${brl(margin.amount)} por venda)`;
}

const sellOf = (prices: SandboxPrice[], sku: string) => prices.find((price) => price.sku === sku && price.type === "sell")!;

test.describe("at 1366 px", () => {
  test.use({ locale: "pt-BR", viewport: { width: 1366, height: 900 } });
  test.beforeEach(resetGuard);
  test.afterEach(resetGuard);

  test("a −40 % change below cost is held for both products, nothing is sent until each is confirmed, then the sandbox holds the new prices", async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    await signInAs(page, SELLER);
    await setCommission();
    const token = await storedAccessToken(SELLER);
    const before = await sandboxPrices(request, token);
    // A cost at 70 % of the sell price: −40 % sells below it.
    const costOf = new Map(PRODUCTS.map((sku) => [sku, Math.round(sellOf(before, sku).value * 0.7)]));

    await gotoHydrated(page, "/prices/products?search=GAR-00");
    for (const sku of PRODUCTS) {
      await page.getByRole("button", { name: `: Custo de ${sku}` }).click();
      await page.getByRole("textbox", { name: `Custo de ${sku}` }).fill(typed(costOf.get(sku)!));
      await page.getByRole("button", { name: "Salvar custo" }).click();
      const row = page.locator("tbody tr", { has: page.getByRole("checkbox", { name: `Selecionar ${sku}` }) });
      await expect(row.getByTestId("cost")).toHaveText(brl(costOf.get(sku)!));
      // The margin shows beside it, in money and %.
      await expect(row.getByTestId("margin")).toHaveText(/R\$\s?[\d.,]+ \([+−]?[\d,]+%\)/);
    }

    for (const sku of PRODUCTS) await page.getByRole("checkbox", { name: `Selecionar ${sku}` }).check();
    await expect(page.getByRole("heading", { name: "Alterar 2 produtos" })).toBeVisible();
    await page.getByRole("combobox", { name: /^Preço/ }).selectOption("sell");
    await page.getByRole("radio", { name: "Por porcentagem" }).check();
    await page.getByLabel(/Porcentagem/).fill("-40");
    await page.getByRole("button", { name: "Pré-visualizar" }).click();

    // The preview names both products as held, with the seller's words for why.
    const preview = page.getByTestId("bulk-change-preview");
    for (const sku of PRODUCTS) {
      const row = preview.locator("tbody tr", { hasText: sku });
      await expect(row.getByTestId("held-reasons")).toContainText(`Abaixo do custo (${brl(costOf.get(sku)!)})`);
      await expect(row.getByTestId("held-reasons")).toContainText("Mudança maior que 30% no preço de venda (−40%)");
      // And the margin the new price leaves, with the product's cost and the shop's commission.
      await expect(row.getByTestId("held-reasons")).toContainText(
        marginWords(applyPercent(sellOf(before, sku).value, -4000), costOf.get(sku)!),
      );
    }
    const held = page.getByTestId("held-changes");
    await expect(held).toContainText("2 produtos precisam da sua confirmação");
    await expect(held.getByTestId("held-product")).toHaveCount(2);
    const nothing = page.getByRole("button", { name: "Nada a aplicar" });
    await expect(nothing).toBeDisabled();
    expect((await sandboxPrices(request, token)).map((price) => price.value)).toEqual(before.map((price) => price.value));

    // One product confirmed: one change to send; the other still held.
    await held.getByRole("checkbox", { name: /Enviar o novo preço de GAR-001/ }).check();
    await expect(page.getByRole("button", { name: "Aplicar 1 alteração" })).toBeEnabled();
    await held.getByRole("checkbox", { name: /Enviar o novo preço de GAR-002/ }).check();
    expect((await sandboxPrices(request, token)).map((price) => price.value)).toEqual(before.map((price) => price.value));

    await page.getByRole("button", { name: "Aplicar 2 alterações" }).click();
    await expect(page.getByTestId("bulk-change-outcome")).toHaveText(["aplicado", "aplicado"], { timeout: 30_000 });
    const after = await sandboxPrices(request, token);
    for (const sku of PRODUCTS) expect(sellOf(after, sku).value, sku).toBe(applyPercent(sellOf(before, sku).value, -4000));
  });

  test("a CSV row below cost is held and not sent while the file's other rows are; an in-place edit below cost is stopped", async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    await signInAs(page, SELLER);
    const token = await storedAccessToken(SELLER);
    const before = await sandboxPrices(request, token);
    const sell1 = sellOf(before, "GAR-001").value;
    const list2 = before.find((price) => price.sku === "GAR-002" && price.type === "list")!.value;
    // GAR-001 costs more than its sell price less a real: a small cut falls below it.
    await gotoHydrated(page, "/prices/products?search=GAR-001");
    await page.getByRole("button", { name: ": Custo de GAR-001" }).click();
    await page.getByRole("textbox", { name: "Custo de GAR-001" }).fill(typed(sell1 - 50));
    await page.getByRole("button", { name: "Salvar custo" }).click();
    await expect(page.getByTestId("cost")).toHaveText(brl(sell1 - 50));

    // The CSV, as a pt-BR spreadsheet saves it: GAR-001 below cost (held), GAR-002's list price up 1 % (sent).
    await gotoHydrated(page, "/prices/bulk");
    const csv = `\uFEFFsku;type;value;currency\r\nGAR-001;sell;${typed(sell1 - 100)};BRL\r\nGAR-002;list;${typed(Math.round(list2 * 1.01))};BRL\r\n`;
    await page.getByLabel("Arquivo CSV").setInputFiles({ name: "precos.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page.getByRole("button", { name: "Ver prévia" }).click();
    const heldRow = page.locator('tr[data-line="2"]');
    await expect(heldRow).toHaveAttribute("data-held", "true");
    await expect(heldRow.getByTestId("held-reasons")).toContainText(`Abaixo do custo (${brl(sell1 - 50)})`);
    await expect(page.getByTestId("held-changes").getByRole("checkbox", { name: /Enviar o novo preço de GAR-001/ })).not.toBeChecked();

    await page.getByRole("button", { name: "Aplicar 1 alteração" }).click();
    await expect(page.locator('tr[data-line="3"]').getByTestId("row-result")).toHaveText("aplicada", { timeout: 30_000 });
    await expect(heldRow.getByTestId("row-result")).toHaveText("retida: não enviada");
    let now = await sandboxPrices(request, token);
    expect(sellOf(now, "GAR-001").value).toBe(sell1);
    expect(now.find((price) => price.sku === "GAR-002" && price.type === "list")!.value).toBe(Math.round(list2 * 1.01));

    // In place: the sell price below cost is not sent; the cell says why and offers to send it anyway.
    await gotoHydrated(page, "/prices/products?search=GAR-001");
    await page.getByRole("button", { name: ": Preço de venda de GAR-001" }).click();
    await page.getByRole("textbox", { name: "Preço de venda de GAR-001" }).fill(typed(sell1 - 100));
    await page.keyboard.press("Enter");
    const notice = page.getByTestId("price-held");
    await expect(notice).toContainText("Não enviado: GAR-001");
    await expect(notice).toContainText(`Abaixo do custo (${brl(sell1 - 50)})`);
    await expect(notice.getByRole("button", { name: /^Enviar mesmo assim/ })).toBeVisible();
    now = await sandboxPrices(request, token);
    expect(sellOf(now, "GAR-001").value).toBe(sell1);
    await page.getByRole("button", { name: "Cancelar" }).click();
    await expect(page.getByTestId("sell-price")).toHaveText(brl(sell1));
  });
});

test.describe("a change of currency", () => {
  test.use({ locale: "pt-BR", viewport: { width: 1366, height: 900 } });

  test("a forged price in another currency is held, however small; confirmed, it is sent and the audit log says so", async ({
    page,
    request,
  }) => {
    await signInAs(page, SELLER);
    const shopId = (await shopPathOf(page)).slice("/s/".length);
    const token = await storedAccessToken(SELLER);
    const sku = "PAN-001";
    const start = sellOf(await sandboxPrices(request, token), sku);
    const setPrice = buildActions().find((action) => action.name === "setProductPriceAction")!;
    const forged = (input: Record<string, unknown>) =>
      callAction(page.request, setPrice.id, [shopId, { sku, type: "sell", normalizer: 100, ...input }]);
    try {
      // What the attacker sent: USD 0.01, no confirmation. Held, and nothing reaches the marketplace.
      const held = await forged({ amount: "0.01", currency: "USD" });
      expect(held.status()).toBe(200);
      expect(await held.text()).toContain('"code":"currencyChange"');
      // PAN-001 has no cost: the guard says nothing of margin.
      expect(await held.text()).not.toContain('"margin"');
      expect(sellOf(await sandboxPrices(request, token), sku)).toMatchObject({ value: start.value, currency: "BRL" });

      // Confirmed for its product, it is sent, and the log says the guard was passed and why.
      const sent = await forged({ amount: "0.01", currency: "USD", confirm: sku });
      expect(await sent.text()).not.toContain("currencyChange");
      expect(sellOf(await sandboxPrices(request, token), sku)).toMatchObject({ value: 1, currency: "USD" });
      await page.goto(`/s/${shopId}/audit`);
      await expect(
        page
          .getByTestId("audit-entry")
          .filter({ hasText: `SKU ${sku}` })
          .first(),
      ).toContainText("confirmado apesar da trava de preço (outra moeda");
    } finally {
      // Back to reais for the other tests (confirmed: it is a change of currency again).
      // The call's language is English (callAction): a decimal point.
      await forged({ amount: (start.value / 100).toFixed(2), currency: "BRL", confirm: sku });
    }
    expect(sellOf(await sandboxPrices(request, token), sku)).toMatchObject({ value: start.value, currency: "BRL" });
  });
});

test.describe("at 390 px", () => {
  test.use({ locale: "pt-BR", viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  test.beforeEach(resetGuard);
  test.afterEach(resetGuard);

  test("on a phone, an in-place edit below cost is held with its reason on the card, the page fits, and sending anyway is a touch target", async ({
    page,
    request,
  }) => {
    await signInAs(page, SELLER);
    await setCommission();
    const token = await storedAccessToken(SELLER);
    const sell = sellOf(await sandboxPrices(request, token), "GAR-002").value;
    await gotoHydrated(page, "/prices/products?search=GAR-002");
    await page.getByRole("button", { name: ": Custo de GAR-002" }).tap();
    await page.getByRole("textbox", { name: "Custo de GAR-002" }).fill(typed(sell));
    await page.getByRole("button", { name: "Salvar custo" }).tap();
    await expect(page.getByTestId("cost")).toHaveText(brl(sell));

    await page.getByRole("button", { name: ": Preço de venda de GAR-002" }).tap();
    await page.getByRole("textbox", { name: "Preço de venda de GAR-002" }).fill(typed(sell - 1));
    await page.getByRole("button", { name: "Salvar", exact: true }).tap();
    const notice = page.getByTestId("price-held");
    await expect(notice).toContainText("Abaixo do custo");
    await expect(notice).toContainText(marginWords(sell - 1, sell));
    await expectTouchSized(notice.getByRole("button", { name: /^Enviar mesmo assim/ }));
    await expectNoSidewaysScroll(page);
    expect(sellOf(await sandboxPrices(request, token), "GAR-002").value).toBe(sell);
  });
});
