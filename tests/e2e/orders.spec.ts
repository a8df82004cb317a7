import { expect, test } from "@playwright/test";
import { DEFAULT_TIME_ZONE } from "../../i18n/config";
import type { Page } from "@playwright/test";
import { E2E_SANDBOX_URL } from "../../scripts/lib/e2e-ports";
import { deadlineOf, shipByOf } from "../../lib/orders/ship-by";
import { orderIdsListed, signInAs, sandboxOrders, storedAccessToken } from "./support";
import type { SandboxOrder } from "./support";

const statusCells = (page: Page) => page.locator("tbody tr td:nth-child(2)");
const createdCells = (page: Page) => page.locator("tbody tr td:nth-child(8) time");

test.describe("orders", () => {
  test("filter by two statuses, sort, page forward and back, reload keeps it, open an order", async ({ page }) => {
    await signInAs(page, "seller@example.com");
    await page.goto("/orders");
    await expect(page.locator("tbody tr")).toHaveCount(25);
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Orders" })).toHaveAttribute(
      "aria-current",
      "page",
    );

    // Two statuses at once.
    await page.getByRole("checkbox", { name: "new" }).check();
    await page.getByRole("checkbox", { name: "approved" }).check();
    await expect(page).toHaveURL(/status=new%2Capproved/);
    await expect(page.locator("tbody tr").first()).toBeVisible();
    await expect.poll(async () => new Set(await statusCells(page).allTextContents())).toEqual(new Set(["new", "approved"]));

    // Sort by creation time, oldest first.
    await page.getByRole("button", { name: /^Created/ }).click();
    await expect(page).toHaveURL(/sort=created_at%3Aasc/);
    await expect
      .poll(async () => {
        const times = await createdCells(page).evaluateAll((nodes) => nodes.map((node) => node.getAttribute("datetime") ?? ""));
        return times.length > 1 && times.every((time, i) => i === 0 || times[i - 1]! <= time);
      })
      .toBe(true);
    const firstPageIds = await page.locator("tbody tr td:first-child").allTextContents();

    // Page forward, then back.
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(page.getByText(/^Page 2/)).toBeVisible();
    await expect.poll(async () => (await page.locator("tbody tr td:first-child").allTextContents())[0]).not.toBe(firstPageIds[0]);
    const secondPageIds = await page.locator("tbody tr td:first-child").allTextContents();
    expect(secondPageIds.filter((id) => firstPageIds.includes(id))).toEqual([]);

    await page.goBack();
    await expect(page).not.toHaveURL(/page=2/);
    await expect.poll(async () => page.locator("tbody tr td:first-child").allTextContents()).toEqual(firstPageIds);
    await page.goForward();
    await expect(page).toHaveURL(/page=2/);

    // A reload keeps filters, sort and page.
    await page.reload();
    await expect(page.getByRole("checkbox", { name: "new" })).toBeChecked();
    await expect(page.getByRole("checkbox", { name: "approved" })).toBeChecked();
    await expect(page.getByRole("checkbox", { name: "cancelled" })).not.toBeChecked();
    await expect(page.getByText(/^Page 2/)).toBeVisible();
    await expect.poll(async () => page.locator("tbody tr td:first-child").allTextContents()).toEqual(secondPageIds);

    // Open an order by its short reference: its deliveries and address, and the platform's id below.
    // "#1042"; an order the mirror's back-fill has not reached yet is named by the end of its id.
    const reference = secondPageIds[0]!;
    expect(reference).toMatch(/^(#\d+|…[0-9a-f]{6})$/);
    const link = page.getByRole("link", { name: `Order ${reference}`, exact: true });
    const orderId = (await link.getAttribute("href"))!.split("/").pop()!;
    await link.click();
    await expect(page).toHaveURL(new RegExp(`/orders/${orderId}$`));
    await expect(page.getByRole("heading", { name: /^Order (#\d+|…[0-9a-f]{6})$/ })).toBeVisible();
    await expect(page.getByTestId("platform-order-id")).toContainText(orderId);
    await expect(page.getByTestId("order-delivery").first()).toContainText("Delivery 1");
    await expect(page.getByTestId("delivery-address").first()).toHaveText(/\S+, \S+.* — .+\/[A-Z]{2}, \d{5}-?\d{3}/);
    await expect(page.getByTestId("order-customer")).toContainText(/•••/);
    // Item pictures come from the sandbox itself, so they load with no internet.
    const picture = page.getByTestId("order-delivery").first().locator("img").first();
    await expect.poll(() => picture.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBeGreaterThan(0);
    await expect(page.getByTestId("order-amounts")).toContainText("R$");
  });

  test("a customer-name filter and a page size change reset to page 1", async ({ page }) => {
    await signInAs(page, "seller@example.com");
    await page.goto("/orders?page=3");
    await expect(page.getByText(/^Page 3/)).toBeVisible();
    await page.getByRole("combobox", { name: "Rows per page" }).selectOption("50");
    await expect(page).toHaveURL(/size=50/);
    await expect(page).not.toHaveURL(/page=3/);
    await expect(page.locator("tbody tr")).toHaveCount(50);

    const name = (await page.locator("tbody tr td:nth-child(3)").first().textContent())!.split(" ")[0]!;
    await page.getByLabel("Customer name").fill(name);
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(new RegExp(`customer=${encodeURIComponent(name)}`));
    await expect
      .poll(async () => {
        const names = await page.locator("tbody tr td:nth-child(3)").allTextContents();
        return names.length > 0 && names.every((n) => n.toLowerCase().includes(name.toLowerCase()));
      })
      .toBe(true);
  });

  test("an order is found by its short reference, typed as a seller would", async ({ page }) => {
    await signInAs(page, "seller@example.com");
    // Once the mirror's back-fill has given it its reference.
    const link = page.locator("tbody tr").nth(3).getByRole("link");
    await expect
      .poll(
        async () => {
          await page.goto("/orders?page=2");
          return (await link.textContent())?.trim();
        },
        { timeout: 30_000 },
      )
      .toMatch(/^#\d+$/);
    const reference = (await link.textContent())!.trim();
    const orderId = (await link.getAttribute("href"))!.split("/").pop()!;
    for (const typed of [reference, reference.slice(1)]) {
      await page.goto("/orders");
      await page.getByLabel("Order number or id").fill(typed);
      await page.getByRole("button", { name: "Apply filters" }).click();
      await expect.poll(() => orderIdsListed(page)).toEqual([orderId]);
      await expect(page.locator("tbody tr").first()).toContainText(reference);
    }
    // The platform's id finds it too; a number no order has finds nothing.
    await page.goto(`/orders?id=${orderId}`);
    await expect.poll(() => orderIdsListed(page)).toEqual([orderId]);
    await page.goto("/orders?id=%23999999");
    await expect(page.getByText("No orders match these filters.")).toBeVisible();
  });

  test("an order of another seller is not found", async ({ page, request }) => {
    const created = await request.post(`${E2E_SANDBOX_URL}/_sandbox/orders`, { data: { seller: "seller2@example.com" } });
    const { orders } = (await created.json()) as { orders: { id: string }[] };
    await signInAs(page, "seller@example.com");
    // The platform answered "not found" within the page's wait for it (decision 0007): the status says so too.
    const response = await page.goto(`/orders/${orders[0]!.id}`);
    expect(response?.status()).toBe(404);
    await expect(page.locator('meta[name="robots"][content="noindex"]').first()).toBeAttached();
    // The app's own page, in its layout, with a way back.
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await expect(page.getByTestId("account")).toContainText("seller@example.com");
    await page.getByRole("link", { name: "Back to the start" }).click();
    await expect(page).toHaveURL(/\/s\/[^/]+$/);
  });

  test("while a slow marketplace answers, an order's page shows its loading state, then the order", async ({ page, request }) => {
    await signInAs(page, "seller@example.com");
    await page.goto("/orders");
    const link = page.locator("tbody tr").first().getByRole("link");
    const id = (await link.getAttribute("href"))!.split("/").pop()!;
    await request.post(`${E2E_SANDBOX_URL}/_sandbox/faults`, { data: { latencyMs: 2_000 } });
    try {
      // Opened afresh: past the page's wait for the platform (decision 0007) the loading state is
      // sent, under the way back; the order follows when the platform answers.
      await page.goto(`/orders/${id}`, { waitUntil: "commit" });
      await expect(page.getByRole("status").filter({ hasText: "Loading the order from the marketplace" })).toBeVisible();
      await expect(page.getByRole("link", { name: "← Orders" })).toBeVisible();
      await expect(page.getByRole("heading", { name: /^Order (#\d+|…[0-9a-f]{6})$/ })).toBeVisible({ timeout: 10_000 });
    } finally {
      await request.delete(`${E2E_SANDBOX_URL}/_sandbox/faults`);
    }
  });

  test("the ship-by column shows when each open order must ship, and which are late", async ({ page, request }) => {
    await signInAs(page, "seller@example.com");
    const token = await storedAccessToken("seller@example.com");
    const listed = await request.get(`${E2E_SANDBOX_URL}/v1.0/marketplace/orders?status__in=new,approved&_sort=created_at:desc&_limit=25`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const orders = ((await listed.json()) as { results: SandboxOrder[] }).results;
    const now = new Date();
    const expected = new Map(orders.map((order) => [order.id, deadlineOf(shipByOf(order), now, DEFAULT_TIME_ZONE)]));
    expect([...expected.values()]).toContain("late");

    await page.goto("/orders?status=new,approved");
    const rows = page.locator("tbody tr");
    await expect(rows).toHaveCount(orders.length);
    for (const [index, order] of orders.entries()) {
      const row = rows.nth(index);
      expect(await orderIdsListed(row)).toEqual([order.id]);
      const shipBy = row.locator("td:nth-child(7)");
      if (expected.get(order.id) === "late") await expect(shipBy).toContainText("late");
      else await expect(shipBy).not.toContainText("late");
    }
  });

  test("the Late quick filter lists exactly the open orders whose ship-by has passed", async ({ page, request }) => {
    await signInAs(page, "seller@example.com");
    const token = await storedAccessToken("seller@example.com");
    const open = await sandboxOrders(request, token, "status__in=new,approved");
    const now = new Date();
    const late = new Set(open.filter((order) => deadlineOf(shipByOf(order), now, DEFAULT_TIME_ZONE) === "late").map((order) => order.id));
    expect(late.size).toBeGreaterThan(0);
    expect(late.size).toBeLessThanOrEqual(200);

    await page.goto("/orders?size=200");
    await page.getByRole("button", { name: "Late", exact: true }).click();
    await expect(page).toHaveURL(/deadline=late/);
    // The mirror's back-fill runs after connecting: wait for it to hold them all.
    await expect.poll(async () => new Set(await orderIdsListed(page)), { timeout: 30_000 }).toEqual(late);
    for (const cell of await page.locator("tbody tr td:nth-child(7)").allTextContents()) expect(cell).toContain("late");
  });

  test("an unknown address shows the app's not-found page", async ({ page }) => {
    const response = await page.goto("/no-such-page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  });

  test("a new order arriving by webhook shows in the table without a reload", async ({ page, request }) => {
    await signInAs(page, "seller@example.com");
    await page.goto("/webhooks");
    const useDashboard = page.getByRole("button", { name: "Use this dashboard" });
    if (await useDashboard.isEnabled()) await useDashboard.click();
    await expect(page.getByTestId("current-webhook-url")).toContainText("this dashboard");

    await page.goto("/orders");
    await expect(page.locator("tbody tr")).toHaveCount(25);
    const created = await request.post(`${E2E_SANDBOX_URL}/_sandbox/orders`, { data: { seller: "seller@example.com" } });
    const { orders } = (await created.json()) as { orders: { id: string }[] };
    await expect.poll(async () => (await orderIdsListed(page))[0], { timeout: 20_000 }).toBe(orders[0]!.id);
  });
});
