import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { E2E_SANDBOX_URL } from "../../scripts/lib/e2e-ports";
import { PASSWORD } from "./support";

// The sandbox console (/_sandbox/) in a browser with JavaScript off: create an order, find its
// webhook delivery in the filtered log, resend it and see the new attempt arrive.
//
// The notifications go to a receiver of this test, through an integrator of its own
// (multi-integrator) for seller2: the dashboard's connection and callback URL stay as they are.

const CLIENT_ID = "multi-integrator";
const REDIRECT_URI = "http://localhost:3000/cb1";

async function accessToken(request: APIRequestContext, login: string): Promise<string> {
  const query = new URLSearchParams({ response_type: "code", client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, scope: "order-order:read" });
  const consent = await request.post(`${E2E_SANDBOX_URL}/auth/integradores/oauth?${query}`, {
    form: { login, password: PASSWORD, scope: "order-order:read", decision: "approve" },
    maxRedirects: 0,
  });
  expect(consent.status()).toBe(302);
  const code = new URL(consent.headers()["location"] ?? "http://invalid/").searchParams.get("code") ?? "";
  expect(code, "an authorization code").not.toBe("");
  const exchange = await request.post(`${E2E_SANDBOX_URL}/v1.0/integradores/oauth/token`, {
    form: { code, client_id: CLIENT_ID, client_secret: "multi-secret", redirect_uri: REDIRECT_URI, grant_type: "authorization_code" },
  });
  expect(exchange.status()).toBe(200);
  return ((await exchange.json()) as { access_token: string }).access_token;
}

test("the sandbox console without JavaScript: create an order, filter the delivery log, resend a delivery", async ({
  browser,
  request,
}) => {
  const received: string[] = [];
  const server: Server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      received.push(Buffer.concat(chunks).toString());
      response.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/console-e2e`;
  const token = await accessToken(request, "seller2@example.com");
  const callback = `${E2E_SANDBOX_URL}/v1.0/marketplace/webhooks/url`;
  const set = await request.post(callback, { headers: { Authorization: `Bearer ${token}` }, data: { url: receiverUrl } });
  expect(set.status()).toBe(200);

  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    await page.goto(`${E2E_SANDBOX_URL}/_sandbox/`);
    await expect(page.getByRole("heading", { name: "Webhook deliveries" })).toBeVisible();

    // Create one order for seller2 with the form.
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Orders" }).click();
    await expect(page.getByRole("heading", { name: "Create orders" })).toBeVisible();
    const create = page.locator('form[method="post"][action="/_sandbox/console/orders"]');
    await create.getByLabel("Seller").fill("seller2@example.com");
    await create.getByLabel("Count").fill("1");
    await create.getByRole("button", { name: "Create orders" }).click();
    const created = page.getByRole("status");
    await expect(created).toContainText("Created 1 order for seller2@example.com:");
    const orderId = /([0-9a-f]{24})\.$/.exec((await created.textContent())?.trim() ?? "")?.[1] ?? "";
    expect(orderId).toMatch(/^[0-9a-f]{24}$/);
    await expect(page.locator(`[data-order="${orderId}"]`)).toContainText("status new");

    // Its order.order/new notification reaches the receiver once.
    await expect.poll(() => received.filter((body) => body.includes(orderId)).length, { timeout: 15_000 }).toBe(1);

    // Filter the log down to it.
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Deliveries" }).click();
    await page.getByLabel("Seller").fill("seller2@example.com");
    await page.getByLabel("Domain").selectOption("order.order");
    await page.getByLabel("Status").selectOption("new");
    await page.getByLabel("Outcome").selectOption("delivered");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/seller=seller2%40example\.com&domain=order\.order&status=new&outcome=delivered/);
    const rows = page.locator("tr[data-delivery]");
    await expect(rows.first()).toBeVisible();
    for (const row of await rows.all()) {
      await expect(row).toContainText("seller2@example.com");
      await expect(row).toContainText("order.order");
      await expect(row).toContainText("delivered");
    }
    const original = rows.filter({ hasText: orderId }).filter({ hasText: receiverUrl });
    await expect(original).toHaveCount(1);
    const originalId = (await original.getAttribute("data-delivery")) ?? "";

    // Resend it: back on the same filtered log, with a new delivery of the same event.
    await original.getByRole("button", { name: "Resend" }).click();
    const resent = page.getByRole("status");
    await expect(resent).toContainText(`Delivery ${originalId} sent again as delivery`);
    await expect(page).toHaveURL(/seller=seller2%40example\.com&domain=order\.order&status=new&outcome=delivered/);
    const copyId = /as delivery ([0-9a-f]{24})\./.exec((await resent.textContent()) ?? "")?.[1] ?? "";
    expect(copyId).toMatch(/^[0-9a-f]{24}$/);
    expect(copyId).not.toBe(originalId);

    // The new attempt: delivered at the first try, and the receiver got the same body again.
    const copy = page.locator(`tr[data-delivery="${copyId}"]`);
    await expect(async () => {
      await page.reload();
      await expect(copy).toContainText("1 attempt of", { timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    await expect(copy).toContainText(`resend of ${originalId}`);
    await expect(copy).toContainText("last: HTTP 200");
    await expect(copy).toContainText(receiverUrl);
    await expect(page.locator(`tr[data-delivery="${originalId}"]`)).toBeVisible();
    const bodies = received.filter((body) => body.includes(orderId));
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toBe(bodies[0]);
  } finally {
    await context.close();
    await request.delete(callback, { headers: { Authorization: `Bearer ${token}` } });
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
