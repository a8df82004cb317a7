import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import { E2E_SANDBOX_URL } from "../../scripts/lib/e2e-ports";
import { signInAs } from "./support";

// Issue 26: the seller reads words where the platform sends codes (lib/words/). A fresh order is
// approved and its deliveries moved a step, so the overview, the orders, an order's page and the
// event log all have order, delivery and shipment codes to show, and none of them does.
test.use({ locale: "pt-BR" });

/** Platform codes where words belong; none of them is Portuguese a page could legitimately say. */
const CODES: [string, RegExp][] = [
  ["an order domain", /\border\.(order|delivery|shipping)\b/],
  ["a portfolio domain", /\bportfolio\.(sku|ad|price|inventory)\b/],
  ["a snake_case code", /\b(credit_card|debit_card|new_conversation|message_received)\b/],
  ["a commission type in brackets", /\((value|percentage)\)/],
  ["a precision code or the old bracketed workday", /dias úteis\)|\(working days\)|\b\d+ (days|hours)\b/],
];
const ORDER_STATUS_CODES = ["new", "approved", "cancelled", "finished"];
const DELIVERY_STATUS_CODES = ["created", "received", "posted", "delivered", "shipped"];

interface CreatedOrder {
  id: string;
  deliveries: { id: string; status: string; shipping: { pickup_details: { method: string } } }[];
}

async function expectWordsOnly(page: Page, where: string) {
  const text = await page.locator("main").innerText();
  for (const [what, code] of CODES) expect(text, `${where} shows ${what}`).not.toMatch(code);
  for (const badge of await page.getByTestId("order-status").allInnerTexts())
    expect(ORDER_STATUS_CODES, `${where}: order badge`).not.toContain(badge.trim());
  for (const badge of await page.getByTestId("delivery-status").allInnerTexts())
    expect(DELIVERY_STATUS_CODES, `${where}: delivery badge`).not.toContain(badge.trim());
}

test("the overview, the orders, an order and the event log say the platform's codes in words", async ({ page, request }) => {
  test.setTimeout(120_000);
  await signInAs(page, "seller@example.com");

  // Notifications must reach this dashboard (another test may have pointed them elsewhere).
  await page.goto("/webhooks");
  const useDashboard = page.getByRole("button", { name: "Usar este painel" });
  if (await useDashboard.isEnabled()) {
    await useDashboard.click();
    await expect(page.getByTestId("current-webhook-url")).toContainText("este painel");
  }

  const created = await request.post(`${E2E_SANDBOX_URL}/_sandbox/orders`, { data: { seller: "seller@example.com" } });
  expect(created.status()).toBe(201);
  const order = ((await created.json()) as { orders: CreatedOrder[] }).orders[0]!;
  expect((await request.post(`${E2E_SANDBOX_URL}/_sandbox/orders/${order.id}/status`, { data: { status: "approved" } })).status()).toBe(
    200,
  );
  let notifications = 2;
  for (const delivery of order.deliveries.filter((candidate) => candidate.status === "created")) {
    // The sandbox marks a shipment the seller arranges by its pickup method (sandbox/seed/orders.ts).
    const byShop = delivery.shipping.pickup_details.method === "seller";
    const step = byShop ? { path: "shipping", status: "shipped" } : { path: "status", status: "received" };
    const moved = await request.post(`${E2E_SANDBOX_URL}/_sandbox/orders/${order.id}/deliveries/${delivery.id}/${step.path}`, {
      data: { status: step.status },
    });
    expect(moved.status()).toBe(200);
    notifications++;
  }

  // Every notification of the order lands in the event log, each said as a sentence.
  await expect
    .poll(
      async () => {
        await page.goto(`/webhooks/events?resource=${order.id}`);
        return page.locator("tbody tr").count();
      },
      { timeout: 30_000 },
    )
    .toBeGreaterThanOrEqual(notifications);
  await expect(page.locator("main")).toContainText("Novo pedido");
  await expect(page.locator("main")).toContainText("Pedido aprovado");
  await expectWordsOnly(page, "the order's events");

  // An event's page: its instants in the shop's zone, as every other page says them, not ISO in UTC
  // (the raw body, kept as the platform sent it, may hold the platform's own).
  await page.locator("tbody tr").first().getByRole("link").first().click();
  await expect(page.locator("main dl").first()).toBeVisible();
  const facts = await page.locator("main dl").first().innerText();
  expect(facts, "the event's facts").not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
  expect(facts, "the event's facts").toMatch(/\d{2}:\d{2}:\d{2}/);

  await page.goto("/webhooks/events");
  await expect(page.locator("tbody tr").first()).toBeVisible();
  await expectWordsOnly(page, "/webhooks/events");
  // The subject filter offers words too.
  for (const option of await page.locator('select[name="domain"] option').allInnerTexts()) expect(option).not.toMatch(/\.|_/);

  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Últimas notificações" })).toBeVisible();
  await expectWordsOnly(page, "/");

  await page.goto("/orders");
  await expect(page.locator("tbody tr").first()).toBeVisible();
  await expectWordsOnly(page, "/orders");

  const firstOrder = await page.locator("tbody tr").first().getByRole("link").first().getAttribute("href");
  for (const path of [firstOrder!, `/orders/${order.id}`]) {
    await page.goto(path);
    await expect(page.getByTestId("order-delivery").first()).toBeVisible();
    await expect(page.getByTestId("delivery-status").first()).toBeVisible();
    await expectWordsOnly(page, path);
  }
  // The order moved above: its payment, handling time and deliveries in words.
  await expect(page.getByTestId("order-payments")).toContainText(/Cartão de crédito|Pix|Boleto bancário/);
  await expect(page.getByTestId("order-delivery").first()).toContainText(/\d+ dias? (úteis|útil|corridos?)/);
  if (notifications > 2)
    await expect(
      page
        .getByTestId("delivery-status")
        .filter({ hasText: /^(coletada|despachada)$/ })
        .first(),
    ).toBeVisible();
});
