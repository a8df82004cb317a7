import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import type { Browser, Cookie, Page } from "@playwright/test";
import { encode } from "next-auth/jwt";
import { encryptSecret, shopTokenContext } from "../../lib/crypto";
import { parseEnv } from "../../lib/env.js";
import { E2E_APP_URL, E2E_SANDBOX_URL } from "../../scripts/lib/e2e-ports";
import { connectAs, consent, storedAccessToken, withE2eDatabase, signOut } from "./support";

/** Runs `work` in a fresh browser context holding `cookies`: someone who copied them, or a second device. */
async function inAnotherBrowser(browser: Browser, cookies: Cookie[], work: (page: Page) => Promise<void>) {
  const other = await browser.newContext();
  try {
    await other.addCookies(cookies);
    await work(await other.newPage());
  } finally {
    await other.close();
  }
}

/** A cookie that no longer opens a session: pages send to sign-in, and the live stream answers 401. */
async function expectSignedOut(page: Page) {
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/connect$/);
  expect((await page.request.get("/api/s/any/live")).status()).toBe(401);
}

test.describe("connecting a marketplace account", () => {
  test("a PRO seller connects and lands on their dashboard, named", async ({ page }) => {
    await connectAs(page, "seller@example.com");

    await expect(page).toHaveURL(/\/s\/[^/]+$/);
    await expect(page.getByTestId("current-shop")).toHaveText("Loja Demo — you are owner");
    const account = page.getByTestId("account");
    await expect(account).toContainText("Loja Demo");
    await expect(account).toContainText("seller@example.com");
    await expect(page.getByRole("heading", { name: "Welcome, Loja Demo" })).toBeVisible();

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
    await expect(page.getByText("Loja Demo (seller@example.com)")).toBeVisible();
    await expect(page.getByTestId("granted-scopes")).toContainText("Read your orders");
    await expect(page.getByTestId("missing-scopes")).toHaveText("None found");
  });

  test("connecting switches notifications on when none are set, and leaves a URL set elsewhere alone", async ({ page, request }) => {
    const callbackUrl = async () => {
      const token = await storedAccessToken("seller2@example.com");
      const response = await request.get(`${E2E_SANDBOX_URL}/v1.0/marketplace/webhooks/url`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(response.status()).toBe(200);
      return ((await response.json()) as { url: string | null }).url;
    };
    const setCallbackUrl = async (url: string | null) => {
      const token = await storedAccessToken("seller2@example.com");
      const headers = { Authorization: `Bearer ${token}` };
      const path = `${E2E_SANDBOX_URL}/v1.0/marketplace/webhooks/url`;
      const response = url === null ? await request.delete(path, { headers }) : await request.post(path, { headers, data: { url } });
      expect(response.ok()).toBe(true);
    };
    const notice = page.getByTestId("notifications-at-connect");
    const connectAgain = async () => {
      await page.goto("/");
      await signOut(page);
      await expect(page.getByRole("button", { name: "Sign out" })).toHaveCount(0);
      await connectAs(page, "seller2@example.com");
    };

    // None set: connecting points it here, and says so.
    await connectAs(page, "seller2@example.com");
    await setCallbackUrl(null);
    await connectAgain();
    await expect(notice).toContainText("Notifications are on: none were set up");
    expect(await callbackUrl()).toMatch(new RegExp(`^${E2E_APP_URL}/api/webhooks/marketplace/[A-Za-z0-9_-]+$`));

    // Already here: kept (and set again with the new token).
    const here = await callbackUrl();
    await connectAgain();
    await expect(notice).toContainText("already sent them to this dashboard");
    expect(await callbackUrl()).toBe(here);

    // Set elsewhere: never overwritten without asking.
    await setCallbackUrl("https://hooks.example.com/elsewhere");
    await connectAgain();
    await expect(notice).toContainText("Notifications go to another address");
    expect(await callbackUrl()).toBe("https://hooks.example.com/elsewhere");
    await setCallbackUrl(null);
  });

  test("the sign-in page shows the sandbox's demo credentials", async ({ page }) => {
    await page.goto("/connect");
    await expect(page.getByRole("heading", { name: "Connect your marketplace account" })).toBeVisible();
    await expect(page.getByTestId("sandbox-credentials")).toContainText("seller@example.com");
    await expect(page.getByTestId("sandbox-credentials")).toContainText("demo1234");
  });

  test("denying on the consent page explains it, and try again works", async ({ page }) => {
    await connectAs(page, "seller@example.com", { decision: "deny" });

    await expect(page).toHaveURL(/\/connect\/error\?error=access_denied/);
    await expect(page.getByRole("heading", { name: "Access was not granted" })).toBeVisible();
    await expect(page.getByText(/declined, or your marketplace account has no PRO plan/)).toBeVisible();

    await page.getByRole("button", { name: "Try again" }).click();
    await consent(page, "seller@example.com");
    await expect(page.getByTestId("account")).toContainText("Loja Demo");
  });

  test("a seller without a PRO plan is told so", async ({ page }) => {
    await connectAs(page, "free@example.com");

    await expect(page).toHaveURL(/\/connect\/error\?error=access_denied/);
    await expect(page.getByText(/no PRO plan/)).toBeVisible();
    await expect(page.getByTestId("account")).toContainText("Connect account");
  });

  test("without order-order:read, the Orders area asks to reconnect and grant it", async ({ page }) => {
    await connectAs(page, "seller@example.com", { uncheck: ["order-order:read"] });
    await expect(page.getByTestId("account")).toContainText("Loja Demo");

    await page.goto("/orders");
    await expect(page.getByRole("heading", { name: "Reconnect and grant order-order:read" })).toBeVisible();
    await page.goto("/settings");
    await expect(page.getByTestId("missing-scopes")).toContainText("Read your orders");

    // Reconnecting with the permission granted brings the orders back.
    await page.goto("/orders");
    await page.getByRole("button", { name: "Reconnect and grant order-order:read" }).click();
    await consent(page, "seller@example.com");
    await page.goto("/orders");
    await expect(page.getByRole("table")).toBeVisible();
    await expect(page.getByRole("row")).not.toHaveCount(1);
  });

  test("disconnecting deletes the connection: the shop's pages are closed to everyone until its owner connects it again", async ({
    page,
    browser,
  }) => {
    await connectAs(page, "seller2@example.com");
    const shopUrl = page.url();
    const otherBrowserCookies = await page.context().cookies();
    await page.goto("/settings");
    await page.getByRole("button", { name: "Disconnect marketplace account" }).click();

    await expect(page).toHaveURL(/\/shops$/);
    await expect(page.getByTestId("shops")).toContainText("Disconnected: its owner must connect it again.");
    const tokens = await withE2eDatabase(
      async (client) =>
        (
          await client.query(`SELECT 1 FROM "Connection" c JOIN "Seller" s ON s.id = c."sellerId" WHERE s.email = $1`, [
            "seller2@example.com",
          ])
        ).rows.length,
    );
    expect(tokens).toBe(0);
    // Another browser of the same person, on the shop's own address.
    await inAnotherBrowser(browser, otherBrowserCookies, async (otherPage) => {
      await otherPage.goto(shopUrl);
      await expect(otherPage).toHaveURL(/\/shops$/);
      expect((await otherPage.request.get(`/api${new URL(shopUrl).pathname}/orders`)).status()).toBe(403);
    });
    await page.getByRole("button", { name: "Connect again" }).click();
    await consent(page, "seller2@example.com");
    await page.goto(shopUrl);
    await expect(page.getByTestId("current-shop")).toContainText("Loja Dois");
  });

  test("a session cookie issued before people existed keeps working, as the shop's owner", async ({ page, browser }) => {
    await connectAs(page, "seller2@example.com");
    const shopUrl = page.url();
    // What the cookie carried before issue 27: the seller, the session row and the start, no person.
    // The migration gave each session row to the owner of its seller's shop.
    const legacy = await withE2eDatabase(async (client) => {
      const { rows } = await client.query<{ sellerId: string; personId: string }>(
        `SELECT m."sellerId", m."personId" FROM "Membership" m JOIN "Seller" s ON s.id = m."sellerId" WHERE s.email = $1 AND m.role = 'owner'`,
        ["seller2@example.com"],
      );
      const sessionId = `legacy-${randomBytes(8).toString("hex")}`;
      await client.query(`INSERT INTO "PersonSession" (id, "personId") VALUES ($1, $2)`, [sessionId, rows[0]!.personId]);
      return { sellerId: rows[0]!.sellerId, sessionId };
    });
    const { AUTH_SECRET } = parseEnv(process.env);
    const value = await encode({
      token: { sellerId: legacy.sellerId, sub: legacy.sellerId, sessionId: legacy.sessionId, startedAt: Date.now() },
      secret: AUTH_SECRET,
      salt: "authjs.session-token",
    });
    const cookie = {
      name: "authjs.session-token",
      value,
      domain: "localhost",
      path: "/",
      httpOnly: true,
      sameSite: "Lax" as const,
      secure: false,
      expires: -1,
    };
    await inAnotherBrowser(browser, [cookie], async (otherPage) => {
      await otherPage.goto(shopUrl);
      await expect(otherPage.getByTestId("current-shop")).toHaveText("Loja Dois — you are owner");
      // And signing out ends it like any other.
      await signOut(otherPage);
      await expectSignedOut(otherPage);
    });
  });

  test("Sign out ends this browser's session and keeps the connection", async ({ page, browser }) => {
    await connectAs(page, "seller2@example.com");
    const cookiesBeforeSignOut = await page.context().cookies();
    const connection = () =>
      withE2eDatabase(async (client) => {
        const { rows } = await client.query<{ accessTokenEnc: string; webhookKey: string }>(
          `SELECT c."accessTokenEnc", c."webhookKey" FROM "Connection" c JOIN "Seller" s ON s.id = c."sellerId" WHERE s.email = $1`,
          ["seller2@example.com"],
        );
        return rows;
      });
    const before = await connection();
    await signOut(page);
    await expect(page.getByTestId("account")).toContainText("Connect account");
    await page.goto("/settings");
    await expect(page).toHaveURL(/\/connect$/);
    // The connection (token, receiver, other sessions) is untouched.
    expect(await connection()).toEqual(before);
    expect(before).toHaveLength(1);

    // The session ended on the server: a copy of the cookie taken before signing out is refused.
    await inAnotherBrowser(browser, cookiesBeforeSignOut, expectSignedOut);
  });

  test("Sign out everywhere ends every session of the account, and keeps the connection", async ({ page, browser }) => {
    await connectAs(page, "seller2@example.com");
    // Another browser holding this session (a copied cookie, a second device on the same sign-in).
    await inAnotherBrowser(browser, await page.context().cookies(), async (otherPage) => {
      await otherPage.goto("/settings");
      await expect(otherPage.getByRole("heading", { name: "Settings" })).toBeVisible();

      await page.goto("/settings");
      await page.getByRole("button", { name: "Sign out everywhere" }).click();
      await expect(page.getByTestId("account")).toContainText("Connect account");

      await otherPage.goto("/settings");
      await expect(otherPage).toHaveURL(/\/connect$/);
    });
    // The marketplace connection (its token) stays.
    const connections = await withE2eDatabase(async (client) => {
      const { rows } = await client.query(`SELECT 1 FROM "Connection" c JOIN "Seller" s ON s.id = c."sellerId" WHERE s.email = $1`, [
        "seller2@example.com",
      ]);
      return rows.length;
    });
    expect(connections).toBe(1);
  });
});

test("no response the browser receives contains the access token", async ({ page, context }) => {
  const seen: { url: string; text: string }[] = [];
  page.on("response", async (response) => {
    // A response still arriving as the test ends (a refresh of the live overview) has nothing to read.
    const allHeaders = await response.allHeaders().catch(() => null);
    if (!allHeaders) return;
    const headers = JSON.stringify(allHeaders);
    // The live-updates stream never ends; its messages carry ids and statuses only.
    const streaming = (allHeaders["content-type"] ?? "").startsWith("text/event-stream");
    const body = streaming ? Buffer.alloc(0) : await response.body().catch(() => Buffer.alloc(0));
    seen.push({ url: response.url(), text: `${headers}\n${body.toString("utf8")}` });
  });

  await connectAs(page, "seller@example.com");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Orders" }).click();
  await expect(page.getByRole("heading", { name: "Orders" })).toBeVisible();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
  await page.goto("/api/auth/session");
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Welcome, Loja Demo" })).toBeVisible();

  const token = await storedAccessToken("seller@example.com");
  expect(token.length).toBeGreaterThanOrEqual(16);
  // Every response: the dashboard's pages, RSC payloads, server actions, JSON and the sandbox's.
  expect(seen.filter((entry) => entry.url.startsWith(E2E_APP_URL)).length).toBeGreaterThan(5);
  for (const entry of seen) {
    expect(entry.text.includes(token), `response of ${entry.url} contains the token`).toBe(false);
  }
  for (const cookie of await context.cookies()) {
    expect(cookie.value.includes(token), `cookie ${cookie.name} contains the token`).toBe(false);
  }
});

test("two sellers in two browser contexts each see only their own account", async ({ browser }) => {
  const first = await browser.newContext();
  const second = await browser.newContext();
  try {
    const pageA = await first.newPage();
    const pageB = await second.newPage();
    await connectAs(pageA, "seller@example.com");
    await connectAs(pageB, "seller2@example.com");

    await pageA.reload();
    await expect(pageA.getByTestId("account")).toContainText("Loja Demo");
    await expect(pageA.getByTestId("account")).not.toContainText("Loja Dois");
    await expect(pageB.getByTestId("account")).toContainText("Loja Dois");
    await expect(pageB.getByTestId("account")).toContainText("seller2@example.com");

    // Each sees their own orders: no order id appears on both pages.
    await pageA.goto("/orders");
    await pageB.goto("/orders");
    // The table loads its rows in the browser: wait for them.
    await expect(pageA.locator("tbody tr")).toHaveCount(25);
    await expect(pageB.locator("tbody tr")).toHaveCount(25);
    const idsA = await pageA.locator("tbody tr td:first-child").allTextContents();
    const idsB = await pageB.locator("tbody tr td:first-child").allTextContents();
    expect(idsA.length).toBeGreaterThan(0);
    expect(idsB.length).toBeGreaterThan(0);
    expect(idsA.filter((id) => idsB.includes(id))).toEqual([]);
  } finally {
    await first.close();
    await second.close();
  }
});

test("a token the platform no longer accepts asks the seller to reconnect, and reconnecting fixes it", async ({ page, request }) => {
  await connectAs(page, "seller@example.com");
  await page.goto("/orders");
  await expect(page.locator("tbody tr").first()).toBeVisible();

  // A reset forgets every token the sandbox issued: the dashboard's now answers 401.
  expect((await request.post(`${E2E_SANDBOX_URL}/_sandbox/reset`, { data: {} })).status()).toBe(200);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Your marketplace connection needs renewing" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("status").filter({ hasText: "no longer accepts" })).toBeVisible();
  await page.goto("/settings");
  await expect(page.getByText("Needs reconnecting")).toBeVisible();

  await page.getByRole("button", { name: "Reconnect" }).first().click();
  await consent(page, "seller@example.com");
  await page.goto("/orders");
  await expect(page.locator("tbody tr").first()).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "no longer accepts" })).toHaveCount(0);
});

test("a stored token no key opens any more (the encryption key changed) asks the seller to reconnect", async ({ page }) => {
  await connectAs(page, "seller2@example.com");
  // As if TOKEN_ENCRYPTION_KEY had been replaced without keeping the old one in TOKEN_ENCRYPTION_KEYS_PREVIOUS.
  await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ sellerId: string }>(
      `SELECT c."sellerId" FROM "Connection" c JOIN "Seller" s ON s.id = c."sellerId" WHERE s.email = $1`,
      ["seller2@example.com"],
    );
    const shopId = rows[0]!.sellerId;
    await client.query(`UPDATE "Connection" SET "accessTokenEnc" = $1 WHERE "sellerId" = $2`, [
      encryptSecret("unreadable", shopTokenContext(shopId), randomBytes(32)),
      shopId,
    ]);
  });
  await page.goto("/orders");
  await expect(page.getByRole("heading", { name: "Your marketplace connection needs renewing" })).toBeVisible();
  await page.getByRole("button", { name: "Reconnect" }).first().click();
  await consent(page, "seller2@example.com");
  await page.goto("/orders");
  await expect(page.getByRole("heading", { name: "Your marketplace connection needs renewing" })).toHaveCount(0);
});

// Two platform users whose addresses differ only in letter case (the sandbox's seller2@example.com
// and Seller2@Example.com) are two people: neither signs in as the other (issue 37).
for (const { locale, signIn, title, description } of [
  {
    locale: "en-US",
    signIn: "Sign in with marketplace account",
    title: "This e-mail address already signs in here for another account",
    description: /written with other capital letters/,
  },
  {
    locale: "pt-BR",
    signIn: "Entrar com a conta do marketplace",
    title: "Este e-mail já entra no painel por outra conta",
    description: /escrito com outras letras maiúsculas/,
  },
]) {
  test(`signing in as a platform user whose e-mail differs from an owner's only in letter case is refused (${locale})`, async ({
    page,
    browser,
  }) => {
    // seller2@example.com is a person here, owner of Loja Dois.
    await connectAs(page, "seller2@example.com");
    await expect(page.getByTestId("current-shop")).toContainText("Loja Dois");

    const other = await browser.newContext({ locale });
    try {
      const intruder = await other.newPage();
      await intruder.goto("/connect");
      await intruder.getByRole("button", { name: signIn }).click();
      await consent(intruder, "Seller2@Example.com");
      await expect(intruder).toHaveURL(/\/connect\/error\?error=person_conflict/);
      await expect(intruder.getByRole("heading", { name: title })).toBeVisible();
      await expect(intruder.getByText(description)).toBeVisible();
      // No session: the owner's pages stay closed to this browser.
      await intruder.goto(page.url());
      await expect(intruder).toHaveURL(/\/connect$/);
    } finally {
      await other.close();
    }
    const people = await withE2eDatabase(
      async (client) =>
        (await client.query(`SELECT "platformEmail" FROM "Person" WHERE "marketplaceEmail" = $1`, ["seller2@example.com"])).rows,
    );
    expect(people).toEqual([{ platformEmail: "seller2@example.com" }]);
  });
}
