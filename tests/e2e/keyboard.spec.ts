import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import { signInAs, fillValidSku } from "./support";

// The orders table with the keyboard alone: every control is reached with Tab, in reading order,
// and works with Enter or Space.

/** Presses Tab until the focused element matches, or fails after `limit` presses. */
async function tabTo(
  page: Page,
  matches: (element: { tag: string; text: string; label: string | null; href: string | null; name: string | null }) => boolean,
  { key = "Tab", limit = 80 }: { key?: "Tab" | "Shift+Tab"; limit?: number } = {},
) {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press(key);
    const focused = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      return element
        ? {
            tag: element.tagName.toLowerCase(),
            text: (element.textContent ?? "").trim(),
            label: element.getAttribute("aria-label"),
            href: element.getAttribute("href"),
            name: element.getAttribute("name"),
          }
        : null;
    });
    if (focused && matches(focused)) return;
  }
  throw new Error("Tab never reached the control");
}

test("the orders table works with the keyboard alone: quick filter, sort, next page, open an order", async ({ page }) => {
  await signInAs(page, "seller@example.com");
  await page.goto("/orders");
  await expect(page.locator("tbody tr")).toHaveCount(25);

  await tabTo(page, (element) => element.tag === "button" && element.text === "Late");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/deadline=late/);
  await expect(page.getByRole("button", { name: "Late", exact: true })).toHaveAttribute("aria-pressed", "true");
  await page.keyboard.press("Space");
  await expect(page).not.toHaveURL(/deadline=late/);

  await tabTo(page, (element) => element.tag === "button" && element.text.startsWith("Created"));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/sort=created_at%3Aasc/);

  await tabTo(page, (element) => element.tag === "button" && element.text.startsWith("Next"));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/page=2/);

  // Back up from the pager to the rows: the last order of the page, then open it.
  await tabTo(page, (element) => /^\/s\/[^/]+\/orders\/[0-9a-f]{24}$/.test(element.href ?? ""), { key: "Shift+Tab", limit: 10 });
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: /^Order / })).toBeVisible();
});

test("the prices table works with the keyboard alone: filter by type, sort, open a price's history", async ({ page }) => {
  await signInAs(page, "seller@example.com");
  await page.goto("/prices");
  await expect(page.locator("tbody tr").first()).toBeVisible();

  await tabTo(page, (element) => element.tag === "select");
  await page.keyboard.press("ArrowDown"); // "list"
  await tabTo(page, (element) => element.tag === "button" && element.text === "Apply filters");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/type=list/);

  await tabTo(page, (element) => element.tag === "button" && element.text.startsWith("Created"));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/sort=created_at%3Aasc/);

  await tabTo(page, (element) => /^\/s\/[^/]+\/prices\/[0-9a-f]{24}$/.test(element.href ?? ""));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: /list price/ })).toBeVisible();
});

test("the prices by product table works with the keyboard alone: select with Space, preview a change", async ({ page }) => {
  await signInAs(page, "seller@example.com");
  await page.goto("/prices/products");
  await expect(page.locator("tbody tr").first()).toBeVisible();

  await tabTo(page, (element) => element.label?.startsWith("Select ") === true && element.label !== "Select every product on this page");
  await page.keyboard.press("Space");
  await expect(page.getByRole("heading", { name: "Change 1 product" })).toBeVisible();

  await tabTo(page, (element) => element.name === "change", { limit: 200 });
  await page.keyboard.type("5");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("bulk-change-preview").locator("tbody tr")).toHaveCount(1);
});

test("the SKU catalogue works with the keyboard alone: search, open a SKU", async ({ page }) => {
  await signInAs(page, "seller@example.com");
  // A SKU of this test's own, created through the form, to search for.
  const code = `KEY-${Date.now()}`;
  await page.goto("/skus/new");
  await fillValidSku(page, code);
  await page.getByRole("button", { name: "Create SKU" }).click();
  await expect(page.getByTestId("sku-outcome")).toContainText("SKU imported");
  await page.goto("/skus");
  await expect(page.locator("tbody tr").first()).toBeVisible();

  await tabTo(page, (element) => element.tag === "input");
  await page.keyboard.type(code);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`search=${encodeURIComponent(code)}`));
  await expect(page.locator("tbody tr")).toHaveCount(1);

  await tabTo(page, (element) => /^\/s\/[^/]+\/skus\/[^/?]+$/.test(element.href ?? "") && !(element.href ?? "").endsWith("/skus/new"));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/skus\/[^/?]+$/);
});

test("the event log works with the keyboard alone: filter by processing state, then clear", async ({ page }) => {
  await signInAs(page, "seller@example.com");
  await page.goto("/webhooks/events");
  await expect(page.locator("main h1")).toBeVisible();

  await tabTo(page, (element) => element.tag === "select" && element.text.includes("processed"));
  await page.keyboard.press("ArrowDown"); // the first state, "pending"
  await tabTo(page, (element) => element.tag === "button" && element.text === "Apply filters");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/processing=pending/);

  await tabTo(page, (element) => element.tag === "button" && element.text === "Clear");
  await page.keyboard.press("Enter");
  await expect(page).not.toHaveURL(/processing=/);
});
