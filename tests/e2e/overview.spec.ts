import { expect, test } from "@playwright/test";
import { DEFAULT_TIME_ZONE } from "../../i18n/config";
import { deadlineOf, shipByOf, startOfDay } from "../../lib/orders/ship-by";
import { orderIdsListed, signInAs, sandboxOrders, storedAccessToken } from "./support";

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
      // What the seller can ship: approved orders (a new one waits for the platform to approve it).
      const toShip = deadlines.filter((order) => order.status === "approved");
      const late = new Set(toShip.filter((order) => order.deadline === "late").map((order) => order.id));
      const awaiting = deadlines.filter((order) => order.status === "new").length;
      const expected = {
        // A sentence that starts with the count, and none when there are none.
        awaiting: String(awaiting),
        // "Today" includes what is late, as on the shipping page.
        shipToday: String(toShip.filter((order) => order.deadline !== null).length),
        late: String(late.size),
      };
      expect(late.size).toBeGreaterThan(0);

      // The mirror's back-fill runs after connecting: the counts settle on the sandbox's.
      await expect
        .poll(
          async () => {
            await page.goto("/");
            return {
              awaiting:
                (await page.getByTestId("count-awaiting").count()) === 0
                  ? "0"
                  : /^\d+/.exec((await page.getByTestId("count-awaiting").textContent())?.trim() ?? "")?.[0],
              shipToday: (await page.getByTestId("count-ship-today").textContent())?.trim(),
              late: (await page.getByTestId("count-late").textContent())?.trim(),
            };
          },
          { timeout: 30_000 },
        )
        .toEqual(expected);
      await expect(page.getByTestId("sales-30-days")).toContainText(orders);
      // Today's sales count what the sandbox's demo shop sold today (its seed has orders every day, today included).
      const today = startOfDay(new Date(), DEFAULT_TIME_ZONE).toISOString();
      const soldToday = (await sandboxOrders(request, token, `created_at__gte=${today}`)).filter((order) => order.status !== "cancelled");
      await expect(page.getByTestId("sales-today-orders")).toHaveText(new RegExp(`^${soldToday.length} ${orders}?$`));

      // Each card opens the list it counts, and that list holds exactly those orders.
      await page.getByTestId("count-late").click();
      await expect(page).toHaveURL(/\/shipping\?due=late$/);
      await page.goto("/shipping?due=late&size=200");
      await expect.poll(() => orderIdsListed(page).then((ids) => new Set(ids))).toEqual(late);
      await page.goto("/");
      await page.getByTestId("count-ship-today").click();
      await expect(page).toHaveURL(/\/shipping\?due=today$/);
      await page.goto("/shipping?due=today&size=200");
      await expect.poll(() => orderIdsListed(page).then((ids) => ids.length)).toBe(Number(expected.shipToday));
    });
  });
}
