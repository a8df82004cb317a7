import { createRequire } from "node:module";
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import { connectAs } from "./support";

// Every page, scanned with axe with every rule it ships switched on (best practices and the
// experimental ones such as label-content-name-mismatch included): no serious or critical
// violation, in both languages, at a desk and on a phone. Pages that show data are scanned once
// it is there, so the rows are part of what is checked.

// The rules of the axe-core that @axe-core/playwright injects (its own copy, which may differ from
// the project's top-level one).
const axeCore = createRequire(createRequire(import.meta.url).resolve("@axe-core/playwright"))("axe-core") as {
  getRules: () => { ruleId: string }[];
};
const EVERY_RULE = Object.fromEntries(axeCore.getRules().map((rule) => [rule.ruleId, { enabled: true }]));

async function seriousViolations(page: Page) {
  // After a client-side navigation the new page's <title> streams in with its metadata, which
  // may land after its content: the page is scanned once it has settled, title included. A title
  // that never comes still fails (the wait times out).
  await expect(page).toHaveTitle(/\S/);
  const results = await new AxeBuilder({ page }).options({ rules: EVERY_RULE }).analyze();
  // The scan ran over the page (rules passed), so an empty list below means something.
  expect(results.passes.length).toBeGreaterThan(10);
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.slice(0, 3).map((node) => node.target.join(" ")),
    }));
}

const h1 = (page: Page) => expect(page.locator("main h1")).toBeVisible();

const SIZES = [
  { name: "desk", viewport: { width: 1366, height: 900 }, hasTouch: false },
  { name: "phone", viewport: { width: 390, height: 844 }, hasTouch: true },
];

for (const [locale, size] of ["pt-BR", "en-US"].flatMap((locale) => SIZES.map((size) => [locale, size] as const))) {
  test.describe(`in ${locale}, ${size.name}`, () => {
    test.use({ locale, viewport: size.viewport, hasTouch: size.hasTouch });

    test("signed out: the landing and connect pages have no serious or critical axe violations", async ({ page }) => {
      for (const path of ["/", "/connect", "/no-such-page", "/invite/no-such-invite-link-0000000000"]) {
        await page.goto(path);
        await expect(page.locator("main")).toBeVisible();
        expect.soft(await seriousViolations(page), path).toEqual([]);
      }
    });

    test("signed in: every page of the dashboard has no serious or critical axe violations", async ({ page }) => {
      test.setTimeout(180_000);
      await connectAs(page, "seller@example.com");
      const visits: { path: string; ready: (page: Page) => Promise<void> }[] = [
        { path: "/", ready: (p) => expect(p.getByTestId("count-late")).toBeVisible() },
        { path: "/orders", ready: (p) => expect(p.locator("tbody tr").first()).toBeVisible() },
        { path: "/orders?deadline=late", ready: (p) => expect(p.locator("tbody tr").first()).toBeVisible() },
        { path: "/prices", ready: (p) => expect(p.locator("tbody tr").first()).toBeVisible() },
        { path: "/prices/products", ready: (p) => expect(p.locator("tbody tr").first()).toBeVisible() },
        { path: "/prices/bulk", ready: h1 },
        { path: "/prices/costs", ready: h1 },
        { path: "/shipping", ready: (p) => expect(p.locator("tbody tr").first()).toBeVisible() },
        { path: "/shipping/picking?all=1&due=today", ready: h1 },
        { path: "/skus", ready: h1 },
        { path: "/skus/new", ready: h1 },
        { path: "/webhooks", ready: (p) => expect(p.getByTestId("current-webhook-url")).toBeVisible() },
        { path: "/webhooks/events", ready: h1 },
        { path: "/settings", ready: (p) => expect(p.getByTestId("granted-scopes")).toBeVisible() },
        { path: "/members", ready: (p) => expect(p.getByTestId("members")).toBeVisible() },
        { path: "/audit", ready: h1 },
        { path: "/shops", ready: (p) => expect(p.getByTestId("shops")).toBeVisible() },
        { path: "/account", ready: h1 },
        { path: "/refused", ready: h1 },
      ];
      for (const { path, ready } of visits) {
        await page.goto(path);
        await ready(page);
        expect.soft(await seriousViolations(page), path).toEqual([]);
      }

      // A detail page of each kind, reached as a seller would.
      await page.goto("/orders");
      await page.locator("tbody tr").first().getByRole("link").first().click();
      await expect(page).toHaveURL(/\/orders\/[0-9a-f]{24}$/);
      await h1(page);
      expect.soft(await seriousViolations(page), "an order").toEqual([]);

      await page.goto("/prices");
      await page.locator('tbody a[href*="/prices/"]').first().click();
      await expect(page.getByTestId("price-history-chart")).toBeVisible();
      expect.soft(await seriousViolations(page), "a price").toEqual([]);

      // The SKU form with its errors showing.
      await page.goto("/skus/new");
      await page.locator('main form button[type="submit"]').last().click();
      await expect(page.locator("main [role=alert]").first()).toBeVisible();
      expect.soft(await seriousViolations(page), "the SKU form with errors").toEqual([]);

      // A product's price being edited in place, and a bulk change's preview.
      await page.goto("/prices/products");
      await page.locator("tbody tr").first().getByRole("checkbox").check();
      await page.locator('input[name="change"]').fill("-10");
      await page.locator('input[name="change"]').press("Enter");
      await expect(page.getByTestId("bulk-change-preview")).toBeVisible();
      await page.locator("tbody tr").first().locator("td").nth(2).getByRole("button").click();
      expect.soft(await seriousViolations(page), "prices by product, editing").toEqual([]);
    });
  });
}
