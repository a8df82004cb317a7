import { expect, test } from "@playwright/test";

test("a signed-out seller sees the landing page and the app shell", async ({ page }) => {
  await page.goto("/");

  await expect(page.getByRole("heading", { level: 1 })).toContainText("marketplace");
  const nav = page.getByRole("navigation", { name: "Main" });
  for (const label of ["Orders", "Prices", "SKUs", "Webhooks"]) {
    await expect(nav.getByRole("link", { name: label })).toBeVisible();
  }
});
