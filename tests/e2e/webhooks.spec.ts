import { expect, test } from "@playwright/test";
import { E2E_APP_URL, E2E_SANDBOX_URL } from "../../scripts/lib/e2e-ports";
import { signInAs, shopPathOf, orderReferenceOf } from "./support";

test.describe("webhooks", () => {
  test.afterEach(async ({ request }) => {
    await request.delete(`${E2E_SANDBOX_URL}/_sandbox/faults`);
  });

  test("use this dashboard, then a new order shows in the event log and as a toast without a reload", async ({
    page,
    request,
    browser,
  }) => {
    await signInAs(page, "seller@example.com");
    await page.goto("/webhooks");
    // Other tests may have pointed this seller's webhooks here already: start from none.
    const remove = page.getByRole("button", { name: "Stop notifications" });
    if (await remove.isVisible()) {
      await remove.click();
      await expect(page.getByTestId("current-webhook-url")).toContainText("None");
    }
    await page.getByRole("button", { name: "Use this dashboard" }).click();
    await expect(page.getByTestId("webhook-message")).toContainText(`${E2E_APP_URL}/api/webhooks/marketplace/`);
    await expect(page.getByTestId("current-webhook-url")).toContainText("this dashboard");

    await page.getByRole("link", { name: "Event log →" }).click();
    await expect(page.getByRole("heading", { name: "Event log" })).toBeVisible();
    // A marker that a reload would wipe out.
    await page.evaluate(() => Object.assign(window, { __noReload: true }));

    const created = await request.post(`${E2E_SANDBOX_URL}/_sandbox/orders`, { data: { seller: "seller@example.com" } });
    expect(created.status()).toBe(201);
    const { orders } = (await created.json()) as { orders: { id: string }[] };
    const orderId = orders[0]!.id;

    // The toast (the row below says the same words).
    await expect(page.locator("[data-sonner-toast]").getByText("New order").first()).toBeVisible({ timeout: 20_000 });
    const reference = await orderReferenceOf(orderId);
    const row = page.getByRole("row").filter({ hasText: new RegExp(`${reference}(?!\\d)`) });
    await expect(row).toContainText("New order");
    expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);

    await row.getByRole("link", { name: "Details" }).click();
    // The event names the order by its reference and opens it; the raw notification is one click away.
    await expect(page.locator("main").getByRole("link", { name: reference, exact: true })).toHaveAttribute(
      "href",
      new RegExp(`/orders/${orderId}$`),
    );
    await expect(page.getByTestId("event-body")).not.toBeVisible();
    await page.getByText(/^Technical details/).click();
    await expect(page.getByTestId("event-body")).toContainText(orderId);
    await expect(page.getByText(/^Valid \(HMAC-SHA256/)).toBeVisible();
    await page.getByRole("button", { name: "Process again" }).click();
    await expect(page.getByRole("status").filter({ hasText: "processed again" })).toBeVisible();

    // Another shop's owner cannot open this event: not at its shop's address (refused), nor at
    // their own shop's (not found), nor see it in their log.
    const eventUrl = page.url();
    const other = await browser.newContext();
    try {
      const otherPage = await other.newPage();
      await signInAs(otherPage, "seller2@example.com");
      const otherShop = await shopPathOf(otherPage);
      await otherPage.goto(eventUrl);
      await expect(otherPage).toHaveURL(/\/refused$/);
      expect((await otherPage.goto(eventUrl.replace(/\/s\/[^/]+/, otherShop)))?.status()).toBe(404);
      await otherPage.goto(`/webhooks/events?resource=${orderId}`);
      await expect(otherPage.getByText("No events match these filters yet.")).toBeVisible();
    } finally {
      await other.close();
    }
  });

  test("a custom URL is validated, platform errors are shown plainly, and Stop notifications clears it", async ({ page, request }) => {
    await signInAs(page, "seller2@example.com");
    await page.goto("/webhooks");

    // Another receiver is in the advanced part, folded.
    await expect(page.getByLabel("Use another URL")).not.toBeVisible();
    await page.getByText(/^Advanced/).click();
    await page.getByLabel("Use another URL").fill("not a url");
    await page.getByRole("button", { name: "Set URL" }).click();
    await expect(page.locator("#webhook-url-error")).toContainText("must be an absolute http(s) URL");

    await request.post(`${E2E_SANDBOX_URL}/_sandbox/faults`, { data: { errorRate: 1 } });
    await page.getByLabel("Use another URL").fill("https://hooks.example.com/marketplace");
    await page.getByRole("button", { name: "Set URL" }).click();
    await expect(page.getByTestId("webhook-message")).toHaveText(/The marketplace had a server error/);
    await request.delete(`${E2E_SANDBOX_URL}/_sandbox/faults`);

    await page.getByRole("button", { name: "Set URL" }).click();
    await expect(page.getByTestId("webhook-message")).toContainText("Notifications now go to https://hooks.example.com/marketplace");
    await page.reload();
    await expect(page.getByTestId("current-webhook-url")).toContainText("https://hooks.example.com/marketplace");

    await page.getByRole("button", { name: "Stop notifications" }).click();
    await expect(page.getByTestId("webhook-message")).toContainText("Notifications are off");
    await page.reload();
    await expect(page.getByTestId("current-webhook-url")).toContainText("None");
  });
});
