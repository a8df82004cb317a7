import { expect, test } from "@playwright/test";
import { signInAs } from "./support";
import { E2E_SANDBOX_URL } from "../../scripts/lib/e2e-ports";

// A Brazilian seller's day: the words are Portuguese, and amounts are typed the Brazilian way.
test.use({ locale: "pt-BR" });

test.describe("prices", () => {
  test("filter the prices table, edit a price, and the history chart gains a point", async ({ page }) => {
    await signInAs(page, "seller@example.com");
    await page.goto("/prices");
    await expect(page.locator("tbody tr").first()).toBeVisible();

    await page.getByLabel("Tipo").selectOption("sell");
    await page.getByRole("button", { name: "Aplicar filtros" }).click();
    await expect(page).toHaveURL(/type=sell/);
    await expect
      .poll(async () => new Set(await page.locator("tbody tr td:nth-child(2)").allTextContents()))
      .toEqual(new Set(["por (venda)"]));

    await page.getByRole("link", { name: "Histórico e edição" }).first().click();
    await expect(page.getByRole("heading", { name: /preço por \(venda\)/ })).toBeVisible();
    const chart = page.getByTestId("price-history-chart");
    const before = Number(await chart.getAttribute("data-points"));
    expect(before).toBeGreaterThan(0);

    // Too many decimals for a normalizer of 100: a field error, and the typed amount is kept.
    await page.getByLabel(/^Valor \(/).fill("12,345");
    await page.getByRole("button", { name: "Definir novo preço" }).click();
    await expect(page.locator("#price-amount-error")).toHaveText("Casas decimais demais para esta moeda.");
    await expect(page.getByLabel(/^Valor \(/)).toHaveValue("12,345");

    await page.getByLabel(/^Valor \(/).fill("1.234,56");
    await page.getByRole("button", { name: "Definir novo preço" }).click();
    // Far above the current price: the price guard holds it until this product is confirmed.
    await expect(page.getByTestId("price-held")).toContainText("Mudança maior que 30% no preço de venda");
    await expect(chart).toHaveAttribute("data-points", String(before));
    await page.getByRole("checkbox", { name: /^Enviar o novo preço de .+ mesmo assim$/ }).check();
    await page.getByRole("button", { name: "Definir novo preço" }).click();
    await expect(page.getByTestId("price-message")).toContainText("imported");
    await expect(chart).toHaveAttribute("data-points", String(before + 1));
    await expect(page.getByTestId("current-price")).toHaveText(/R\$\s?1\.234,56/);
    await expect(page.getByTestId("price-history-rows").locator("tr").first()).toContainText("123456 / 100");
  });

  test("a price's page answers whole when the marketplace is quick, and shows its loading state when it is slow", async ({
    page,
    request,
  }) => {
    await signInAs(page, "seller@example.com");
    await page.goto("/prices");
    const href = (await page.getByRole("link", { name: "Histórico e edição" }).first().getAttribute("href"))!;
    // Quick: the price is in the page as sent, with no loading state before it (the placeholder is
    // the only busy part of a page).
    const html = await (await page.request.get(href)).text();
    expect(html).toContain('data-testid="current-price"');
    expect(html).not.toContain('aria-busy="true"');

    await request.post(`${E2E_SANDBOX_URL}/_sandbox/faults`, { data: { latencyMs: 2_000 } });
    try {
      await page.goto(href, { waitUntil: "commit" });
      await expect(page.getByRole("status").filter({ hasText: "Carregando o preço do marketplace…" })).toBeVisible();
      await expect(page.getByRole("link", { name: "← Preços" })).toBeVisible();
      await expect(page.getByTestId("current-price")).toBeVisible({ timeout: 10_000 });
    } finally {
      await request.delete(`${E2E_SANDBOX_URL}/_sandbox/faults`);
    }
  });
});
