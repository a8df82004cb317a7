import { expect, test } from "@playwright/test";
import { formatMoney } from "../../lib/money";
import { signInAs, expectNoSidewaysScroll, sandboxOrders, storedAccessToken } from "./support";

// Net per order (issue 29, docs/decisions/0012-net-per-order.md): an order's page shows the total,
// the commission, the freight the seller pays and the estimated net, and says it is an estimate;
// the orders list shows the same net. The expected figures are worked out here from the order the
// sandbox's API gives (with the seller's own token), in both languages, on a laptop and a phone.

/** The amounts of an order as the sandbox sends them (spec: Resources → Order). */
interface SandboxAmounts {
  currency: string;
  normalizer: number;
  total: number;
  freight: { currency: string; normalizer: number; total: number; shared: number };
  comission: { currency: string; normalizer: number; total: number };
}

interface SandboxOrderWithAmounts {
  id: string;
  amounts: SandboxAmounts;
}

/** Decision 0012, written out again: total − commission − (freight − shared), in the order's normalizer, deductions rounded up. */
function expectedNet(amounts: SandboxAmounts) {
  const inOrder = (value: number, normalizer: number) => Math.ceil((value * amounts.normalizer) / normalizer);
  const commission = inOrder(amounts.comission.total, amounts.comission.normalizer);
  const shopFreight = inOrder(Math.max(0, amounts.freight.total - amounts.freight.shared), amounts.freight.normalizer);
  return { total: amounts.total, commission, sellerFreight: shopFreight, net: amounts.total - commission - shopFreight };
}

const LANGUAGES = [
  { locale: "pt-BR", lang: "pt-BR", estimate: /estimativa|estimado/i, column: "Líquido estimado" },
  { locale: "en-US", lang: "en", estimate: /estimated?/i, column: "Net (estimated)" },
] as const;

const SCREENS = [
  { name: "a laptop", viewport: { width: 1366, height: 768 } },
  { name: "a phone", viewport: { width: 390, height: 844 } },
] as const;

for (const { locale, lang, estimate, column } of LANGUAGES) {
  for (const { name, viewport } of SCREENS) {
    test.describe(`in ${locale} on ${name} (${viewport.width} px)`, () => {
      test.use({ locale, viewport });

      test("an order's page and its row in the list show the net worked out from the sandbox's order", async ({ page, request }) => {
        await signInAs(page, "seller@example.com");
        const token = await storedAccessToken("seller@example.com");
        const orders = (await sandboxOrders(request, token, "_sort=created_at:desc")) as unknown as SandboxOrderWithAmounts[];
        // One order whose freight is partly shared back and one whose freight is all the seller's:
        // the page must read `shared` the way decision 0012 does for both.
        const shared = orders.find((order) => order.amounts.freight.shared > 0);
        const unshared = orders.find((order) => order.amounts.freight.total > 0 && order.amounts.freight.shared === 0);
        expect(shared, "a sandbox order with shared freight").toBeDefined();
        expect(unshared, "a sandbox order with freight not shared").toBeDefined();

        for (const order of [shared!, unshared!]) {
          const expected = expectedNet(order.amounts);
          const money = (value: number) =>
            formatMoney({ value, currency: order.amounts.currency, normalizer: order.amounts.normalizer }, lang);
          expect(expected.net).toBeLessThan(expected.total);

          await page.goto(`/orders/${order.id}`);
          const breakdown = page.getByTestId("order-net");
          await expect(breakdown.getByTestId("net-value")).toHaveText(money(expected.net));
          await expect(breakdown.getByTestId("net-commission")).toHaveText(`− ${money(expected.commission)}`);
          await expect(breakdown.getByTestId("net-seller-freight")).toHaveText(`− ${money(expected.sellerFreight)}`);
          await expect(breakdown).toContainText(money(expected.total));
          // The page says the figure is an estimate, in the page's language.
          await expect(breakdown).toContainText(estimate);
          await expect(page.locator("html")).toHaveAttribute("lang", lang);
          await expectNoSidewaysScroll(page);

          // The list (a card per order on a phone) shows the same net, named as an estimate.
          await page.goto(`/orders?id=${order.id}`);
          const row = page.locator("tbody tr");
          await expect(row).toHaveCount(1);
          const cell = row.getByTestId("row-net");
          await expect(cell).toHaveText(money(expected.net));
          await expect(cell).toBeVisible();
          await expect(cell.locator("xpath=ancestor::td")).toHaveAttribute("data-label", column);
          await expect(page.getByTestId("net-note")).toContainText(estimate);
          await expectNoSidewaysScroll(page);
        }
      });
    });
  }
}
