import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { expect, test } from "@playwright/test";
import { signWebhookBody } from "../../lib/webhooks/signature";
import { databaseUrl } from "../../scripts/lib/database";
import { E2E_APP_PORT, E2E_APP_URL, E2E_DATABASE, E2E_SANDBOX_URL } from "./ports";
import { connectAs, storedAccessToken, withE2eDatabase } from "./support";

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
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl(E2E_DATABASE),
      MARKETPLACE_AUTH_URL: E2E_SANDBOX_URL,
      MARKETPLACE_BASE_URL: E2E_SANDBOX_URL,
      PUBLIC_BASE_URL: E2E_APP_URL,
      AUTH_URL: B_URL,
      NEXT_TELEMETRY_DISABLED: "1",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  bExit = new Promise((resolve) => instanceB.on("exit", (code) => resolve(code)));
  await expect
    .poll(async () => (await fetch(`${B_URL}/api/health/ready`).catch(() => null))?.status ?? 0, { timeout: 60_000 })
    .toBe(200);
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
const objectId = (seed: string) => createHash("md5").update(seed).digest("hex").slice(0, 24);

test("both instances are live and ready", async ({ request }) => {
  for (const origin of [E2E_APP_URL, B_URL]) {
    expect((await request.get(`${origin}/api/health`)).status()).toBe(200);
    const ready = await request.get(`${origin}/api/health/ready`);
    expect(ready.status()).toBe(200);
    expect(await ready.json()).toMatchObject({ status: "ready", database: "ok", migrations: { pending: [] } });
  }
});

test("a page open on instance B hears of an event that instance A received", async ({ page }) => {
  await connectAs(page, "seller@example.com");
  const receiver = await receiverOf("seller@example.com");
  // The same session (one AUTH_SECRET, cookies shared across ports of one host) on instance B.
  // Its live stream is subscribed before its response starts: once the response is here, B hears.
  const streamOpen = page.waitForResponse((response) => response.url() === `${B_URL}/api/live`);
  await page.goto(`${B_URL}/webhooks/events`);
  await expect(page.getByRole("heading", { name: "Event log" })).toBeVisible();
  await streamOpen;

  const orderId = objectId(`cross-instance-${Date.now()}`);
  const response = await receiver.deliver(E2E_APP_URL, orderEvent(orderId));
  expect(response.status).toBe(200);
  await expect(page.getByText(`Order ${orderId}`)).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole("row").filter({ hasText: orderId })).toContainText("order.order");
});

test("a stream that reconnects to the other instance with Last-Event-ID gets what it missed", async ({ page }) => {
  await connectAs(page, "seller@example.com");
  const receiver = await receiverOf("seller@example.com");
  const cookie = (await page.context().cookies(E2E_APP_URL)).map((c) => `${c.name}=${c.value}`).join("; ");
  const decoder = new TextDecoder();

  // A stream on A tells the browser where it starts; then it drops.
  const first = await fetch(`${E2E_APP_URL}/api/live`, { headers: { cookie } });
  const firstReader = first.body!.getReader();
  const opening = decoder.decode((await firstReader.read()).value);
  const lastEventId = /^id: (\d+)$/m.exec(opening)?.[1];
  expect(lastEventId).toBeDefined();
  await firstReader.cancel();

  // Meanwhile an order arrives (at A) and is processed.
  const orderId = objectId(`missed-${Date.now()}`);
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
  const second = await fetch(`${B_URL}/api/live`, { headers: { cookie, "last-event-id": lastEventId! } });
  const reader = second.body!.getReader();
  let received = "";
  const deadline = Date.now() + 10_000;
  while (!received.includes(orderId) && Date.now() < deadline) received += decoder.decode((await reader.read()).value);
  await reader.cancel();
  expect(received).toMatch(new RegExp(`id: \\d+\nevent: order\ndata: .*"orderId":"${orderId}"`));
});

test("1,000 events split across both instances are each stored once and processed once", async ({ page }) => {
  test.setTimeout(120_000);
  await connectAs(page, "seller2@example.com");
  const receiver = await receiverOf("seller2@example.com");
  const run = `split-${Date.now()}`;
  const bodies = Array.from({ length: 1_000 }, (_, index) => orderEvent(objectId(`${run}-${index}`), ["new", "approved"][index % 2]));
  // Each event to one instance, and every tenth also repeated to the other one (the platform
  // retrying through the load balancer): 1,100 deliveries, 20 at a time.
  const deliveries = bodies.flatMap((body, index) => {
    const [first, second] = index % 2 === 0 ? [E2E_APP_URL, B_URL] : [B_URL, E2E_APP_URL];
    return index % 10 === 0 ? [{ origin: first, body }, { origin: second, body }] : [{ origin: first, body }];
  });
  const statuses: number[] = [];
  for (let start = 0; start < deliveries.length; start += 20) {
    const chunk = deliveries.slice(start, start + 20);
    statuses.push(...(await Promise.all(chunk.map(({ origin, body }) => receiver.deliver(origin, body).then((r) => r.status)))));
  }
  expect(statuses.filter((status) => status !== 200)).toEqual([]);

  const hashes = bodies.map((body) => createHash("sha256").update(body).digest("hex"));
  const summary = () =>
    withE2eDatabase(async (client) => {
      const { rows } = await client.query<{ stored: number; processed: number; duplicates: number; onA: number; onB: number }>(
        `SELECT COUNT(*)::int AS stored,
                COUNT(*) FILTER (WHERE "processingState" = 'processed')::int AS processed,
                COALESCE(SUM("duplicateCount"), 0)::int AS duplicates
         FROM "WebhookEvent" WHERE "bodyHash" = ANY($1)`,
        [hashes],
      );
      return rows[0]!;
    });
  await expect.poll(summary, { timeout: 30_000 }).toEqual({ stored: 1_000, processed: 1_000, duplicates: 100 });

  // Processing an event writes exactly one live message, with the event's id, in the statement
  // that records the outcome: one each means processed once, by one instance or the other.
  const perEvent = await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ times: number; events: number }>(
      `SELECT times::int, COUNT(*)::int AS events FROM (
         SELECT e."id", COUNT(m."id") AS times
         FROM "WebhookEvent" e
         LEFT JOIN "LiveMessage" m ON m."payload"->>'eventId' = e."id"
         WHERE e."bodyHash" = ANY($1) GROUP BY e."id") per_event
       GROUP BY times`,
      [hashes],
    );
    return rows;
  });
  expect(perEvent).toEqual([{ times: 1, events: 1_000 }]);
});

test("SIGTERM on instance B ends its live streams, hands back its work and exits", async ({ page }) => {
  await connectAs(page, "seller@example.com");
  const cookie = (await page.context().cookies(E2E_APP_URL)).map((c) => `${c.name}=${c.value}`).join("; ");
  const stream = await fetch(`${B_URL}/api/live`, { headers: { cookie } });
  expect(stream.status).toBe(200);
  const reader = stream.body!.getReader();
  expect(new TextDecoder().decode((await reader.read()).value)).toContain(": connected");

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
  // ...and the process exits by itself, leaving no claim behind.
  expect(await bExit).not.toBeNull();
  const claims = await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ n: number }>(`SELECT COUNT(*)::int AS n FROM "WebhookWork" WHERE "claimedBy" LIKE $1`, [`%:${bPid}:%`]);
    return rows[0]!.n;
  });
  expect(claims).toBe(0);
});
