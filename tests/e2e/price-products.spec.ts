import { expect, test } from "@playwright/test";
import { applyPercent } from "../../features/prices/price-products";
import { signInAs, gotoHydrated, sandboxPrices, storedAccessToken } from "./support";

const WORDS = {
  "pt-BR": {
    heading: "Preços por produto",
    select: (sku: string) => `Selecionar ${sku}`,
    title: "Alterar 3 produtos",
    price: /^Preço/,
    byPercentage: "Por porcentagem",
    percentage: /Porcentagem/,
    preview: "Pré-visualizar",
    willChange: "será alterado",
    apply: "Aplicar 3 alterações",
    applied: "aplicado",
  },
  "en-US": {
    heading: "Prices by product",
    select: (sku: string) => `Select ${sku}`,
    title: "Change 3 products",
    price: /^Price/,
    byPercentage: "By a percentage",
    percentage: /Percentage/,
    preview: "Preview",
    willChange: "will change",
    apply: "Apply 3 changes",
    applied: "applied",
  },
};

for (const [locale, words] of Object.entries(WORDS)) {
  test.describe(`in ${locale}`, () => {
    test.use({ locale });

    test("a −10% change on three products' sell prices is previewed old → new, applied, and the sandbox holds the new values", async ({
      page,
      request,
    }) => {
      await signInAs(page, "seller@example.com");
      const token = await storedAccessToken("seller@example.com");
      await gotoHydrated(page, "/prices/products");
      await expect(page.getByRole("heading", { name: words.heading })).toBeVisible();
      const money = (cents: number) => new Intl.NumberFormat(locale, { style: "currency", currency: "BRL" }).format(cents / 100);

      const before = await sandboxPrices(request, token);
      const sellOf = (prices: typeof before, sku: string) => prices.find((price) => price.sku === sku && price.type === "sell");
      // The first three products on the page that have a sell price.
      const skus = (await page.locator("tbody tr td:nth-child(2)").allTextContents())
        .map((sku) => sku.trim())
        .filter((sku) => sellOf(before, sku))
        .slice(0, 3);
      expect(skus).toHaveLength(3);
      for (const sku of skus) await page.getByRole("checkbox", { name: words.select(sku) }).check();

      await expect(page.getByRole("heading", { name: words.title })).toBeVisible();
      await page.getByRole("combobox", { name: words.price }).selectOption("sell");
      await page.getByRole("radio", { name: words.byPercentage }).check();
      await page.getByLabel(words.percentage).fill("-10");
      await page.getByRole("button", { name: words.preview }).click();

      // The preview shows each price now and after, and nothing was sent yet.
      const preview = page.getByTestId("bulk-change-preview");
      await expect(preview.locator("tbody tr")).toHaveCount(3);
      const expected = new Map(skus.map((sku) => [sku, applyPercent(sellOf(before, sku)!.value, -1000)]));
      for (const [index, sku] of skus.entries()) {
        const row = preview.locator("tbody tr").nth(index);
        await expect(row.locator("td").nth(0)).toHaveText(sku);
        await expect(row.locator("td").nth(2)).toHaveText(money(sellOf(before, sku)!.value));
        await expect(row.locator("td").nth(3)).toHaveText(money(expected.get(sku)!));
        await expect(row).toContainText(words.willChange);
      }
      expect((await sandboxPrices(request, token)).map((price) => price.value)).toEqual(before.map((price) => price.value));

      await page.getByRole("button", { name: words.apply }).click();
      await expect(page.getByTestId("bulk-change-outcome")).toHaveText([words.applied, words.applied, words.applied], { timeout: 30_000 });

      const after = await sandboxPrices(request, token);
      for (const sku of skus) expect(sellOf(after, sku)?.value, sku).toBe(expected.get(sku));
      // The table shows the new prices once the run is over.
      const firstRow = page.locator("tbody tr", { has: page.getByRole("checkbox", { name: words.select(skus[0]!) }) });
      await expect(firstRow.getByTestId("sell-price")).toHaveText(money(expected.get(skus[0]!)!));
    });
  });
}

test.describe("in pt-BR, in place", () => {
  test.use({ locale: "pt-BR" });

  test("a list price is edited in place with the keyboard, in Brazilian notation, and a bad amount is explained", async ({
    page,
    request,
  }) => {
    await signInAs(page, "seller@example.com");
    await page.goto("/");
    const token = await storedAccessToken("seller@example.com");
    // "Preços" in the main navigation opens prices by product, and stays marked on every prices view.
    const prices = page.getByRole("navigation", { name: "Principal" }).getByRole("link", { name: "Preços" });
    await prices.click();
    await expect(page).toHaveURL(/\/prices\/products$/);
    await expect(prices).toHaveAttribute("aria-current", "page");
    await page.getByRole("link", { name: "Todos os preços" }).click();
    await expect(page).toHaveURL(/\/prices$/);
    await expect(prices).toHaveAttribute("aria-current", "page");
    await page.goto("/prices/products");
    const sku = (await page.locator("tbody tr td:nth-child(2)").first().textContent())!.trim();

    const edit = page.getByRole("button", { name: `: Preço de lista de ${sku}` });
    await edit.focus();
    await page.keyboard.press("Enter");
    const input = page.getByRole("textbox", { name: `Preço de lista de ${sku}` });
    await expect(input).toBeFocused();
    await input.fill("12,345");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("alert").filter({ hasText: "Casas decimais demais para esta moeda." })).toBeVisible();

    await input.fill("1.299,90");
    await page.keyboard.press("Enter");
    // Far above the current list price: the price guard holds it, says why, and sends it once confirmed.
    const held = page.getByTestId("price-held");
    await expect(held).toContainText("Mudança maior que 30% no preço de lista");
    expect((await sandboxPrices(request, token)).find((price) => price.sku === sku && price.type === "list")?.value).not.toBe(129990);
    await held.getByRole("button", { name: /^Enviar mesmo assim/ }).click();
    await expect(input).toHaveCount(0);
    await expect(page.locator("tbody tr").first().getByTestId("list-price")).toHaveText(/R\$\s?1\.299,90/);
    const list = (await sandboxPrices(request, token)).find((price) => price.sku === sku && price.type === "list");
    expect(list?.value).toBe(129990);

    // Escape leaves the price as it is and puts the focus back on its button.
    await edit.click();
    await page.keyboard.press("Escape");
    await expect(edit).toBeFocused();
  });
});
