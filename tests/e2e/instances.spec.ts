import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { expect, test } from "@playwright/test";
import { signWebhookBody } from "@marketplace/api/signature";
import { databaseUrl } from "../../scripts/lib/database";
import { E2E_APP_ENV, E2E_APP_PORT, E2E_APP_URL, E2E_DATABASE, E2E_SANDBOX_URL } from "../../scripts/lib/e2e-ports";
import { signInAs, shopPathOf, storedAccessToken, withE2eDatabase, orderReferenceOf } from "./support";

// Two dashboard instances on one database, as behind a load balancer: instance A is the e2e app
// server, instance B a second `next start` of the same build. Browsers and the platform may reach
// either; nothing may be lost, stored twice or processed twice, and live updates cross over.
const B_PORT = E2E_APP_PORT + 1;
const B_URL = `http://localhost:${B_PORT}`;

let instanceB: ChildProcess;
let bExit: Promise<number | null>;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  instanceB = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "--port", String(B_PORT)], {
    // A's settings, as a second instance of one deployment has: with the defaults instead, B
    // scheduled the shops it reconciled 300 s ahead (not 5 s), and a later spec waited for them.
    env: {
      ...process.env,
      ...E2E_APP_ENV,
      DATABASE_URL: databaseUrl(E2E_DATABASE),
      AUTH_URL: B_URL,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  bExit = new Promise((resolve) => instanceB.on("exit", (code) => resolve(code)));
  await expect.poll(async () => (await fetch(`${B_URL}/api/health/ready`).catch(() => null))?.status ?? 0, { timeout: 60_000 }).toBe(200);
});

test.afterAll(() => {
  if (instanceB.exitCode === null) instanceB.kill("SIGKILL");
});

async function receiverOf(email: string) {
  const token = await storedAccessToken(email);
  const webhookKey = await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ webhookKey: string }>(
      `SELECT c."webhookKey" FROM "Connection" c JOIN "Seller" s ON s.id = c."sellerId" WHERE s.email = $1`,
      [email],
    );
    return rows[0]!.webhookKey;
  });
  return {
    token,
    deliver: (origin: string, body: string) =>
      fetch(`${origin}/api/webhooks/marketplace/${webhookKey}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-svc-signature": signWebhookBody(body, token) },
        body,
      }),
  };
}

const orderEvent = (orderId: string, status = "new") => JSON.stringify({ data: { domain: "order.order", status, order_id: orderId } });

/**
 * Orders the sandbox creates without notifying anyone (every notification dropped): the tests
 * deliver the notifications themselves, to the instance they choose. Processing fetches them.
 */
async function createSilentOrders(shop: string, count: number): Promise<string[]> {
  await fetch(`${E2E_SANDBOX_URL}/_sandbox/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ dropWebhookRate: 1 }),
  });
  try {
    const ids: string[] = [];
    for (let left = count; left > 0; left -= 1_000) {
      const response = await fetch(`${E2E_SANDBOX_URL}/_sandbox/orders`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ seller: shop, count: Math.min(left, 1_000) }),
      });
      ids.push(...((await response.json()) as { orders: { id: string }[] }).orders.map((order) => order.id));
    }
    return ids;
  } finally {
    await fetch(`${E2E_SANDBOX_URL}/_sandbox/faults`, { method: "DELETE" });
  }
}

test("both instances are live and ready", async ({ request }) => {
  for (const origin of [E2E_APP_URL, B_URL]) {
    expect((await request.get(`${origin}/api/health`)).status()).toBe(200);
    const ready = await request.get(`${origin}/api/health/ready`);
    expect(ready.status()).toBe(200);
    expect(await ready.json()).toMatchObject({ status: "ready", database: "ok", migrations: { pending: [] } });
  }
});

test("a page open on instance B hears of an event that instance A received", async ({ page }) => {
  await signInAs(page, "seller@example.com");
  const receiver = await receiverOf("seller@example.com");
  // The same session (one AUTH_SECRET, cookies shared across ports of one host) on instance B.
  // Its live stream is subscribed before its response starts: once the response is here, B hears.
  const shop = await shopPathOf(page);
  const streamOpen = page.waitForResponse(
    (response) => new URL(response.url()).pathname === `/api${shop}/live` && response.url().startsWith(B_URL),
  );
  await page.goto(`${B_URL}${shop}/webhooks/events`);
  await expect(page.getByRole("heading", { name: "Event log" })).toBeVisible();
  await streamOpen;

  const orderId = (await createSilentOrders("seller@example.com", 1))[0]!;
  const response = await receiver.deliver(E2E_APP_URL, orderEvent(orderId));
  expect(response.status).toBe(200);
  await expect(page.locator("[data-sonner-toast]").getByText("New order").first()).toBeVisible({ timeout: 15_000 });
  const reference = await orderReferenceOf(orderId);
  await expect(
    page
      .getByRole("row")
      .filter({ hasText: new RegExp(`${reference}(?!\\d)`) })
      .first(),
  ).toContainText("New order");
});

test("a stream that reconnects to the other instance with Last-Event-ID gets what it missed", async ({ page }) => {
  await signInAs(page, "seller@example.com");
  const receiver = await receiverOf("seller@example.com");
  const cookie = (await page.context().cookies(E2E_APP_URL)).map((c) => `${c.name}=${c.value}`).join("; ");
  const live = `/api${await shopPathOf(page)}/live`;
  const decoder = new TextDecoder();

  // A stream on A tells the browser where it starts; then it drops.
  const first = await fetch(`${E2E_APP_URL}${live}`, { headers: { cookie } });
  const firstReader = first.body!.getReader();
  const opening = decoder.decode((await firstReader.read()).value);
  const lastEventId = /^id: (\d+)$/m.exec(opening)?.[1];
  expect(lastEventId).toBeDefined();
  await firstReader.cancel();

  // Meanwhile an order arrives (at A) and is processed.
  const orderId = (await createSilentOrders("seller@example.com", 1))[0]!;
  expect((await receiver.deliver(E2E_APP_URL, orderEvent(orderId, "approved"))).status).toBe(200);
  await expect
    .poll(() =>
      withE2eDatabase(async (client) => {
        const { rows } = await client.query(`SELECT 1 FROM "LiveMessage" WHERE "payload"->>'orderId' = $1`, [orderId]);
        return rows.length;
      }),
    )
    .toBe(1);

  // The browser reconnects, through the load balancer, to B, saying what it saw last.
  const second = await fetch(`${B_URL}${live}`, { headers: { cookie, "last-event-id": lastEventId! } });
  const reader = second.body!.getReader();
  let received = "";
  const deadline = Date.now() + 10_000;
  while (!received.includes(orderId) && Date.now() < deadline) received += decoder.decode((await reader.read()).value);
  await reader.cancel();
  expect(received).toMatch(new RegExp(`id: \\d+\nevent: order\ndata: .*"orderId":"${orderId}"`));
});

test("1,000 events split across both instances are each stored and processed once per receipt", async ({ page }) => {
  test.setTimeout(120_000);
  await signInAs(page, "seller2@example.com");
  const receiver = await receiverOf("seller2@example.com");
  const orderIds = await createSilentOrders("seller2@example.com", 1_000);
  const bodies = orderIds.map((orderId) => orderEvent(orderId));
  // Each event to one instance, and every tenth also repeated to the other one (the platform
  // retrying through the load balancer): 1,100 deliveries, 20 at a time.
  const deliveries = bodies.flatMap((body, index) => {
    const [first, second] = index % 2 === 0 ? [E2E_APP_URL, B_URL] : [B_URL, E2E_APP_URL];
    return index % 10 === 0
      ? [
          { origin: first, body },
          { origin: second, body },
        ]
      : [{ origin: first, body }];
  });
  const statuses: number[] = [];
  for (let start = 0; start < deliveries.length; start += 20) {
    const chunk = deliveries.slice(start, start + 20);
    statuses.push(...(await Promise.all(chunk.map(({ origin, body }) => receiver.deliver(origin, body).then((r) => r.status)))));
  }
  expect(statuses.filter((status) => status !== 200)).toEqual([]);

  const hashes = bodies.map((body) => createHash("sha256").update(body).digest("hex"));
  // A repeat that arrives while its first copy waits is coalesced into it (counted); one that
  // arrives after the first was taken up is a new receipt, processed again
  // (docs/decisions/0004-duplicates-and-durable-processing.md). Either way all 1,100 deliveries
  // are accounted for, every notification is stored, and every receipt is processed.
  const summary = () =>
    withE2eDatabase(async (client) => {
      const { rows } = await client.query<{ notifications: number; receipts: number; processed: number; deliveries: number }>(
        `SELECT COUNT(DISTINCT "bodyHash")::int AS notifications, COUNT(*)::int AS receipts,
                COUNT(*) FILTER (WHERE "processingState" = 'processed')::int AS processed,
                (COUNT(*) + COALESCE(SUM("duplicateCount"), 0))::int AS deliveries
         FROM "WebhookEvent" WHERE "bodyHash" = ANY($1)`,
        [hashes],
      );
      const { notifications, receipts, processed, deliveries } = rows[0]!;
      return { notifications, deliveries, allProcessed: processed === receipts, receiptsAtMost: receipts <= 1_100 };
    });
  await expect
    .poll(summary, { timeout: 30_000 })
    .toEqual({ notifications: 1_000, deliveries: 1_100, allProcessed: true, receiptsAtMost: true });

  // Processing an order event successfully writes exactly one "order" live message, with the
  // event's id, in the statement that records the outcome: one each means processed once, by one
  // instance or the other. (An attempt that failed and was retried wrote an "event" message.)
  const perEvent = await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ times: number; events: number }>(
      `SELECT times::int, COUNT(*)::int AS events FROM (
         SELECT e."id", COUNT(m."id") AS times
         FROM "WebhookEvent" e
         LEFT JOIN "LiveMessage" m ON m."payload"->>'eventId' = e."id" AND m."payload"->>'type' = 'order'
         WHERE e."bodyHash" = ANY($1) GROUP BY e."id") per_event
       GROUP BY times`,
      [hashes],
    );
    return rows;
  });
  expect(perEvent.map((row) => row.times)).toEqual([1]);
});

test("SIGTERM on instance B ends its live streams, hands back its work and exits", async ({ page }) => {
  await signInAs(page, "seller@example.com");
  const cookie = (await page.context().cookies(E2E_APP_URL)).map((c) => `${c.name}=${c.value}`).join("; ");
  const stream = await fetch(`${B_URL}/api${await shopPathOf(page)}/live`, { headers: { cookie } });
  expect(stream.status).toBe(200);
  const reader = stream.body!.getReader();
  expect(new TextDecoder().decode((await reader.read()).value)).toContain(": connected");

  // A client polling B over a kept-alive connection (a proxy's pooled upstream connection) must
  // not keep it running: without `Connection: close` on shutdown it answered for as long as it was polled.
  let polling = true;
  const pollUntil = Date.now() + 45_000; // bounded, should an assertion below fail first
  const poller = (async () => {
    while (polling && Date.now() < pollUntil) {
      await fetch(`${B_URL}/api/health`)
        .then((response) => response.text())
        .catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 600));

  const bPid = instanceB.pid!;
  instanceB.kill("SIGTERM");
  // The stream ends (the browser would reconnect to A through the load balancer)...
  const ended = await Promise.race([
    (async () => {
      for (;;) if ((await reader.read()).done) return true;
    })(),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), 15_000)),
  ]);
  expect(ended).toBe(true);
  // ...and the process exits by itself, polled or not, leaving no claim behind.
  const exit = await Promise.race([
    bExit.then((code) => ({ code })),
    new Promise<null>((resolve) => setTimeout(() => resolve(null), 20_000)),
  ]);
  polling = false;
  await poller;
  expect(exit, "B still running 20 s after SIGTERM").not.toBeNull();
  expect(exit!.code).not.toBeNull();
  const claims = await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ n: number }>(`SELECT COUNT(*)::int AS n FROM "WebhookWork" WHERE "claimedBy" LIKE $1`, [
      `%:${bPid}:%`,
    ]);
    return rows[0]!.n;
  });
  expect(claims).toBe(0);
});
