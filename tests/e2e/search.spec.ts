import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import { DESK, PHONE } from "./devices";
import { orderReferenceOf, sessionCookieFor, signInAs, storedAccessToken, withE2eDatabase } from "./support";
import { E2E_SANDBOX_URL } from "../../scripts/lib/e2e-ports";

// One search across the person's shops (issue 42), in Portuguese, at both sizes: by a name typed
// without accents, by the end of a tracking code, by a misspelled product name, never by e-mail or
// document for a viewer, and with the keyboard alone at a desk.

interface Customer {
  name: string;
  email: string;
  document_number: string;
}
interface FullOrder {
  id: string;
  status: string;
  customer: Customer;
  deliveries: { shipping: { tracking: { number: string } }; items: { info: { sku: string; name: string } }[] }[];
}

const fold = (text: string) =>
  text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase();

async function demoOrders(page: Page): Promise<FullOrder[]> {
  const token = await storedAccessToken("seller@example.com");
  const response = await page.request.get(`${E2E_SANDBOX_URL}/v1.0/marketplace/orders?_limit=200`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { results: FullOrder[] }).results;
}

async function searchFor(page: Page, text: string) {
  const box = page.getByTestId("search-box");
  await box.fill(text);
  await expect(page.getByTestId("search-status")).not.toHaveText(/Buscando/);
}

for (const { name, device } of [
  { name: "desk (1366 px)", device: DESK },
  { name: "phone (390 px)", device: PHONE },
]) {
  test.describe(`em português, ${name}`, () => {
    test.use({ locale: "pt-BR", ...device });

    test("finds an order by a name without accents and by a tracking code's last six digits, and a product by a misspelled name", async ({
      page,
    }) => {
      await signInAs(page, "seller@example.com");
      const orders = await demoOrders(page);
      const accented = orders.find((order) => fold(order.customer.name) !== order.customer.name.toLowerCase())!;
      expect(accented, "the sandbox's names have accents").toBeDefined();
      const reference = await orderReferenceOf(accented.id);

      await page.goto("/");
      await page.getByTestId("search-link").click();
      await expect(page).toHaveURL(/\/search$/);
      await expect(page.getByTestId("search-help")).toContainText("pelo nome do cliente");
      await searchFor(page, fold(accented.customer.name));
      const found = page.getByTestId("found-order").filter({ hasText: `Pedido ${reference} · ${accented.customer.name}` });
      await expect(found).toBeVisible();
      await expect(page).toHaveURL(/\/search\?q=/);

      const tracked = orders.find((order) => order.deliveries.length > 0 && order.id !== accented.id)!;
      const lastSix = tracked.deliveries[0]!.shipping.tracking.number.replace(/\D/g, "").slice(-6);
      await searchFor(page, lastSix);
      const byTracking = page.getByTestId("found-order").filter({ hasText: `Pedido ${await orderReferenceOf(tracked.id)}` });
      await expect(byTracking).toContainText("código de rastreio");
      await byTracking.click();
      await expect(page).toHaveURL(new RegExp(`/orders/${tracked.id}$`));

      const item = orders
        .flatMap((order) => order.deliveries.flatMap((delivery) => delivery.items))
        .find((each) => each.info.name.length >= 8)!;
      const word = fold(item.info.name)
        .split(" ")
        .sort((a, b) => b.length - a.length)[0]!;
      await page.goto("/search");
      await searchFor(page, fold(item.info.name).replace(word, word.slice(0, 2) + word.slice(3)));
      await expect(page.getByTestId("found-product").filter({ hasText: item.info.sku }).first()).toBeVisible();

      await searchFor(page, "zzqxw");
      await expect(page.getByTestId("search-status")).toHaveText("Nada encontrado para “zzqxw”.");
      await expect(page.getByTestId("search-help")).toBeVisible();
    });

    test("a viewer's search finds no order by the customer's e-mail or document; the owner's does", async ({ page, browser }) => {
      await signInAs(page, "seller@example.com");
      const [order] = await demoOrders(page);
      const reference = await orderReferenceOf(order!.id);
      for (const text of [order!.customer.email, order!.customer.document_number]) {
        await page.goto(`/search?q=${encodeURIComponent(text)}`);
        await expect(page.getByTestId("found-order").filter({ hasText: `Pedido ${reference}` })).toBeVisible();
      }

      const viewerId = `e2e-search-viewer-${randomBytes(4).toString("hex")}`;
      await withE2eDatabase(async (client) => {
        await client.query(`INSERT INTO "Person" (id, name, locale) VALUES ($1, 'Visualizadora', 'pt-BR')`, [viewerId]);
        await client.query(
          `INSERT INTO "Membership" ("sellerId", "personId", role) SELECT "id", $1, 'viewer' FROM "Seller" WHERE "email" = 'seller@example.com'`,
          [viewerId],
        );
      });
      const context = await browser.newContext({ locale: "pt-BR", ...device });
      try {
        await context.addCookies([await sessionCookieFor(viewerId)]);
        const viewer = await context.newPage();
        await viewer.goto("/search");
        await expect(viewer.getByTestId("search-help")).not.toContainText("CPF");
        for (const text of [order!.customer.email, order!.customer.document_number]) {
          await searchFor(viewer, text);
          await expect(viewer.getByTestId("search-status")).toHaveText(/^Nada encontrado/);
          await expect(viewer.getByTestId("found-order")).toHaveCount(0);
        }
      } finally {
        await context.close();
      }
    });
  });
}

test.describe("em português, desk (1366 px), with the keyboard alone", () => {
  test.use({ locale: "pt-BR", ...DESK });

  test("/ opens the search from any page, ↓ walks the results and Enter opens one", async ({ page }) => {
    await signInAs(page, "seller@example.com");
    const orders = await demoOrders(page);
    const order = orders.find((each) => each.customer.name.split(" ").length >= 2)!;
    await page.goto("/");
    await page.locator("body").click({ position: { x: 5, y: 300 } });
    await page.keyboard.press("/");
    await expect(page).toHaveURL(/\/search$/);
    await expect(page.getByTestId("search-box")).toBeFocused();
    await page.keyboard.type(fold(order.customer.name));
    await expect(page.getByTestId("found-order").first()).toBeVisible();
    await page.keyboard.press("ArrowDown");
    await expect(page.getByTestId("found-order").first()).toBeFocused();
    const results = await page.locator("a[data-result]").count();
    if (results > 1) {
      await page.keyboard.press("ArrowDown");
      await expect(page.locator("a[data-result]").nth(1)).toBeFocused();
      await page.keyboard.press("ArrowUp");
    }
    await page.keyboard.press("ArrowUp");
    await expect(page.getByTestId("search-box")).toBeFocused();
    await page.keyboard.press("ArrowDown");
    const href = await page.getByTestId("found-order").first().getAttribute("href");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`${href}$`));
    // Ctrl+K brings it back from the order's page.
    await page.keyboard.press("Control+k");
    await expect(page).toHaveURL(/\/search$/);
    await expect(page.getByTestId("search-box")).toBeFocused();
  });
});
