import { expect, test } from "@playwright/test";

test("a signed-out seller sees the landing page and the app shell", async ({ page }) => {
  const response = await page.goto("/");
  // The dashboard may not be framed (clickjacking) nor have its responses sniffed.
  expect(response?.headers()["x-frame-options"]).toBe("DENY");
  expect(response?.headers()["x-content-type-options"]).toBe("nosniff");

  await expect(page.getByRole("heading", { level: 1 })).toContainText("marketplace");
  // The shell, without a shop's sections: they belong to a shop, and there is none yet.
  await expect(page.getByRole("link", { name: "Seller Dashboard" })).toBeVisible();
  await expect(page.getByTestId("account").getByRole("link", { name: "Connect account" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
});
