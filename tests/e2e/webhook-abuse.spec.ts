import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import type { APIRequestContext, Page } from "@playwright/test";
import { signWebhookBody } from "@marketplace/api/signature";
import { signInAs, storedAccessToken, withE2eDatabase } from "./support";

// What the seller sees of the receiver's defences (issue 25), at a desk and on a phone: bodies
// for another shop refused at their URL (the sign of a wrong MARKETPLACE_CALLBACK_SCOPE), and a
// notification replayed past the limit a minute, folded into one processing.
const LOGIN = "seller@example.com";
const SIZES = [
  { name: "desk", width: 1366, height: 900 },
  { name: "phone", width: 390, height: 844 },
];

async function receiverOf(login: string) {
  return withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ sellerId: string; webhookKey: string }>(
      `SELECT c."sellerId" AS "sellerId", c."webhookKey" AS "webhookKey" FROM "Connection" c JOIN "Seller" s ON s.id = c."sellerId" WHERE s.email = $1`,
      [login],
    );
    return rows[0]!;
  });
}

const post = (request: APIRequestContext, webhookKey: string, body: string, key: string) =>
  request.post(`/api/webhooks/marketplace/${webhookKey}`, {
    headers: { "content-type": "application/json", "x-svc-signature": signWebhookBody(body, key) },
    data: body,
  });

async function atEachSize(page: Page, check: () => Promise<void>) {
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.reload();
    await check();
  }
}

test("the Webhooks page says when notifications for another shop were refused at this seller's address", async ({ page, request }) => {
  await signInAs(page, LOGIN);
  const { webhookKey } = await receiverOf(LOGIN);
  // Another shop of this dashboard, with an order in its mirror.
  const shop = `e2e-shop-${randomBytes(4).toString("hex")}`;
  const orderId = randomBytes(12).toString("hex");
  await withE2eDatabase(async (client) => {
    await client.query(`INSERT INTO "Seller" (id, email, name, "updatedAt") VALUES ($1, $1 || '@example.com', 'Outra loja', now())`, [
      shop,
    ]);
    await client.query(
      `INSERT INTO "OrderMirror" ("sellerId", "orderId", "status", "createdAt", "updatedAt", "customerName", "total", "currency", "normalizer", "itemCount", "deliveries", "syncedAt")
       VALUES ($1, $2, 'new', now(), now(), 'Cliente', 1000, 'BRL', 100, 1, '[]', now())`,
      [shop, orderId],
    );
  });
  const body = JSON.stringify({ data: { domain: "order.order", status: "approved", order_id: orderId } });
  expect((await post(request, webhookKey, body, "the-other-shops-token")).status()).toBe(401);

  await page.goto("/webhooks");
  await atEachSize(page, async () => {
    await expect(page.getByTestId("other-shops")).toContainText(/notifications? for another shop of this dashboard reached your address/);
    await expect(page.getByTestId("other-shops")).toContainText("MARKETPLACE_CALLBACK_SCOPE=application");
  });
});

test("a notification replayed past the limit a minute is folded into one processing, and the event log says so", async ({
  page,
  request,
}) => {
  await signInAs(page, LOGIN);
  const { sellerId: shopId, webhookKey } = await receiverOf(LOGIN);
  const token = await storedAccessToken(LOGIN);
  const body = JSON.stringify({
    data: { domain: "chat", status: "message_received", id: `replay-${randomBytes(4).toString("hex")}`, code: "c" },
  });
  const states = () =>
    withE2eDatabase(async (client) => {
      const { rows } = await client.query<{ processingState: string; heldUntil: Date | null }>(
        `SELECT "processingState", "heldUntil" FROM "WebhookEvent" WHERE "sellerId" = $1 AND "rawBody" = $2 ORDER BY "receivedAt"`,
        [shopId, body],
      );
      return rows;
    });
  // The default limit is five copies a minute, each processed before the next arrives; the next
  // is held to the minute's end. No waiting for a fresh minute: should one begin between copies,
  // the count starts again in it, so a copy is held within eleven.
  let held: { heldUntil?: string } | null = null;
  for (let copy = 1; copy <= 11 && !held; copy++) {
    const response = await post(request, webhookKey, body, token);
    expect(response.status()).toBe(200);
    const answer = (await response.json()) as { received: boolean; heldUntil?: string };
    if (answer.heldUntil) held = answer;
    else await expect.poll(async () => (await states()).filter((row) => row.processingState === "processed").length).toBe(copy);
  }
  expect(held).toMatchObject({ heldUntil: expect.stringMatching(/:00\.000Z$/) });
  // Exactly five processed copies arrived in the held copy's minute.
  const inItsMinute = await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM "WebhookEvent" WHERE "sellerId" = $1 AND "rawBody" = $2 AND "processingState" = 'processed'
         AND "receivedAt" >= ($3::timestamptz AT TIME ZONE 'UTC') - interval '1 minute' AND "receivedAt" < ($3::timestamptz AT TIME ZONE 'UTC')`,
      [shopId, body, held!.heldUntil],
    );
    return rows[0]!.count;
  });
  expect(inItsMinute).toBe(5);
  expect((await post(request, webhookKey, body, token)).status()).toBe(200);
  expect((await states()).at(-1)).toMatchObject({ processingState: "pending", heldUntil: expect.any(Date) });

  await page.goto("/webhooks/events?domain=chat");
  await atEachSize(page, async () => {
    await expect(page.getByText("repeats folded").first()).toBeVisible();
  });
  await page
    .getByText("repeats folded")
    .first()
    .locator("xpath=ancestor::*[self::tr or self::li][1]")
    .getByRole("link", { name: "Details" })
    .click();
  await page.waitForURL(/\/webhooks\/events\/[^/?]+$/);
  await atEachSize(page, async () => {
    await expect(
      page.getByText(/This same notification arrived more times in one minute than the dashboard processes \(5\)/),
    ).toBeVisible();
  });
});
