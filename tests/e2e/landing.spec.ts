import { expect, test } from "@playwright/test";

test("a signed-out seller sees the landing page and the app shell", async ({ page }) => {
  const response = await page.goto("/");
  // The dashboard may not be framed (clickjacking) nor have its responses sniffed.
  expect(response?.headers()["x-frame-options"]).toBe("DENY");
  expect(response?.headers()["x-content-type-options"]).toBe("nosniff");

  await expect(page.getByRole("heading", { level: 1 })).toContainText("marketplace");
  const nav = page.getByRole("navigation", { name: "Main" });
  for (const label of ["Orders", "Prices", "SKUs", "Webhooks"]) {
    await expect(nav.getByRole("link", { name: label })).toBeVisible();
  }
});
