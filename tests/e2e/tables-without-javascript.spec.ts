import { expect, test } from "@playwright/test";
import { signInAs, fillValidSku, useThisDashboardForWebhooks } from "./support";

// The first page of every table is rendered on the server (lib/tables/prefetch.server.ts): a browser
// with JavaScript off still sees it. Later pages and filters need JavaScript.
test("a browser with JavaScript disabled sees the first page of orders, prices, SKUs and events", async ({ page, browser }) => {
  // With JavaScript: connect, and create a SKU, whose portfolio.sku notification lands in the event log.
  await signInAs(page, "seller@example.com");
  await useThisDashboardForWebhooks(page);
  const code = `E2E-NOJS-${Date.now()}`;
  await page.goto("/skus/new");
  await fillValidSku(page, code);
  await page.getByRole("button", { name: "Create SKU" }).click();
  await expect(page.getByTestId("sku-outcome")).toContainText("SKU imported");
  const id = (await page.getByTestId("sku-created-id").textContent())?.trim() ?? "";
  await page.goto(`/webhooks/events?resource=${id}&processing=processed`);
  // The event names the SKU by its code, as the seller does.
  await expect(page.getByRole("row").filter({ hasText: code })).toBeVisible({ timeout: 20_000 });

  const context = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState() });
  const noScript = await context.newPage();
  try {
    await noScript.goto("/orders");
    await expect(
      noScript
        .locator("tbody tr")
        .first()
        .getByRole("link", { name: /^Order #\d+$/ }),
    ).toBeVisible();
    expect(await noScript.locator("tbody tr").count()).toBe(25);

    // The URL's filters apply to the server-rendered page too.
    await noScript.goto("/orders?status=cancelled&size=50");
    const statuses = await noScript.locator("tbody tr td:nth-child(2)").allTextContents();
    expect(statuses.length).toBeGreaterThan(0);
    expect(new Set(statuses.map((text) => text.trim()))).toEqual(new Set(["cancelled"]));

    await noScript.goto("/prices");
    await expect(noScript.getByRole("link", { name: "History & edit" }).first()).toBeVisible();

    await noScript.goto(`/skus?search=${code}`);
    await expect(noScript.getByRole("row").filter({ hasText: code }).getByRole("link").first()).toHaveAttribute(
      "href",
      new RegExp(`/skus/${id}$`),
    );

    await noScript.goto(`/webhooks/events?resource=${id}`);
    await expect(noScript.getByRole("row").filter({ hasText: code })).toContainText("SKU created");
  } finally {
    await context.close();
  }
});
