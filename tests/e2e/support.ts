import { randomBytes } from "node:crypto";
import { expect } from "@playwright/test";
import { readFileSync } from "node:fs";
import pg from "pg";
import type { APIRequestContext, Locator, Page, Browser } from "@playwright/test";
import { decryptSecret, encryptSecret, shopTokenContext } from "../../lib/crypto";
import { decodeKey, parseEnv } from "../../lib/env.js";
import { databaseUrl } from "../../scripts/lib/database";
import { E2E_APP_URL, E2E_DATABASE, E2E_SANDBOX_URL } from "../../scripts/lib/e2e-ports";

export const PASSWORD = "demo1234";

export interface ConsentOptions {
  password?: string;
  uncheck?: string[];
  decision?: "approve" | "deny";
}

/**
 * From any dashboard page with a "Connect" button: goes through the sandbox's login and consent
 * page as a person would, and waits until the browser is back on the dashboard.
 */
export async function connectAs(page: Page, login: string, options: ConsentOptions = {}) {
  await page.goto("/connect");
  // In whichever language the browser asks for.
  await page.getByRole("button", { name: /^(Connect marketplace account|Conectar conta do marketplace)$/ }).click();
  await consent(page, login, options);
}

/**
 * Signs the browser in as the person whose marketplace login this is, in the shop that login
 * connected, as `connectAs` leaves it but without the platform's pages: a session cookie as Auth.js
 * issues one (`sessionCookieFor`), once the shop is connected and healthy (its owner is this person,
 * no scope missing, no reconnect asked, and the platform accepts its stored token). Otherwise, as
 * for the first sign-in of each login in a run, it goes through `connectAs`. The page is left where
 * it was: the next `page.goto` is signed in. For tests about what a signed-in seller does, not
 * about connecting (connecting has its own tests, connect.spec.ts): the platform's pages cost
 * about 2 s a sign-in, 80 times a run.
 */
export async function signInAs(page: Page, login: string): Promise<void> {
  const personId = await ownerOfHealthyConnection(page.request, login);
  if (personId === null) {
    await connectAs(page, login);
    return;
  }
  await page.context().addCookies([await sessionCookieFor(personId)]);
}

/** The person who owns `login`'s connected shop, when the shop needs nothing before use; else null. */
async function ownerOfHealthyConnection(request: APIRequestContext, login: string): Promise<string | null> {
  const found = await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ personId: string; sellerId: string; enc: string }>(
      `SELECT p."id" AS "personId", s."id" AS "sellerId", c."accessTokenEnc" AS enc
         FROM "Seller" s
         JOIN "Connection" c ON c."sellerId" = s."id" AND c."needsReconnectAt" IS NULL AND c."scopesMissing" = ''
         JOIN "Membership" m ON m."sellerId" = s."id" AND m."role" = 'owner'
         JOIN "Person" p ON p."id" = m."personId" AND p."platformEmail" = $1
        WHERE s."platformEmail" = $1`,
      [login],
    );
    return rows[0];
  });
  if (!found) return null;
  let token: string;
  try {
    token = decryptStoredToken(found.enc, found.sellerId);
  } catch {
    return null;
  }
  const info = await request.post(`${E2E_SANDBOX_URL}/v1.0/integradores/basic_user_info`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  if (!info.ok()) return null;
  // Connecting makes the shop the one the person's shop-less paths lead to.
  await withE2eDatabase((client) =>
    client.query(`UPDATE "Person" SET "lastShopId" = $1 WHERE "id" = $2`, [found.sellerId, found.personId]),
  );
  return found.personId;
}

/**
 * Opens `url` and waits until the page has hydrated (`html[data-hydrated]`, components/providers.tsx),
 * for controls whose whole work is done in the browser with no form or link behind them (an editor
 * opened in place, a row selection, a file read for a preview): before hydration they do nothing.
 * Table controls need no wait: one used early is replayed (tests/e2e/hydration-race.spec.ts).
 */
export async function gotoHydrated(page: Page, url: string) {
  await page.goto(url);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

export async function consent(page: Page, login: string, options: ConsentOptions = {}) {
  await page.waitForURL((url) => url.href.startsWith(`${E2E_SANDBOX_URL}/auth/integradores/oauth`));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill(options.password ?? PASSWORD);
  for (const scope of options.uncheck ?? []) {
    await page.locator(`input[name="scope"][value="${scope}"]`).uncheck();
  }
  await page.locator(`button[name="decision"][value="${options.decision ?? "approve"}"]`).click();
  await page.waitForURL((url) => url.href.startsWith(E2E_APP_URL));
}

/** Runs `work` on a connection to the e2e run's database. */
export async function withE2eDatabase<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl(E2E_DATABASE) });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The access token the dashboard stored for a seller, decrypted as the server does. */
export async function storedAccessToken(email: string): Promise<string> {
  const row = await withE2eDatabase(async (client) => {
    const result = await client.query<{ sellerId: string; enc: string }>(
      'SELECT c."sellerId" AS "sellerId", c."accessTokenEnc" AS enc FROM "Connection" c JOIN "Seller" s ON s.id = c."sellerId" WHERE s.email = $1',
      [email],
    );
    return result.rows[0];
  });
  expect(row, `a stored connection for ${email}`).toBeDefined();
  return decryptStoredToken(row!.enc, row!.sellerId);
}

/** The short reference (decision 0018) the dashboard gave an order, once it has mirrored it. */
export async function orderReferenceOf(orderId: string): Promise<string> {
  let found: number | undefined;
  await expect
    .poll(
      async () =>
        (found = await withE2eDatabase(
          async (client) =>
            (await client.query<{ number: number }>('SELECT "number" FROM "OrderReference" WHERE "orderId" = $1', [orderId])).rows[0]
              ?.number,
        )),
      { timeout: 15_000, message: `a reference for order ${orderId}` },
    )
    .toBeDefined();
  return `#${found}`;
}

/** The orders a table lists, by the platform's id its links open (their text is the short reference). */
export async function orderIdsListed(scope: Page | Locator): Promise<string[]> {
  // A page lists its rows' links; a row (a locator), its own.
  const links = "goto" in scope ? scope.locator('tbody tr a[href*="/orders/"]') : scope.locator('a[href*="/orders/"]');
  const hrefs = await links.evaluateAll((found) => found.map((link) => link.getAttribute("href") ?? ""));
  return [...new Set(hrefs.map((href) => href.split("/").pop()!))];
}

/** A shop's stored access token, decrypted with the e2e run's key as the server does. */
function decryptStoredToken(enc: string, shopId: string): string {
  return decryptSecret(enc, shopTokenContext(shopId), decodeKey(parseEnv(process.env).TOKEN_ENCRYPTION_KEY)!);
}

/** Fills the New SKU form with a SKU that satisfies every rule of the spec's SKU table. */
export async function fillValidSku(page: Page, code: string) {
  await page.getByRole("textbox", { name: "Code", exact: true }).fill(code);
  await page.getByLabel("Title (pt_BR)").fill("Camiseta E2E Algodão");
  await page.getByRole("button", { name: "Add a title language" }).click();
  await page.getByLabel("Language of title 2").fill("en_US");
  await page.getByLabel("Title (en_US)").fill("E2E cotton T-shirt");
  await page.getByRole("textbox", { name: "Brand", exact: true }).fill("Malha Brasil");
  await page.getByLabel("Condition").selectOption("new");
  await page.getByLabel("Datasheet URL").fill("https://example.com/datasheet.pdf");

  await page.locator("#sku-dimensions-0-height-value").fill("3");
  await page.locator("#sku-dimensions-0-width-value").fill("25");
  await page.locator("#sku-dimensions-0-length-value").fill("30.5");
  await page.locator("#sku-dimensions-0-weight-value").fill("200");
  await page.locator("#sku-dimensions-0-weight-unit").selectOption("g");

  await page.getByRole("button", { name: "Add a description language" }).click();
  await page.getByLabel("Full description (pt_BR)").fill("Camiseta de algodão para o teste de ponta a ponta.");

  await page.getByRole("button", { name: "Add an identifier" }).click();
  await page.getByLabel("Value of identifier 1").fill("7891000315507");

  await page.getByRole("button", { name: "Add a variant attribute" }).click();
  await page.locator("#sku-attributes-variant-0-name").fill("Tamanho");
  await page.locator("#sku-attributes-variant-0-value").fill("M");
  await page.getByRole("button", { name: "Add a display language" }).click();
  await page.locator("#sku-attributes-variant-0-display-0-name").fill("Tamanho");
  await page.locator("#sku-attributes-variant-0-display-0-value").fill("Médio");

  await page.getByRole("button", { name: "Add a tag" }).click();
  await page.getByLabel("Tag 1", { exact: true }).fill("camiseta");
  await page.getByRole("button", { name: "Add media" }).click();
  await page.locator("#sku-medias-0-name").fill("frente");
  await page.locator("#sku-medias-0-reference").fill("https://example.com/cam.jpg");
  await page.getByLabel("Extras (JSON object)").fill('{"warranty_months": 3}');
}

export async function useThisDashboardForWebhooks(page: Page) {
  await page.goto("/webhooks");
  const button = page.getByRole("button", { name: "Use this dashboard" });
  // Another test may already have pointed this seller's notifications here.
  if (await button.isEnabled()) {
    await button.click();
    await expect(page.getByTestId("webhook-message")).toContainText(`${E2E_APP_URL}/api/webhooks/marketplace/`);
  }
  await expect(page.getByTestId("current-webhook-url")).toContainText("this dashboard");
}

/** What the tests read of an order from the sandbox: enough for its status and its ship-by. */
export interface SandboxOrder {
  id: string;
  status: string;
  created_at: string;
  deliveries: { status: string; shipping: { handling_time: { limit_date: string } } }[];
}

/** Every record at `path` that `query` selects for the seller whose token this is, straight from the sandbox's API (pages of 200). */
async function sandboxList<T>(request: APIRequestContext, token: string, path: string, query: string): Promise<T[]> {
  const records: T[] = [];
  for (let offset = 0; ; offset += 200) {
    const response = await request.get(`${E2E_SANDBOX_URL}${path}?${query}&_limit=200&_offset=${offset}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(response.status()).toBe(200);
    const { results } = (await response.json()) as { results: T[] };
    records.push(...results);
    if (results.length < 200) return records;
  }
}

/** Every order of the seller whose token this is that `query` selects. */
export function sandboxOrders(request: APIRequestContext, token: string, query: string): Promise<SandboxOrder[]> {
  return sandboxList<SandboxOrder>(request, token, "/v1.0/marketplace/orders", query);
}

export interface SandboxPrice {
  id: string;
  sku: string;
  type: "list" | "sell";
  value: number;
  currency: string;
  normalizer: number;
}

/** Every price of the seller whose token this is that `query` selects. */
export function sandboxPrices(request: APIRequestContext, token: string, query = ""): Promise<SandboxPrice[]> {
  return sandboxList<SandboxPrice>(request, token, "/v1.0/marketplace/portfolios/prices", query);
}

/** The path of the shop a signed-in page lands on ("/s/{shopId}"): the start page leads there. */
export async function shopPathOf(page: Page): Promise<string> {
  await page.goto("/");
  await page.waitForURL(/\/s\/[^/]+$/);
  return new URL(page.url()).pathname;
}

/** A session cookie for `personId`, as Auth.js issues one after sign-in (its row included). */
export async function sessionCookieFor(personId: string): Promise<{
  name: string;
  value: string;
  domain: string;
  path: string;
  httpOnly: boolean;
  sameSite: "Lax";
  secure: boolean;
  expires: number;
}> {
  const { encode } = await import("next-auth/jwt");
  const sessionId = `e2e-${randomBytes(12).toString("hex")}`;
  await withE2eDatabase((client) => client.query(`INSERT INTO "PersonSession" (id, "personId") VALUES ($1, $2)`, [sessionId, personId]));
  const env = parseEnv(process.env);
  const value = await encode({
    token: { personId, sub: personId, sessionId, startedAt: Date.now() },
    secret: env.AUTH_SECRET,
    salt: "authjs.session-token",
  });
  return {
    name: "authjs.session-token",
    value,
    domain: "localhost",
    path: "/",
    httpOnly: true,
    sameSite: "Lax",
    secure: false,
    expires: -1,
  };
}

export interface TeamShop {
  shopId: string;
  /** Person ids by role. */
  people: Record<"owner" | "manager" | "operations" | "viewer", string>;
}

/**
 * A shop made in the database, with one person per role: for checks of who may do what that need
 * no platform (its token is not one the sandbox knows, so platform calls answer "reconnect").
 */
export async function seedTeamShop(label: string): Promise<TeamShop> {
  const env = parseEnv(process.env);
  const suffix = randomBytes(4).toString("hex");
  const shopId = `e2e-${label}-${suffix}`;
  const people = { owner: `${shopId}-owner`, manager: `${shopId}-manager`, operations: `${shopId}-operations`, viewer: `${shopId}-viewer` };
  await withE2eDatabase(async (client) => {
    await client.query(`INSERT INTO "Seller" (id, email, name, "updatedAt") VALUES ($1, $2, $3, now())`, [
      shopId,
      `${shopId}@e2e.example`,
      `Loja ${label}`,
    ]);
    await client.query(
      `INSERT INTO "Connection" (id, "sellerId", "accessTokenEnc", "scopesRequested", "webhookKey") VALUES ($1, $2, $3, $4, $5)`,
      [
        `conn-${shopId}`,
        shopId,
        encryptSecret(`e2e-token-${suffix}`, shopTokenContext(shopId), decodeKey(env.TOKEN_ENCRYPTION_KEY)!),
        "basic_user_info portfolio:read portfolio:write order-order:read",
        randomBytes(24).toString("base64url"),
      ],
    );
    for (const [role, personId] of Object.entries(people)) {
      await client.query(`INSERT INTO "Person" (id, name) VALUES ($1, $2)`, [personId, `${label} ${role}`]);
      await client.query(`INSERT INTO "Membership" ("sellerId", "personId", role) VALUES ($1, $2, $3)`, [shopId, personId, role]);
    }
  });
  return { shopId, people };
}

/** Server actions the build knows (Next.js's manifest), by exported name. */
export function buildActions(): { id: string; name: string }[] {
  const manifest = JSON.parse(readFileSync(".next/server/server-reference-manifest.json", "utf8")) as {
    node: Record<string, { exportedName: string }>;
  };
  return Object.entries(manifest.node).map(([id, entry]) => ({ id, name: entry.exportedName }));
}

/**
 * Calls a server action as a browser would: plain JSON arguments, or a multipart body when one of
 * them is a form (React's reply encoding: the form's fields under "<n>_", referenced as "$K<n>").
 */
export function callAction(request: APIRequestContext, id: string, args: unknown[], cookie?: string) {
  const headers: Record<string, string> = {
    "Next-Action": id,
    Accept: "text/x-component",
    "Accept-Language": "en",
    ...(cookie ? { cookie } : {}),
  };
  const forms: Record<string, string>[] = [];
  const encoded = JSON.stringify(args, (_key, value: unknown) => {
    if (value && typeof value === "object" && "$form" in value) {
      forms.push((value as { $form: Record<string, string> }).$form);
      return `$K${forms.length}`;
    }
    return value;
  });
  if (forms.length === 0) {
    return request.post("/", { headers: { ...headers, "Content-Type": "text/plain;charset=UTF-8" }, data: encoded, maxRedirects: 0 });
  }
  const multipart: Record<string, string> = { "0": encoded };
  forms.forEach((fields, index) => {
    for (const [name, value] of Object.entries(fields)) multipart[`${index + 1}_${name}`] = value;
  });
  return request.post("/", { headers, multipart, maxRedirects: 0 });
}

/** Gives `page` a platform authenticator (Chromium's virtual one, through CDP): it keeps discoverable credentials and verifies its user at once. */
export async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return cdp;
}

/** The page fits its screen: nothing scrolls sideways (WCAG 1.4.10). `what` names it in the failure (its URL by default). */
export async function expectNoSidewaysScroll(page: Page, what = page.url(), assert: typeof expect = expect) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  assert(scrollWidth, `${what} is ${scrollWidth} px wide on a ${innerWidth} px screen`).toBeLessThanOrEqual(innerWidth);
}

/** Visible controls smaller than a 44 px touch target (inline text links are not controls here). */
export async function smallTouchTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const small: string[] = [];
    const controls = document.querySelectorAll<HTMLElement>('button, select, textarea, summary, input:not([type="hidden"])');
    for (const control of controls) {
      const box = control.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || getComputedStyle(control).visibility === "hidden") continue;
      // A checkbox or radio is tapped through its label, which is the target.
      const target =
        control instanceof HTMLInputElement && (control.type === "checkbox" || control.type === "radio")
          ? (control.closest("label") ?? control)
          : control;
      // The laid-out size, not the painted one: toasts stacked behind the front one are drawn scaled down.
      const { offsetWidth: width, offsetHeight: height } = target;
      if (height < 44 || width < 44)
        small.push(
          `${control.tagName.toLowerCase()} "${(control.textContent || control.getAttribute("aria-label") || control.getAttribute("name") || "").trim().slice(0, 30)}" ${Math.round(width)}×${Math.round(height)}`,
        );
    }
    return small;
  });
}

/** A touch target: at least 44 × 44 CSS pixels (WCAG 2.5.5). */
export async function expectTouchSized(target: Locator) {
  const box = await target.boundingBox();
  expect(box, "the target is laid out").not.toBeNull();
  expect(box!.height).toBeGreaterThanOrEqual(44);
  expect(box!.width).toBeGreaterThanOrEqual(44);
}

/** Signs out from the header's account menu (the person's name opens it). */
export async function signOut(page: Page) {
  const account = page.getByTestId("account");
  await account.locator("summary").click();
  await account.getByRole("button", { name: /^(Sign out|Sair)$/ }).click();
}

/** The paths of Loja Demo and Loja Dois, each signed in once (`page` stays signed in as Loja Demo's owner). */
export async function demoShops(page: Page, browser: Browser): Promise<{ shopA: string; shopB: string }> {
  await signInAs(page, "seller@example.com");
  const shopA = await shopPathOf(page);
  const second = await browser.newContext();
  try {
    const other = await second.newPage();
    await signInAs(other, "seller2@example.com");
    return { shopA, shopB: await shopPathOf(other) };
  } finally {
    await second.close();
  }
}
