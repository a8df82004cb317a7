import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import type { APIRequestContext, Browser } from "@playwright/test";
import { can, ROLES } from "../../lib/people/roles";
import type { Capability, Role } from "../../lib/people/roles";
import { signWebhookBody } from "@marketplace/api/signature";
import { E2E_APP_URL } from "../../scripts/lib/e2e-ports";
import {
  buildActions,
  callAction,
  signInAs,
  seedTeamShop,
  sessionCookieFor,
  shopPathOf,
  storedAccessToken,
  withE2eDatabase,
} from "./support";
import type { TeamShop } from "./support";

// The role × capability matrix (issue 27): every server action of the build and every route
// handler under app/ is called as the shop's owner, manager, operations and viewer, as a member of
// another shop, and signed out, and must allow or refuse exactly as lib/auth/roles.ts says. A
// refusal is a redirect to the sign-in or refusal page (actions) or a 401/403 (route handlers),
// and changes nothing. The lists below are checked against the build and the files: a new action
// or route handler without a row fails here by itself.

/** What each action needs, and arguments that pass authorisation without changing anything when allowed (bad input, unknown ids). */
type Need = Capability | "person" | { public: string };
interface ActionRow {
  needs: Need;
  args: (shopId: string) => unknown[];
}
const FORM = (fields: Record<string, string>) => ({ $form: fields });
const IDLE = { status: "idle" };
const ACTIONS: Record<string, ActionRow> = {
  connectAction: { needs: { public: "starts the OAuth flow" }, args: () => [] },
  signInAction: { needs: { public: "starts the OAuth flow, to sign in only" }, args: () => [] },
  signInForInviteAction: { needs: { public: "starts the OAuth flow for an invite link's page" }, args: () => ["x"] },
  signOutAction: { needs: { public: "signing out needs no session" }, args: () => [] },
  setLocaleAction: { needs: { public: "the header's language switch: a preference of the browser, no shop's data" }, args: () => [] },
  passkeySignInAction: { needs: { public: "how a person without a session gets one; it checks the passkey itself" }, args: () => [] },
  acceptInvitationAction: { needs: "person", args: () => ["unknown-invite-token-0000000000"] },
  signOutEverywhereAction: { needs: "person", args: () => [] },
  openNotificationAction: { needs: "person", args: () => [FORM({ id: "no-such-notification" })] },
  markAllNotificationsReadAction: { needs: "person", args: () => [] },
  // A person's own preferences, for a shop in their list only (a stranger's call is sent back invalid, nothing saved).
  saveNotificationPreferencesAction: { needs: "person", args: (shop) => [FORM({ shopId: shop, quietFrom: "", quietTo: "" })] },
  previewBulkPricesAction: { needs: "prices.change", args: (shop) => [shop, FORM({})] },
  applyPriceBatchAction: { needs: "prices.change", args: (shop) => [shop, [], { run: { id: randomUUID(), source: "csv" } }] },
  createPriceAction: { needs: "prices.change", args: (shop) => [shop, IDLE, FORM({ type: "nonsense" })] },
  setProductPriceAction: {
    needs: "prices.change",
    args: (shop) => [shop, { sku: "", type: "nonsense", amount: "", currency: "", normalizer: 0 }],
  },
  createSkuAction: { needs: "skus.change", args: (shop) => [shop, IDLE, {}] },
  setPackingStageAction: { needs: "orders.packing", args: (shop) => [shop, { selection: { ids: [] }, stage: "nonsense" }] },
  setCostAction: { needs: "costs.change", args: (shop) => [shop, IDLE, FORM({ sku: "", cost: "", source: "nonsense" })] },
  listCostsAction: { needs: "prices.view", args: (shop) => [shop, ["x".repeat(51)]] },
  previewCostCsvAction: { needs: "costs.change", args: (shop) => [shop, FORM({})] },
  applyCostCsvAction: { needs: "costs.change", args: (shop) => [shop, []] },
  setPriceGuardLimitAction: { needs: "costs.change", args: (shop) => [shop, IDLE, FORM({ limitPercent: "0" })] },
  setCommissionRateAction: { needs: "costs.change", args: (shop) => [shop, IDLE, FORM({ mode: "nonsense" })] },
  processAgainAction: { needs: "events.processAgain", args: (shop) => [shop, "no-such-event"] },
  processAllDeadAction: { needs: "events.processAgain", args: (shop) => [shop] },
  updateWebhookSettingsAction: { needs: "webhooks.manage", args: (shop) => [shop, IDLE, FORM({ intent: "nonsense" })] },
  rotateReceiverAction: { needs: "webhooks.manage", args: (shop) => [shop] },
  dismissSetupGuideAction: { needs: "costs.change", args: (shop) => [shop] },
  recordInstalledAppAction: { needs: "overview.view", args: (shop) => [shop] },
  setTimeZoneAction: { needs: "connection.manage", args: (shop) => [shop, IDLE, FORM({ timeZone: "Not/AZone" })] },
  createInvitationAction: { needs: "members.manage", args: (shop) => [shop, IDLE, FORM({ role: "nonsense" })] },
  revokeInvitationAction: { needs: "members.manage", args: (shop) => [shop, "no-such-invitation"] },
  changeMemberAction: { needs: "members.manage", args: (shop) => [shop, "no-such-person", "viewer"] },
  disconnectAction: { needs: "connection.manage", args: (shop) => [shop] },
  deleteMyDataAction: { needs: "connection.manage", args: (shop) => [shop] },
};
/** Called last, in this order: they end the caller's session or the shop itself. */
const LAST = ["disconnectAction", "deleteMyDataAction", "signOutEverywhereAction"];

const ROUTES: Record<string, { needs: Need; methods?: Record<string, string> }> = {
  "/api/auth/[...nextauth]": { needs: { public: "Auth.js's own sign-in endpoints" } },
  "/api/health": { needs: { public: "liveness probe; reveals nothing" } },
  "/api/health/ready": { needs: { public: "readiness probe; reveals nothing" } },
  "/api/webhooks/marketplace/[key]": {
    needs: { public: "authorised by the body's signature, not a session (tests/integration/webhook-receiver.test.ts)" },
  },
  "/api/bench/floor/[key]": { needs: { public: "404 unless a benchmark turns it on" } },
  "/api/test/clock": { needs: { public: "404 unless TEST_CLOCK_CONTROL=1, the e2e run's setting (tests/e2e/digest.clocks.spec.ts)" } },
  "/api/passkeys/options": {
    needs: { public: "a sign-in challenge for someone without a session; 'add' is refused signed out (tests/e2e/passkeys.spec.ts)" },
  },
  "/api/passkeys": { needs: "person" },
  "/api/inbox": { needs: "person" },
  "/api/search": { needs: "person" },
  "/api/push/subscriptions": { needs: "person" },
  "/api/unsubscribe": {
    needs: { public: "authorised by the link's signature, not a session (tests/integration/notifications.test.ts)" },
  },
  "/api/s/[shopId]/orders": { needs: "orders.view" },
  "/api/s/[shopId]/sales/export": { needs: "overview.view" },
  "/api/s/[shopId]/orders/export": { needs: "orders.export" },
  "/api/s/[shopId]/shipping": { needs: "orders.view" },
  "/api/s/[shopId]/shipping/labels": { needs: "orders.customerData" },
  "/api/s/[shopId]/shipping/picking.pdf": { needs: "orders.view" },
  "/api/s/[shopId]/prices": { needs: "prices.view" },
  "/api/s/[shopId]/skus": { needs: "skus.view" },
  "/api/s/[shopId]/events": { needs: "events.view" },
  "/api/s/[shopId]/live": { needs: "overview.view" },
  "/api/s/[shopId]/audit/export": { needs: "audit.view" },
};

function routeFiles(dir = "app"): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return name === "route.ts" ? [full] : [];
  });
}

const routes = routeFiles().map((file) => {
  const source = readFileSync(file, "utf8");
  const methods = [...source.matchAll(/export (?:async function|const \{?\s*)(GET|POST|PUT|PATCH|DELETE)/g)].map((match) => match[1]!);
  const route = `/${path.dirname(path.relative("app", file)).split(path.sep).join("/")}`;
  return { route, methods };
});

type Caller = Role | "stranger" | "signedOut";
/** Refused first, the owner last: the owner's allowed calls may change the shop. */
const CALLERS: Caller[] = ["signedOut", "stranger", "viewer", "operations", "manager", "owner"];

function allowed(caller: Caller, needs: Need): boolean {
  if (typeof needs === "object") return true;
  if (caller === "signedOut") return false;
  if (needs === "person") return true;
  return caller !== "stranger" && can(caller, needs);
}

/**
 * What a refusal must not have changed: the shop's members, invitations, token and receiver,
 * settings and audit log. (Not "needs reconnect": the background reconciliation sets it on this
 * shop, whose token the sandbox does not know, whenever it runs.)
 */
const snapshot = (shopId: string) =>
  withE2eDatabase(async (client) => {
    const { rows } = await client.query(
      `SELECT (SELECT json_agg(m ORDER BY m."personId") FROM "Membership" m WHERE m."sellerId" = $1) AS members,
              (SELECT count(*) FROM "Invitation" WHERE "sellerId" = $1) AS invitations,
              (SELECT json_agg(json_build_array(c."accessTokenEnc", c."webhookKey", c."previousTokenEnc")) FROM "Connection" c WHERE c."sellerId" = $1) AS connection,
              (SELECT "timeZone" FROM "Seller" WHERE id = $1) AS "timeZone",
              (SELECT count(*) FROM "AuditEntry" WHERE "sellerId" = $1) AS audit,
              (SELECT count(*) FROM "Sku" WHERE "sellerId" = $1) AS skus,
              (SELECT count(*) FROM "ProductCost" WHERE "sellerId" = $1) AS costs,
              (SELECT json_build_array("priceChangeLimitPercent", "commissionRateBps") FROM "Seller" WHERE id = $1) AS "priceSettings",
              (SELECT json_agg(p ORDER BY p."orderId") FROM "OrderPacking" p WHERE p."sellerId" = $1) AS packing`,
      [shopId],
    );
    return JSON.stringify(rows[0]);
  });

async function cookiesOf(team: TeamShop, stranger: TeamShop): Promise<Record<Caller, string | undefined>> {
  const header = async (personId: string) => {
    const cookie = await sessionCookieFor(personId);
    return `${cookie.name}=${cookie.value}`;
  };
  const entries = await Promise.all(ROLES.map(async (role) => [role, await header(team.people[role])] as const));
  return { ...Object.fromEntries(entries), stranger: await header(stranger.people.owner), signedOut: undefined } as Record<
    Caller,
    string | undefined
  >;
}

/** The "use server" modules under `folders`: the files whose exported functions are server actions. */
function serverActionModules(folders: string[]): string[] {
  return folders.flatMap((folder) =>
    readdirSync(folder, { recursive: true, encoding: "utf8" })
      .map((name) => path.join(folder, name))
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && statSync(file).isFile())
      .filter((file) => readFileSync(file, "utf8").startsWith('"use server";')),
  );
}

test("every server action allows exactly the roles whose capability it needs, and a refusal changes nothing", async ({ request }) => {
  test.setTimeout(180_000);
  const actions = buildActions();
  // Every exported action of a "use server" module (lib/ and each feature's) is in the build, and every one has a row here.
  const exported = serverActionModules(["lib", "features"]).flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(/^export async function (\w+)/gm)].map((match) => match[1]!),
  );
  expect(actions.map((action) => action.name).sort()).toEqual([...new Set(exported)].sort());
  expect(Object.keys(ACTIONS).sort()).toEqual([...new Set(exported)].sort());

  const team = await seedTeamShop("matrix");
  const stranger = await seedTeamShop("other");
  const cookies = await cookiesOf(team, stranger);
  const ordered = [
    ...actions.filter((action) => !LAST.includes(action.name)),
    ...LAST.map((name) => actions.find((action) => action.name === name)!),
  ];

  for (const caller of CALLERS) {
    // Refused calls first, each checked to have changed nothing; then the allowed ones (whose
    // arguments are refused after authorisation, or which the owner may run on this shop).
    const calls = ordered.filter((action) => typeof ACTIONS[action.name]!.needs !== "object");
    const refused = calls.filter((action) => !allowed(caller, ACTIONS[action.name]!.needs));
    for (const action of [...refused, ...calls.filter((call) => !refused.includes(call))]) {
      const row = ACTIONS[action.name]!;
      const isRefused = refused.includes(action);
      const before = isRefused ? await snapshot(team.shopId) : null;
      const response = await callAction(request, action.id, row.args(team.shopId), cookies[caller]);
      const redirect = response.headers()["x-action-redirect"] ?? "";
      const what = `${action.name} as ${caller} answered ${response.status()} ${redirect}`;
      if (isRefused) {
        expect(redirect, what).toMatch(caller === "signedOut" ? /^\/connect/ : /^\/refused/);
        expect(await snapshot(team.shopId), `${what}, and changed the shop`).toBe(before);
      } else {
        expect(redirect, what).not.toMatch(/^\/(connect|refused)/);
        expect(response.status(), what).toBeLessThan(500);
      }
    }
  }
});

test("every route handler allows exactly the roles whose capability it needs (401 signed out, 403 otherwise)", async ({ request }) => {
  test.setTimeout(120_000);
  expect(routes.map((route) => route.route).sort()).toEqual(Object.keys(ROUTES).sort());
  const team = await seedTeamShop("routes");
  const stranger = await seedTeamShop("routes-other");
  const cookies = await cookiesOf(team, stranger);
  const refusal = /^\{"error":"(Not signed in|You do not have access to this)"\}$/;
  for (const caller of CALLERS) {
    for (const { route, methods } of routes) {
      const { needs } = ROUTES[route]!;
      if (typeof needs === "object") continue;
      const url = route.replace("[shopId]", team.shopId).replace(/\[\.\.\.[^\]]+\]|\[[^\]]+\]/g, "x");
      for (const method of methods) {
        const { status, body } = await callRoute(request, url, method, cookies[caller]);
        const what = `${method} ${route} as ${caller} answered ${status} ${body.slice(0, 80)}`;
        if (allowed(caller, needs)) expect(body, what).not.toMatch(refusal);
        else {
          expect(status, what).toBe(caller === "signedOut" ? 401 : 403);
          expect(body, what).toMatch(refusal);
        }
      }
    }
  }
});

/** A route handler's status and body; an event stream (which never ends) is read up to its first chunk. */
async function callRoute(
  request: APIRequestContext,
  url: string,
  method: string,
  cookie: string | undefined,
): Promise<{ status: number; body: string }> {
  if (!url.endsWith("/live")) {
    const response = await request.fetch(url, {
      method,
      maxRedirects: 0,
      headers: cookie ? { cookie } : {},
      ...(method === "POST" ? { data: {} } : {}),
    });
    return { status: response.status(), body: await response.text() };
  }
  const controller = new AbortController();
  const response = await fetch(new URL(url, E2E_APP_URL), { method, headers: cookie ? { cookie } : {}, signal: controller.signal });
  const reader = response.body!.getReader();
  const body = new TextDecoder().decode((await reader.read()).value);
  controller.abort();
  return { status: response.status, body };
}

test("an action given another shop's event acts as if it did not exist", async ({ page, browser }) => {
  // An event of seller@example.com, delivered to their receiver.
  await signInAs(page, "seller@example.com");
  const token = await storedAccessToken("seller@example.com");
  const webhookKey = await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ webhookKey: string }>(
      `SELECT c."webhookKey" FROM "Connection" c JOIN "Seller" s ON s.id = c."sellerId" WHERE s.email = 'seller@example.com'`,
    );
    return rows[0]!.webhookKey;
  });
  const body = JSON.stringify({ data: { domain: "chat", status: "new_conversation", id: `authz-${Date.now()}`, code: "c" } });
  const delivered = await page.request.post(`/api/webhooks/marketplace/${webhookKey}`, {
    headers: { "content-type": "application/json", "x-svc-signature": signWebhookBody(body, token) },
    data: body,
  });
  expect(delivered.status()).toBe(200);
  const eventId = await withE2eDatabase(
    async (client) => (await client.query<{ id: string }>(`SELECT "id" FROM "WebhookEvent" WHERE "rawBody" = $1`, [body])).rows[0]!.id,
  );
  const shopA = (await shopPathOf(page)).slice("/s/".length);

  const processAgain = buildActions().find((action) => action.name === "processAgainAction")!;
  expect(await (await callAction(page.request, processAgain.id, [shopA, eventId])).text()).toContain("processed again");
  await asOwnerOf(browser, "seller2@example.com", async (request, shopB) => {
    // Their own shop, with the other shop's event: not found.
    expect(await (await callAction(request, processAgain.id, [shopB, eventId])).text()).toContain("This event does not exist.");
    // The other shop, by its id: refused.
    expect((await callAction(request, processAgain.id, [shopA, eventId])).headers()["x-action-redirect"]).toMatch(/^\/refused/);
  });
});

async function asOwnerOf(browser: Browser, login: string, work: (request: APIRequestContext, shopId: string) => Promise<void>) {
  const other = await browser.newContext();
  try {
    const page = await other.newPage();
    await signInAs(page, login);
    await work(page.request, (await shopPathOf(page)).slice("/s/".length));
  } finally {
    await other.close();
  }
}

test("the four table endpoints answer alike: never cached, 400 naming a bad parameter", async ({ page }) => {
  await signInAs(page, "seller@example.com");
  const shop = await shopPathOf(page);
  for (const table of ["orders", "prices", "skus", "events"]) {
    const endpoint = `/api${shop}/${table}`;
    const response = await page.request.get(endpoint);
    expect(response.status(), endpoint).toBe(200);
    expect(response.headers()["cache-control"], endpoint).toBe("private, no-store");
    const bad = await page.request.get(`${endpoint}?size=7`);
    expect(bad.status(), endpoint).toBe(400);
    expect(((await bad.json()) as { error: string }).error, endpoint).toMatch(/^size: /);
  }
});
