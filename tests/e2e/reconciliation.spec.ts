import { expect, test } from "@playwright/test";
import { E2E_SANDBOX_URL } from "../../scripts/lib/e2e-ports";
import { signInAs, orderReferenceOf } from "./support";

// Notifications the platform never delivers: reconciliation (every 5 s in this run) finds the
// orders anyway, records them in the event log and tells the seller with a toast.
test.describe("reconciliation", () => {
  test.afterEach(async ({ request }) => {
    // Once more if the sandbox closed the kept-alive connection: a fault left on would drop the
    // next tests' notifications.
    await request.delete(`${E2E_SANDBOX_URL}/_sandbox/faults`).catch(() => request.delete(`${E2E_SANDBOX_URL}/_sandbox/faults`));
  });

  test("orders whose notifications were all dropped show up as reconciled within one interval, with a toast", async ({ page, request }) => {
    await signInAs(page, "seller@example.com");
    await page.goto("/webhooks");
    const use = page.getByRole("button", { name: "Use this dashboard" });
    if (await use.isEnabled()) await use.click();
    await expect(page.getByRole("heading", { name: "Connection health" })).toBeVisible();
    await expect(page.getByText(/orders? .*copied/)).toBeVisible({ timeout: 20_000 });
    // Each shop has its own slot in the interval; the page says when it comes.
    await expect(page.getByText("Next check of your orders")).toBeVisible();

    expect((await request.post(`${E2E_SANDBOX_URL}/_sandbox/faults`, { data: { dropWebhookRate: 1 } })).status()).toBe(200);
    await page.goto("/webhooks/events");
    await page.evaluate(() => Object.assign(window, { __noReload: true }));
    const created = await request.post(`${E2E_SANDBOX_URL}/_sandbox/orders`, { data: { seller: "seller@example.com", count: 2 } });
    expect(created.status()).toBe(201);
    const { orders } = (await created.json()) as { orders: { id: string }[] };
    const deliveries = (await (await request.get(`${E2E_SANDBOX_URL}/_sandbox/deliveries`)).json()) as {
      deliveries: { body: string; state: string }[];
    };
    for (const order of orders) {
      expect(deliveries.deliveries.filter((delivery) => delivery.body.includes(order.id)).map((delivery) => delivery.state)).toEqual([
        "dropped",
      ]);
    }

    // One interval (5 s) plus the moment a change is left to its notification (2.5 s here).
    // The toasts come as the orders are found (one sweep or two), each for a few seconds.
    await expect(page.getByText("A change the dashboard found when it checked the platform").first()).toBeVisible({ timeout: 30_000 });
    const rowOf = async (id: string) => page.getByRole("row").filter({ hasText: new RegExp(`${await orderReferenceOf(id)}(?!\\d)`) });
    for (const order of orders) {
      const row = await rowOf(order.id);
      await expect(row).toContainText("reconciled");
      await expect(row).toContainText("New order");
    }
    expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);

    await (await rowOf(orders[0]!.id)).getByRole("link", { name: "Details" }).click();
    await expect(page.getByText(/^Reconciliation: the order changed on the marketplace/)).toBeVisible();

    await page.goto("/webhooks");
    await expect(page.getByText(/\b[1-9]\d* in all\)/)).toBeVisible();
  });
});
