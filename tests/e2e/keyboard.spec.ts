import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import { connectAs } from "./support";

// The orders table with the keyboard alone: every control is reached with Tab, in reading order,
// and works with Enter or Space.

/** Presses Tab until the focused element matches, or fails after `limit` presses. */
async function tabTo(
  page: Page,
  matches: (element: { tag: string; text: string; label: string | null; href: string | null }) => boolean,
  { key = "Tab", limit = 80 }: { key?: "Tab" | "Shift+Tab"; limit?: number } = {},
) {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press(key);
    const focused = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      return element
        ? { tag: element.tagName.toLowerCase(), text: (element.textContent ?? "").trim(), label: element.getAttribute("aria-label"), href: element.getAttribute("href") }
        : null;
    });
    if (focused && matches(focused)) return;
  }
  throw new Error("Tab never reached the control");
}

test("the orders table works with the keyboard alone: quick filter, sort, next page, open an order", async ({ page }) => {
  await connectAs(page, "seller@example.com");
  await page.goto("/orders");
  await expect(page.locator("tbody tr")).toHaveCount(25);

  await tabTo(page, (element) => element.tag === "button" && element.text === "Late");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/deadline=late/);
  await expect(page.getByRole("button", { name: "Late", exact: true })).toHaveAttribute("aria-pressed", "true");
  await page.keyboard.press("Space");
  await expect(page).not.toHaveURL(/deadline=late/);

  await tabTo(page, (element) => element.label === "Sort by created");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/sort=created_at%3Aasc/);

  await tabTo(page, (element) => element.tag === "button" && element.text.startsWith("Next"));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/page=2/);

  // Back up from the pager to the rows: the last order of the page, then open it.
  await tabTo(page, (element) => /^\/orders\/[0-9a-f]{24}$/.test(element.href ?? ""), { key: "Shift+Tab", limit: 10 });
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: /^Order / })).toBeVisible();
});
