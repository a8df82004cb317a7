import { expect, test } from "@playwright/test";
import { applyPercent } from "../../features/prices/price-products";
import { signInAs, expectNoSidewaysScroll, expectTouchSized, gotoHydrated, sandboxPrices, storedAccessToken } from "./support";

// Prices by product on a seller's phone (issue 26): 390 px wide, touch only, in Portuguese. Each
// product is a card with its name beside its code; a price is edited in place and a −10 % change
// previewed and applied on two products, all by tapping, and the page never scrolls sideways.
test.use({ locale: "pt-BR", viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

const money = (cents: number) => new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" }).format(cents / 100);

test("on a phone, prices by product are cards named beside their codes: a price is edited and a −10 % change applied to two products by touch", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await signInAs(page, "seller@example.com");
  const token = await storedAccessToken("seller@example.com");

  // The seeded SKUs are named by the orders that sold them, which the back-fill after connecting
  // mirrors; searching by a name finds their products ("camiseta" → CAM-…).
  const cards = page.locator("tbody tr");
  await expect(async () => {
    await gotoHydrated(page, "/prices/products?search=camiseta");
    await expect(cards.first().getByTestId("product-name")).toHaveText(/Camiseta/, { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  await expect(page.getByRole("heading", { name: "Preços por produto" })).toBeVisible();
  const codes = (await cards.locator("td:nth-child(2)").allTextContents()).map((code) => code.trim());
  expect(codes.length).toBeGreaterThanOrEqual(2);
  for (const code of codes) expect(code).toMatch(/^CAM-/);

  // Cards, not a table: no header row, each product's code and name side by side in its card.
  await expect(page.locator("thead").first()).toBeHidden();
  const first = cards.first();
  await expect(first.getByText(codes[0]!, { exact: true })).toBeVisible();
  await expect(first.getByTestId("product-name")).toBeVisible();
  const codeBox = (await first.getByText(codes[0]!, { exact: true }).boundingBox())!;
  const nameBox = (await first.getByTestId("product-name").boundingBox())!;
  expect(Math.abs(nameBox.x - codeBox.x)).toBeLessThan(4); // the name sits under the code, in the same column
  await expectNoSidewaysScroll(page);

  // A sell price edited in place, by tapping.
  const edited = codes[0]!;
  const edit = page.getByRole("button", { name: `: Preço de venda de ${edited}` });
  await expectTouchSized(edit);
  await edit.tap();
  const input = page.getByRole("textbox", { name: `Preço de venda de ${edited}` });
  await expect(input).toBeVisible();
  await input.fill("123,45");
  const save = page.getByRole("button", { name: "Salvar" });
  await expectTouchSized(save);
  await save.tap();
  // Far above the current price: the price guard holds it; sending it anyway is a touch target too.
  const sendAnyway = page.getByTestId("price-held").getByRole("button", { name: /^Enviar mesmo assim/ });
  await expectTouchSized(sendAnyway);
  await sendAnyway.tap();
  await expect(input).toHaveCount(0);
  await expect(first.getByTestId("sell-price")).toHaveText(money(12345));
  expect((await sandboxPrices(request, token)).find((price) => price.sku === edited && price.type === "sell")?.value).toBe(12345);
  await expectNoSidewaysScroll(page);

  // Two products selected by tapping their checkboxes (each inside a 44 px target).
  const before = await sandboxPrices(request, token);
  const sellOf = (sku: string) => before.find((price) => price.sku === sku && price.type === "sell");
  const chosen = codes.filter((code) => sellOf(code)).slice(0, 2);
  expect(chosen).toHaveLength(2);
  for (const code of chosen) {
    const checkbox = page.getByRole("checkbox", { name: `Selecionar ${code}` });
    await expectTouchSized(checkbox.locator("xpath=.."));
    await checkbox.tap();
    await expect(checkbox).toBeChecked();
  }

  // The way to the change panel stays in view; the panel previews −10 % on their sell prices.
  await page.getByRole("link", { name: "2 produtos selecionados: alterar os preços" }).tap();
  await expect(page.getByRole("heading", { name: "Alterar 2 produtos" })).toBeInViewport();
  await page.getByRole("combobox", { name: /^Preço/ }).selectOption("sell");
  await page.getByRole("radio", { name: "Por porcentagem" }).tap();
  await page.getByLabel(/Porcentagem/).fill("-10");
  const previewButton = page.getByRole("button", { name: "Pré-visualizar" });
  await expectTouchSized(previewButton);
  await previewButton.tap();

  const preview = page.getByTestId("bulk-change-preview").locator("tbody tr");
  await expect(preview).toHaveCount(2);
  const expected = new Map(chosen.map((code) => [code, applyPercent(sellOf(code)!.value, -1000)]));
  for (const [index, code] of chosen.entries()) {
    const row = preview.nth(index);
    await expect(row.locator("td").nth(0)).toHaveText(code);
    await expect(row.locator("th")).toHaveText(/Camiseta/);
    await expect(row.locator("td").nth(2)).toHaveText(money(sellOf(code)!.value));
    await expect(row.locator("td").nth(3)).toHaveText(money(expected.get(code)!));
    await expect(row).toContainText("será alterado");
  }
  // Each line of a card names itself (the header row being hidden).
  expect(
    await preview
      .first()
      .locator("td")
      .nth(3)
      .evaluate((cell) => getComputedStyle(cell, "::before").content),
  ).toBe('"Novo"');
  await expectNoSidewaysScroll(page);

  const apply = page.getByRole("button", { name: "Aplicar 2 alterações" });
  await expectTouchSized(apply);
  await apply.tap();
  await expect(page.getByTestId("bulk-change-outcome")).toHaveText(["aplicado", "aplicado"], { timeout: 30_000 });
  const after = await sandboxPrices(request, token);
  for (const code of chosen)
    expect(after.find((price) => price.sku === code && price.type === "sell")?.value, code).toBe(expected.get(code));
  await expectNoSidewaysScroll(page);
});

test("on a phone, the prices list, a price's page and the bulk upload fit the screen and name the products", async ({ page }) => {
  await signInAs(page, "seller@example.com");

  await page.goto("/prices?sku=CAM-001");
  await expect(page.locator("tbody tr").first()).toBeVisible();
  await expect(page.getByTestId("product-name").first()).toBeVisible();
  await expectNoSidewaysScroll(page);
  // A tab per view, all three wholly within the screen.
  for (const name of ["Por produto", "Todos os preços", "Em massa (CSV)"])
    await expect(page.getByRole("link", { name, exact: true })).toBeInViewport({ ratio: 1 });

  await page.goto("/prices/products?search=camiseta");
  await page
    .getByRole("link", { name: /^Histórico de CAM-/ })
    .first()
    .tap();
  await expect(page.getByTestId("price-history-chart")).toBeVisible();
  await expect(page.getByTestId("product-name")).toHaveText(/Camiseta/);
  await expectNoSidewaysScroll(page);

  await gotoHydrated(page, "/prices/bulk");
  await page
    .getByLabel("Arquivo CSV")
    .setInputFiles({ name: "precos.csv", mimeType: "text/csv", buffer: Buffer.from("sku,type,value,currency\nCAM-001,list,199.90,BRL\n") });
  await page.getByRole("button", { name: "Ver prévia" }).tap();
  const row = page.locator('tr[data-line="2"]');
  await expect(row).toContainText("CAM-001");
  await expect(row.getByTestId("product-name")).toHaveText(/Camiseta/);
  await expectNoSidewaysScroll(page);
});
