import { expect, test } from "@playwright/test";
import { connectAs } from "./support";

test.describe("prices", () => {
  test("filter the prices table, edit a price, and the history chart gains a point", async ({ page }) => {
    await connectAs(page, "seller@example.com");
    await page.goto("/prices");
    await expect(page.locator("tbody tr").first()).toBeVisible();

    await page.getByLabel("Type").selectOption("sell");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/type=sell/);
    await expect.poll(async () => new Set(await page.locator("tbody tr td:nth-child(2)").allTextContents())).toEqual(new Set(["sell"]));

    await page.getByRole("link", { name: "History & edit" }).first().click();
    await expect(page.getByRole("heading", { name: /sell price/ })).toBeVisible();
    const chart = page.getByTestId("price-history-chart");
    const before = Number(await chart.getAttribute("data-points"));
    expect(before).toBeGreaterThan(0);

    // Too many decimals for a normalizer of 100: a field error, and the typed amount is kept.
    await page.getByLabel(/Amount/).fill("12,345");
    await page.getByRole("button", { name: "Set new price" }).click();
    await expect(page.locator("#price-amount-error")).toHaveText("Too many decimal places for this currency.");
    await expect(page.getByLabel(/Amount/)).toHaveValue("12,345");

    await page.getByLabel(/Amount/).fill("1.234,56");
    await page.getByRole("button", { name: "Set new price" }).click();
    await expect(page.getByTestId("price-message")).toContainText("imported");
    await expect(chart).toHaveAttribute("data-points", String(before + 1));
    await expect(page.getByTestId("current-price")).toHaveText(/R\$\s?1\.234,56/);
    await expect(page.getByTestId("price-history-rows").locator("tr").first()).toContainText("123456 / 100");
  });
});
