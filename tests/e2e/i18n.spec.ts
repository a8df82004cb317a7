import { expect, test } from "@playwright/test";
import { signInAs } from "./support";

// The dashboard's language: the browser's (Accept-Language), Portuguese when none of its languages
// is one of ours, and the header's switch wins from then on. Dates in the seller's time zone.

for (const { locale, lang, connect } of [
  { locale: "pt-BR", lang: "pt-BR", connect: "Conectar conta" },
  { locale: "pt-PT", lang: "pt-BR", connect: "Conectar conta" },
  { locale: "en-US", lang: "en", connect: "Connect account" },
  { locale: "fr-FR", lang: "pt-BR", connect: "Conectar conta" },
]) {
  test.describe(`a browser in ${locale}`, () => {
    test.use({ locale });
    test(`gets the dashboard in ${lang}`, async ({ page }) => {
      await page.goto("/");
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      await expect(page.getByTestId("account").getByRole("link", { name: connect })).toBeVisible();
    });
  });
}

test.describe("the header's language switch", () => {
  test.use({ locale: "pt-BR" });
  test("stores the choice: English stays after a reload and on other pages, until Português is chosen", async ({ page }) => {
    await page.goto("/connect");
    await expect(page.getByRole("heading", { name: "Conecte sua conta do marketplace" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Português" })).toHaveAttribute("aria-pressed", "true");

    await page.getByRole("button", { name: "English" }).click();
    await expect(page.getByRole("heading", { name: "Connect your marketplace account" })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await page.reload();
    await expect(page.getByRole("heading", { name: "Connect your marketplace account" })).toBeVisible();
    await page.goto("/");
    await expect(page.getByRole("link", { name: "Connect account" })).toBeVisible();

    await page.getByRole("button", { name: "Português" }).click();
    await expect(page.getByRole("link", { name: "Conectar conta" })).toBeVisible();
  });
});

test.describe("the seller's time zone", () => {
  test.use({ locale: "en-US" });
  test("is São Paulo's until changed in Settings; dates follow it", async ({ page }) => {
    await signInAs(page, "seller@example.com");
    await page.goto("/settings");
    const since = page.locator("time").first();
    await expect(since).toHaveText(/GMT-3$/);

    await page.getByLabel("Time zone").selectOption("America/Manaus");
    await page.getByRole("button", { name: "Save time zone" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Manaus — Amazon Standard Time (GMT-4)" })).toBeVisible();
    await page.reload();
    await expect(since).toHaveText(/GMT-4$/);
    await expect(page.getByLabel("Time zone")).toHaveValue("America/Manaus");
    // The zone by its name, never its IANA id, wherever the page says it.
    expect(await page.locator("main").innerText()).not.toMatch(/America\/|_/);

    // Back to São Paulo: the other tests read dates there.
    await page.getByLabel("Time zone").selectOption("America/Sao_Paulo");
    await page.getByRole("button", { name: "Save time zone" }).click();
    await expect(page.getByRole("status").filter({ hasText: "São Paulo — Brasilia Standard Time (GMT-3)" })).toBeVisible();
    await page.reload();
    await expect(since).toHaveText(/GMT-3$/);
  });
});
