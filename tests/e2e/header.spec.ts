import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import { consent, demoShops, sessionCookieFor, shopPathOf, signInAs, withE2eDatabase } from "./support";

// The header at a desk, in both languages, for someone with one shop and for an agency with two:
// every item keeps to one line (no label wraps, no word or e-mail broken inside), and the shop the
// page is about is named. Portuguese labels are the long ones ("Histórico de alterações").

const WIDTHS = [1024, 1280, 1366, 1440];

/** Each visible header item whose text takes more than one line, as "text: N lines". */
async function wrappedItems(page: Page): Promise<string[]> {
  return page.locator("header").evaluate((header) => {
    const items = header.querySelectorAll("a, button, summary");
    const wrapped: string[] = [];
    for (const item of items) {
      const box = item.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      // The item's words (not its icons), line by line: a word broken in two is two lines too.
      const tops: number[] = [];
      const walker = document.createTreeWalker(item, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent?.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const rect of range.getClientRects()) if (rect.width > 0) tops.push(rect.top);
      }
      const lines = tops.filter((top, index) => tops.findIndex((other) => Math.abs(other - top) < 4) === index).length;
      if (lines > 1) wrapped.push(`${item.textContent?.trim()}: ${lines} lines`);
    }
    return wrapped;
  });
}

/** A person with a long name, in `shops` (manager in each), signed in on `page`. */
async function signInMember(page: Page, shops: string[]) {
  const personId = `e2e-header-${randomBytes(4).toString("hex")}`;
  await withE2eDatabase(async (client) => {
    await client.query(`INSERT INTO "Person" (id, name) VALUES ($1, 'Equipe de Expedição do Armazém Norte')`, [personId]);
    for (const shop of shops) {
      await client.query(`INSERT INTO "Membership" ("sellerId", "personId", role) VALUES ($1, $2, 'manager')`, [shop.slice(3), personId]);
    }
  });
  await page.context().addCookies([await sessionCookieFor(personId)]);
}

for (const { locale, shopWord } of [
  { locale: "pt-BR", shopWord: "trocar de loja" },
  { locale: "en-US", shopWord: "switch shop" },
]) {
  test.describe(`in ${locale}`, () => {
    test.use({ locale });

    test("the header keeps every item on one line at a desk, and names the shop, with one shop and with two", async ({ page, browser }) => {
      test.setTimeout(120_000);
      const { shopA, shopB } = await demoShops(page, browser);

      for (const shops of [[shopA], [shopA, shopB]]) {
        const context = await browser.newContext({ locale });
        const tab = await context.newPage();
        await signInMember(tab, shops);
        for (const width of WIDTHS) {
          await tab.setViewportSize({ width, height: 800 });
          await tab.goto(`${shops.at(-1)}/audit`);
          const header = tab.locator("header");
          // The shop the page is about, by name, and the long section names in one row.
          const shopName = shops.length === 1 ? "Loja Demo" : "Loja Dois";
          await expect(header.getByTestId("shop-name")).toHaveText(shopName);
          await expect(header.getByTestId("shop-switcher").locator("summary")).toHaveAccessibleName(new RegExp(shopWord));
          await expect(header.getByRole("navigation").getByRole("link").first()).toBeVisible();
          expect(await wrappedItems(tab), `${shops.length} shop(s) at ${width} px`).toEqual([]);
          // Nothing in the header is cut off at the right edge.
          const overflow = await header.evaluate((element) => element.scrollWidth - element.clientWidth);
          expect(overflow, `${width} px`).toBeLessThanOrEqual(0);
        }
        await context.close();
      }
    });
  });
}

test.describe("connecting another shop", () => {
  test.use({ locale: "pt-BR" });

  test("opens the shop just connected, named in the header, and says it was connected", async ({ page, browser }) => {
    await signInAs(page, "seller@example.com");
    const shopA = await shopPathOf(page);
    // An agency person in Loja Demo, who last opened it, connects Loja Dois's account.
    const context = await browser.newContext({ locale: "pt-BR" });
    try {
      const tab = await context.newPage();
      await signInMember(tab, [shopA]);
      await tab.goto(`${shopA}/orders`);
      await expect(tab.getByTestId("shop-name")).toHaveText("Loja Demo");
      await tab.getByTestId("shop-switcher").locator("summary").click();
      await tab.getByRole("link", { name: "Todas as suas lojas" }).click();
      await tab.getByRole("button", { name: "Conectar outra loja" }).click();
      await consent(tab, "seller2@example.com");
      await expect(tab.getByRole("status").filter({ hasText: "Loja Dois está conectada" })).toBeVisible();
      await expect(tab.getByTestId("shop-name")).toHaveText("Loja Dois");
      // The flag leaves the address: a reload says nothing more.
      await expect(tab).toHaveURL(/\/s\/[^/?]+$/);
      await tab.reload();
      await expect(tab.getByTestId("shop-name")).toHaveText("Loja Dois");
      await expect(tab.getByRole("status").filter({ hasText: "está conectada" })).toHaveCount(0);
    } finally {
      await context.close();
    }
  });
});
