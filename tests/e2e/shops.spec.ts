import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import type { BrowserContext, Page } from "@playwright/test";
import { DESK, PHONE } from "./devices";
import { demoShops, expectNoSidewaysScroll, orderIdsListed, seedTeamShop, sessionCookieFor, withE2eDatabase } from "./support";

// Every shop at a glance (issue 42): a person in three shops sees, per shop, what needs them
// today, each number equal to the list it opens, and the shop whose connection needs mending first.

const number = async (page: Page, row: string, figure: string) =>
  Number(
    (await page.locator(`[data-shop="${row}"]`).getByTestId(figure).locator("span").last().textContent())?.replace(/\D/g, "") ?? "NaN",
  );

async function listed(page: Page, href: string): Promise<number> {
  await page.goto(`${href}&size=200`);
  await expect(page.locator("main h1")).toBeVisible();
  return (await orderIdsListed(page)).length;
}

for (const { name, device } of [
  { name: "desk (1366 px)", device: DESK },
  { name: "phone (390 px)", device: PHONE },
]) {
  test(`em português, ${name}: three shops at a glance, each count equal to its own list, the one to mend first`, async ({
    page,
    browser,
  }) => {
    test.setTimeout(180_000);
    const { shopA, shopB } = await demoShops(page, browser);
    const [demo, two] = [shopA.slice(3), shopB.slice(3)];
    const team = await seedTeamShop("Vitrine");
    const personId = `e2e-glance-${randomBytes(4).toString("hex")}`;
    await withE2eDatabase(async (client) => {
      await client.query(`INSERT INTO "Person" (id, name, locale) VALUES ($1, 'Agência Sul', 'pt-BR')`, [personId]);
      await client.query(
        `INSERT INTO "Membership" ("sellerId", "personId", role) VALUES ($1, $4, 'manager'), ($2, $4, 'operations'), ($3, $4, 'owner')`,
        [demo, two, team.shopId, personId],
      );
      // The marketplace refused the seeded shop's connection: its owner must connect it again.
      await client.query(`UPDATE "Connection" SET "needsReconnectAt" = now() WHERE "sellerId" = $1`, [team.shopId]);
    });
    let agency: BrowserContext | undefined;
    try {
      agency = await browser.newContext({ locale: "pt-BR", ...device });
      await agency.addCookies([await sessionCookieFor(personId)]);
      const glance = await agency.newPage();
      await glance.goto("/shops");
      await expect(glance.getByRole("heading", { name: "Suas lojas" })).toBeVisible();
      const rows = glance.getByTestId("shop-glance");
      await expect(rows).toHaveCount(3);
      // The shop whose connection must be mended comes first, and says so to its owner in words.
      await expect(rows.first()).toHaveAttribute("data-shop", team.shopId);
      const mend = rows.first().getByTestId("problem-reconnect");
      await expect(mend).toHaveText("Conecte esta loja de novo: o marketplace não aceita mais a conexão");
      await expect(mend).toHaveAttribute("href", `/s/${team.shopId}/settings`);
      // Operations does not see prices, so not the prices below cost either; the manager does.
      await expect(glance.locator(`[data-shop="${two}"]`).getByTestId("glance-below-cost")).toHaveCount(0);
      await expect(glance.locator(`[data-shop="${demo}"]`).getByTestId("glance-below-cost")).toBeVisible();
      await expectNoSidewaysScroll(glance);

      // Each count is the list it opens (orders may arrive meanwhile: read both again until they agree).
      for (const shop of [demo, two]) {
        for (const figure of ["glance-ship-today", "glance-late"]) {
          await expect
            .poll(
              async () => {
                await glance.goto("/shops");
                const shown = await number(glance, shop, figure);
                const href = await glance.locator(`[data-shop="${shop}"]`).getByTestId(figure).getAttribute("href");
                expect(href).toBe(`/s/${shop}/shipping?due=${figure === "glance-late" ? "late" : "today"}`);
                return shown - (await listed(glance, href!));
              },
              { timeout: 30_000 },
            )
            .toBe(0);
        }
        // Today's sales count the orders the shop's overview counts for today.
        await expect
          .poll(
            async () => {
              await glance.goto("/shops");
              const label = await glance
                .locator(`[data-shop="${shop}"]`)
                .getByTestId("glance-sales-today")
                .locator("span")
                .first()
                .textContent();
              await glance.goto(`/s/${shop}`);
              const overview = await glance.getByTestId("sales-today-orders").textContent();
              const count = (text: string | null) => Number(/\d+/.exec(text ?? "")?.[0] ?? 0);
              return count(label) - count(overview);
            },
            { timeout: 30_000 },
          )
          .toBe(0);
      }
    } finally {
      await agency?.close();
    }
  });
}
