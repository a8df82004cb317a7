import { expect, test } from "@playwright/test";
import { DEFAULT_TIME_ZONE } from "../../i18n/config";
import { deadlineOf, shipByOf } from "../../lib/orders/ship-by";
import { signInAs, sandboxOrders, storedAccessToken } from "./support";

for (const { locale, orders } of [
  { locale: "pt-BR", orders: "pedidos" },
  { locale: "en-US", orders: "orders" },
]) {
  test.describe(`in ${locale}`, () => {
    test.use({ locale });
    test("after connecting, the overview shows what the sandbox's orders imply, and Late opens exactly those orders", async ({
      page,
      request,
    }) => {
      await signInAs(page, "seller@example.com");
      const token = await storedAccessToken("seller@example.com");
      const open = await sandboxOrders(request, token, "status__in=new,approved");
      const now = new Date();
      const deadlines = open.map((order) => ({
        id: order.id,
        status: order.status,
        deadline: deadlineOf(shipByOf(order), now, DEFAULT_TIME_ZONE),
      }));
      const late = new Set(deadlines.filter((order) => order.deadline === "late").map((order) => order.id));
      const expected = {
        awaiting: String(deadlines.filter((order) => order.status === "new").length),
        shipToday: String(deadlines.filter((order) => order.deadline === "today").length),
        late: String(late.size),
      };
      expect(late.size).toBeGreaterThan(0);

      // The mirror's back-fill runs after connecting: the counts settle on the sandbox's.
      await expect
        .poll(
          async () => {
            await page.goto("/");
            return {
              awaiting: (await page.getByTestId("count-awaiting").textContent())?.trim(),
              shipToday: (await page.getByTestId("count-ship-today").textContent())?.trim(),
              late: (await page.getByTestId("count-late").textContent())?.trim(),
            };
          },
          { timeout: 30_000 },
        )
        .toEqual(expected);
      await expect(page.getByTestId("sales-30-days")).toContainText(orders);

      await page.getByTestId("count-late").click();
      await expect(page).toHaveURL(/\/orders\?deadline=late$/);
      await page.goto("/orders?deadline=late&size=200");
      const ids = (await page.locator("tbody tr td:first-child a").allTextContents()).map((id) => id.trim());
      expect(new Set(ids)).toEqual(late);
    });
  });
}
