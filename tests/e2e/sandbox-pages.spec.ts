import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { E2E_SANDBOX_URL } from "../../scripts/lib/e2e-ports";
import { DESK, PHONE } from "./devices";
import { seriousViolations } from "./pages";
import { expectNoSidewaysScroll, PASSWORD, smallTouchTargets } from "./support";

// The sandbox's own pages (issue 40, point 12), scanned with axe and every rule it ships, as
// accessibility.spec.ts scans the dashboard's: the API reference (/docs), the console (/_sandbox/)
// with deliveries, orders and an error in it, and the consent page, at a desk and on a phone. On
// the phone the console and the consent page fit the screen and their controls are 44 px touch
// targets; the consent page speaks the browser's language.
//
// The console's rows come from an order of seller2 notified to a receiver of this test, through
// an integrator of its own (multi-integrator): the dashboard's connection stays as it is.

const CLIENT_ID = "multi-integrator";
const REDIRECT_URI = "http://localhost:3000/cb1";

const SIZES = [
  { name: "a phone", device: PHONE, phone: true },
  { name: "a desk", device: DESK, phone: false },
] as const;

const AUTHORIZE = `/auth/integradores/oauth?${new URLSearchParams({
  response_type: "code",
  client_id: CLIENT_ID,
  redirect_uri: REDIRECT_URI,
  scope: "basic_user_info order-order:read portfolio:read",
  state: "e2e",
})}`;

async function accessToken(request: APIRequestContext, login: string): Promise<string> {
  const consent = await request.post(`${E2E_SANDBOX_URL}${AUTHORIZE}`, {
    form: { login, password: PASSWORD, scope: "order-order:read", decision: "approve" },
    maxRedirects: 0,
  });
  expect(consent.status()).toBe(302);
  const code = new URL(consent.headers()["location"] ?? "http://invalid/").searchParams.get("code") ?? "";
  const exchange = await request.post(`${E2E_SANDBOX_URL}/v1.0/integradores/oauth/token`, {
    form: { code, client_id: CLIENT_ID, client_secret: "multi-secret", redirect_uri: REDIRECT_URI, grant_type: "authorization_code" },
  });
  expect(exchange.status()).toBe(200);
  return ((await exchange.json()) as { access_token: string }).access_token;
}

let receiver: Server;
let request: APIRequestContext;
let token: string;
let orderId: string;

test.beforeAll(async ({ playwright }) => {
  receiver = createServer((incoming, response) => {
    incoming.resume();
    incoming.on("end", () => response.writeHead(200).end("ok"));
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  request = await playwright.request.newContext();
  token = await accessToken(request, "seller2@example.com");
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/sandbox-pages-e2e`;
  const set = await request.post(`${E2E_SANDBOX_URL}/v1.0/marketplace/webhooks/url`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { url },
  });
  expect(set.status()).toBe(200);
  const created = await request.post(`${E2E_SANDBOX_URL}/_sandbox/orders`, { data: { seller: "seller2@example.com" } });
  orderId = ((await created.json()) as { orders: { id: string }[] }).orders[0]!.id;
  // Its notification delivered: a row with every column filled in.
  await expect
    .poll(async () => {
      const { deliveries } = (await (await request.get(`${E2E_SANDBOX_URL}/_sandbox/deliveries`)).json()) as {
        deliveries: { body: string; state: string }[];
      };
      return deliveries.some((delivery) => delivery.body.includes(orderId) && delivery.state === "delivered");
    })
    .toBe(true);
});

test.afterAll(async () => {
  await request?.delete(`${E2E_SANDBOX_URL}/v1.0/marketplace/webhooks/url`, { headers: { Authorization: `Bearer ${token}` } });
  await request?.dispose();
  receiver?.closeAllConnections();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

/** The console's pages, with rows in their tables, a form error and each kind of page. */
const consolePages = () => [
  "/_sandbox/",
  "/_sandbox/?seller=seller2%40example.com",
  "/_sandbox/?outcome=lost",
  "/_sandbox/console/orders?seller=seller2%40example.com",
  `/_sandbox/console/orders?order=${orderId}`,
  "/_sandbox/console/faults",
  "/_sandbox/console/clock",
];

async function checkPage(page: Page, path: string, phone: boolean, touch = phone) {
  expect.soft(await seriousViolations(page), path).toEqual([]);
  if (phone) await expectNoSidewaysScroll(page, path, expect.soft);
  if (touch) expect.soft(await smallTouchTargets(page), `${path}: controls under 44 px`).toEqual([]);
}

for (const { name, device, phone } of SIZES) {
  test.describe(`on ${name} (${device.viewport.width} px)`, () => {
    test.use({ ...device });

    test("the API reference (/docs) has no serious or critical axe violation and fits the screen", async ({ page }) => {
      await page.goto(`${E2E_SANDBOX_URL}/docs`);
      // Swagger UI draws the page from the document: scanned once the operations are there.
      await expect(page.locator(".opblock-summary-control").first()).toBeVisible();
      await expect(page.locator("select#servers")).toHaveAttribute("aria-label", "Server");
      // The intro speaks to a reader, without repository paths.
      await expect(page.locator(".info .description")).toContainText("authorization code flow");
      await expect(page.locator(".info")).not.toContainText(/sandbox\/|packages\/|\.ts\b/);
      // Swagger UI's controls are its own: their size is not held to the console's 44 px.
      await checkPage(page, "/docs", phone, false);
    });

    test(`the console has no serious or critical axe violation${phone ? ", fits the screen and is tapped easily" : ""}`, async ({
      page,
    }) => {
      for (const path of consolePages()) {
        await page.goto(`${E2E_SANDBOX_URL}${path}`);
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
        await checkPage(page, path, phone);
      }
      // The deliveries table on a phone: a card per delivery, each value named by its column.
      await page.goto(`${E2E_SANDBOX_URL}/_sandbox/?seller=seller2%40example.com`);
      const row = page.locator("tr[data-delivery]").filter({ hasText: orderId }).first();
      await expect(row.locator('td[data-label="Callback URL"]')).toContainText("/sandbox-pages-e2e");
      await expect(row.getByRole("button", { name: "Resend" })).toBeVisible();
    });

    test("the consent page speaks Portuguese to a browser in pt-BR, English otherwise, with no serious axe violation", async ({
      browser,
    }) => {
      for (const { locale, lang, heading, password, approve } of [
        { locale: "pt-BR", lang: "pt-BR", heading: "Autorizar Multi Redirect Integrator", password: "Senha", approve: "Autorizar" },
        { locale: "en-US", lang: "en", heading: "Authorize Multi Redirect Integrator", password: "Password", approve: "Approve" },
      ]) {
        const context = await browser.newContext({ ...device, locale });
        try {
          const page = await context.newPage();
          await page.goto(`${E2E_SANDBOX_URL}${AUTHORIZE}`);
          await expect(page.locator("html")).toHaveAttribute("lang", lang);
          await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
          await expect(page.getByLabel(password, { exact: true })).toBeVisible();
          await expect(page.getByRole("button", { name: approve })).toBeVisible();
          if (locale === "pt-BR") {
            await expect(page.getByRole("checkbox", { name: /Ver pedidos/ })).toBeChecked();
            await expect(page.getByRole("button", { name: "Recusar" })).toBeVisible();
          }
          await checkPage(page, `consent page (${locale})`, phone);
        } finally {
          await context.close();
        }
      }
    });
  });
}
