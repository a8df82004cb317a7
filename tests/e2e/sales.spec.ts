import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import { DESK, PHONE } from "./devices";
import { expectNoSidewaysScroll, shopPathOf, signInAs, storedAccessToken } from "./support";
import { E2E_SANDBOX_URL } from "../../scripts/lib/e2e-ports";
import { startOfDay } from "@/lib/orders/ship-by";

// The sales page (issue 42), in Portuguese at both sizes: its figures equal sums computed here from
// the sandbox's own orders for the same period in São Paulo's zone, a custom day included, and its CSV
// says the same.

const ZONE = "America/Sao_Paulo";

interface SandboxSale {
  status: string;
  created_at: string;
  amounts: { total: number; currency: string; normalizer: number };
  deliveries: { items: { quantity: number; info: { sku: string }; unit_price: { value: number; normalizer: number } }[] }[];
}

async function demoSales(page: Page): Promise<SandboxSale[]> {
  const token = await storedAccessToken("seller@example.com");
  const sales: SandboxSale[] = [];
  for (let offset = 0; ; offset += 200) {
    const response = await page.request.get(`${E2E_SANDBOX_URL}/v1.0/marketplace/orders?_limit=200&_offset=${offset}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const { results } = (await response.json()) as { results: SandboxSale[] };
    sales.push(...results);
    if (results.length < 200) return sales;
  }
}

function sums(sales: readonly SandboxSale[], from: Date, to: Date) {
  const sold = sales.filter((sale) => {
    const at = Date.parse(sale.created_at);
    return at >= from.getTime() && at < to.getTime() && sale.status !== "cancelled" && sale.amounts.currency === "BRL";
  });
  const products = new Map<string, number>();
  for (const item of sold.flatMap((sale) => sale.deliveries.flatMap((delivery) => delivery.items)))
    products.set(
      item.info.sku,
      (products.get(item.info.sku) ?? 0) + Math.round((item.unit_price.value * item.quantity * 100) / item.unit_price.normalizer),
    );
  return {
    orders: sold.length,
    gross: sold.reduce((sum, sale) => sum + Math.round((sale.amounts.total * 100) / sale.amounts.normalizer), 0),
    products,
  };
}

const brl = (centavos: number) => new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" }).format(centavos / 100);
const spaces = (text: string | null) => (text ?? "").replace(/\s/g, " ").trim();
const dayIn = (instant: string) => new Intl.DateTimeFormat("en-CA", { timeZone: ZONE }).format(new Date(instant));

for (const { name, device } of [
  { name: "desk (1366 px)", device: DESK },
  { name: "phone (390 px)", device: PHONE },
]) {
  test.describe(`em português, ${name}`, () => {
    test.use({ locale: "pt-BR", ...device });

    test("the last 30 days and a day of São Paulo: the figures are the sandbox's orders, and so is the CSV", async ({ page }) => {
      await signInAs(page, "seller@example.com");
      const shop = await shopPathOf(page);
      await page.goto(`${shop}/sales`);
      await expect(page.getByRole("heading", { name: "Vendas", level: 1 })).toBeVisible();
      await expect(page.getByRole("link", { name: "30 dias" })).toHaveAttribute("aria-current", "page");

      // Orders may arrive meanwhile: read both again until they agree.
      await expect
        .poll(
          async () => {
            const want = sums(await demoSales(page), startOfDay(new Date(), ZONE, -29), new Date(Date.now() + 60_000));
            await page.reload();
            return {
              orders: spaces(await page.getByTestId("sales-orders-value").textContent()) === String(want.orders),
              gross: spaces(await page.getByTestId("sales-gross-value").textContent()) === spaces(brl(want.gross)),
            };
          },
          { timeout: 30_000 },
        )
        .toEqual({ orders: true, gross: true });
      await expect(page.getByTestId("sales-chart")).toBeVisible();
      await expect(page.getByTestId("sales-states").locator("tbody tr").first()).toBeVisible();
      await expectNoSidewaysScroll(page);

      // A custom range of one day: the busiest of the sandbox's, from its midnight in São Paulo.
      const sales = await demoSales(page);
      const byDay = new Map<string, number>();
      for (const sale of sales) byDay.set(dayIn(sale.created_at), (byDay.get(dayIn(sale.created_at)) ?? 0) + 1);
      const [day] = [...byDay].sort((a, b) => b[1] - a[1])[0]!;
      const from = new Date(`${day}T03:00:00Z`);
      const want = sums(sales, from, new Date(from.getTime() + 86_400_000));
      await page.getByLabel("De", { exact: true }).fill(day);
      await page.getByLabel("Até", { exact: true }).fill(day);
      await page.getByRole("button", { name: "Mostrar" }).click();
      await expect(page).toHaveURL(new RegExp(`/sales\\?from=${day}&to=${day}$`));
      await expect(page.getByTestId("sales-orders-value")).toHaveText(String(want.orders));
      expect(spaces(await page.getByTestId("sales-gross-value").textContent())).toBe(spaces(brl(want.gross)));
      // The best product of that day by revenue, as its items add up; the owner may rank by margin too.
      const [bestSku, bestRevenue] = [...want.products].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]!;
      const first = page.getByTestId("sales-products").locator("li").first();
      await expect(first).toHaveAttribute("data-sku", bestSku);
      expect(spaces(await first.getByTestId("product-revenue").textContent())).toBe(spaces(brl(bestRevenue)));
      await expect(page.getByRole("navigation", { name: "Ordenar os produtos por" }).getByRole("link", { name: "Margem" })).toBeVisible();

      const csv = await page.request.get((await page.getByTestId("sales-export").getAttribute("href"))!, {
        headers: { "Accept-Language": "pt-BR" },
      });
      expect(csv.status()).toBe(200);
      expect(csv.headers()["content-disposition"]).toContain(`vendas-${day}-${day}.csv`);
      const lines = (await csv.text()).split("\r\n");
      expect(lines[1]).toBe(`Vendas brutas;${(want.gross / 100).toFixed(2).replace(".", ",")};${lines[1]!.split(";")[2]}`);
      expect(lines[3]!.split(";")[1]).toBe(String(want.orders));
    });
  });
}
