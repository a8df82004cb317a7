import { createECDH, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { IncomingHttpHeaders, Server } from "node:http";
import { expect, test } from "@playwright/test";
import type { CDPSession } from "@playwright/test";
import { decrypt } from "http_ece";
import { formatMoney } from "../../lib/money";
import { E2E_APP_URL, E2E_PUSH_PORT, E2E_SANDBOX_URL } from "../../scripts/lib/e2e-ports";
import { DESK, PHONE } from "./devices";
import { seriousViolations } from "./pages";
import { expectNoSidewaysScroll, orderReferenceOf, signInAs, withE2eDatabase } from "./support";

// Push on the phone (issue 41), without the internet. Chromium cannot subscribe here (it asks its
// vendor's push service for an endpoint), so the test registers, through the dashboard's own
// route, the subscription a browser would send: an endpoint on a push-service stand-in in this
// process and keys the test made. The stand-in receives the encrypted request, which the test
// decrypts as the browser would (RFC 8291, http_ece). Then the dashboard's service worker, in
// Chromium, shows a push delivered through the DevTools protocol.

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

interface SandboxOrder {
  id: string;
  amounts: { total: number; currency: string; normalizer: number };
}

const received: Received[] = [];
let standIn: Server;
const STAND_IN = `http://127.0.0.1:${E2E_PUSH_PORT}`;

test.beforeAll(async () => {
  standIn = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ path: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks) });
      // /gone/… is a subscription the browser dropped: the push service answers 410 Gone.
      response.writeHead(request.url?.startsWith("/gone/") ? 410 : 201).end();
    });
  });
  await new Promise<void>((resolve) => standIn.listen(E2E_PUSH_PORT, "127.0.0.1", resolve));
});

test.afterAll(async () => {
  // Nothing is left registered on a stand-in that stops.
  await withE2eDatabase((client) => client.query(`DELETE FROM "PushSubscription" WHERE "endpoint" LIKE $1`, [`${STAND_IN}/%`]));
  await new Promise((resolve) => standIn.close(resolve));
});

/** A browser's subscription: its keys, and what it sends the dashboard. */
function deviceKeys(endpoint: string) {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    ecdh,
    auth,
    subscription: { endpoint, keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: auth.toString("base64url") } },
  };
}

async function registrationIdOf(cdp: CDPSession): Promise<string> {
  const found = new Promise<string>((resolve) => {
    cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
      const ours = registrations.find((registration) => registration.scopeURL === `${E2E_APP_URL}/` && !registration.isDeleted);
      if (ours) resolve(ours.registrationId);
    });
  });
  await cdp.send("ServiceWorker.enable");
  return found;
}

for (const { name, device } of [
  { name: "desk (1366 px)", device: DESK },
  { name: "phone (390 px)", device: PHONE },
]) {
  test.describe(`em português, ${name}`, () => {
    test.use({ locale: "pt-BR", ...device });

    test("a new order is pushed, encrypted, to the owner's device; a gone one is removed; the service worker shows it", async ({
      page,
      context,
      request,
    }) => {
      await signInAs(page, "seller@example.com");
      await page.goto("/account");
      await expect(page.getByRole("heading", { name: "Avisos neste aparelho" })).toBeVisible();
      await expect(page.getByTestId("push-device")).not.toHaveAttribute("data-state", "checking");
      expect(await seriousViolations(page)).toEqual([]);
      if (device === PHONE) await expectNoSidewaysScroll(page, "account");

      // Registered through the dashboard's route, as the Account page's button does.
      const tag = randomBytes(4).toString("hex");
      const live = deviceKeys(`${STAND_IN}/push/${tag}`);
      const gone = deviceKeys(`${STAND_IN}/gone/${tag}`);
      for (const { subscription } of [live, gone]) {
        expect((await page.request.post("/api/push/subscriptions", { data: subscription })).status()).toBe(201);
      }
      // An endpoint the network policy refuses is refused at the door too.
      const refused = await page.request.post("/api/push/subscriptions", {
        data: { ...live.subscription, endpoint: "ftp://push.example/x" },
      });
      expect(refused.status()).toBe(422);

      const created = await request.post(`${E2E_SANDBOX_URL}/_sandbox/orders`, { data: { seller: "seller@example.com" } });
      expect(created.status()).toBe(201);
      const order = ((await created.json()) as { orders: SandboxOrder[] }).orders[0]!;
      const reference = await orderReferenceOf(order.id);
      const total = formatMoney(
        { value: order.amounts.total, currency: order.amounts.currency, normalizer: order.amounts.normalizer },
        "pt-BR",
      );

      // The stand-in receives it encrypted for this device alone; decrypted as the browser would.
      let payload: { title: string; body: string; url: string; tag: string } | undefined;
      await expect
        .poll(
          () => {
            for (const push of received.filter((each) => each.path === `/push/${tag}`)) {
              const message = JSON.parse(
                decrypt(push.body, { version: "aes128gcm", privateKey: live.ecdh, authSecret: live.auth }).toString("utf8"),
              );
              if (message.url.endsWith(`/orders/${order.id}`)) payload = message;
            }
            return payload?.title;
          },
          { timeout: 20_000 },
        )
        .toBe(`Pedido novo ${reference} · ${total}`);
      expect(payload!.body).toBe("Loja Demo · toque para abrir o pedido");
      expect(payload!.url).toBe(`${E2E_APP_URL}${new URL(payload!.url).pathname}`);
      // Nothing a lock screen should not show: no customer, no document, no address.
      const push = received.find((each) => each.path === `/push/${tag}`)!;
      expect(push.headers["content-encoding"]).toBe("aes128gcm");
      expect(push.headers.authorization).toMatch(/^vapid t=[\w-]+\.[\w-]+\.[\w-]+, k=[\w-]{87}$/);
      expect(Number(push.headers.ttl)).toBeGreaterThan(0);

      // The push service said the other device is gone: its subscription is removed.
      await expect
        .poll(() =>
          withE2eDatabase(
            async (client) =>
              (await client.query(`SELECT 1 FROM "PushSubscription" WHERE "endpoint" = $1`, [gone.subscription.endpoint])).rowCount,
          ),
        )
        .toBe(0);
      expect(
        await withE2eDatabase(
          async (client) =>
            (await client.query(`SELECT 1 FROM "PushSubscription" WHERE "endpoint" = $1`, [live.subscription.endpoint])).rowCount,
        ),
      ).toBe(1);

      // In Chromium: the dashboard's service worker shows what a push brings, and keeps where a tap opens.
      await context.grantPermissions(["notifications"], { origin: E2E_APP_URL });
      const cdp = await context.newCDPSession(page);
      const registrationId = registrationIdOf(cdp);
      await page.evaluate(async () => {
        await navigator.serviceWorker.register("/sw.js", { scope: "/" });
        await navigator.serviceWorker.ready;
      });
      // A push DevTools hands over while the worker is still settling in is sometimes dropped (one
      // CI run in many, on the phone's emulation): it is handed over again. The message's tag makes
      // a second copy replace the first, so one notification is still what a seller sees.
      await expect(async () => {
        await cdp.send("ServiceWorker.deliverPushMessage", {
          origin: E2E_APP_URL,
          registrationId: await registrationId,
          data: JSON.stringify(payload),
        });
        await expect
          .poll(
            () =>
              page.evaluate(async () =>
                (await (await navigator.serviceWorker.ready).getNotifications()).map((shown) => ({
                  title: shown.title,
                  body: shown.body,
                  url: (shown.data as { url: string }).url,
                })),
              ),
            { timeout: 3_000 },
          )
          .toEqual([{ title: payload!.title, body: payload!.body, url: payload!.url }]);
      }).toPass({ timeout: 20_000 });
      await page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).forEach((shown) => shown.close()));
      await page.request.delete("/api/push/subscriptions", { data: { endpoint: live.subscription.endpoint } });
    });
  });
}
