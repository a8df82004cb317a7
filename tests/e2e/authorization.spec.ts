import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import type { APIRequestContext } from "@playwright/test";
import { signWebhookBody } from "../../lib/webhooks/signature";
import { connectAs, storedAccessToken, withE2eDatabase } from "./support";

// The authorisation sweep: every route handler under app/ and every server action of the build is
// called signed out, and must refuse; a new route or action that forgets `requireSeller` fails
// here by itself. The few public by design are listed with the reason.
const PUBLIC_ROUTES: Record<string, string> = {
  "/api/auth/[...nextauth]": "Auth.js's own sign-in endpoints",
  "/api/health": "liveness probe; reveals nothing",
  "/api/health/ready": "readiness probe; reveals nothing",
  "/api/webhooks/marketplace/[key]": "authorised by the body's signature, not a session (tests/integration/webhook-receiver.test.ts)",
  "/api/bench/floor/[key]": "404 unless a benchmark turns it on",
};
const PUBLIC_ACTIONS: Record<string, string> = {
  connectAction: "starts the OAuth flow",
  signOutAction: "signing out needs no session",
  setLocaleAction: "the header's language switch: a preference of the browser, it reads and writes no seller's data",
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

/** Server actions the build knows (Next.js's manifest), by exported name. */
function buildActions(): { id: string; name: string; file: string }[] {
  const manifest = JSON.parse(readFileSync(".next/server/server-reference-manifest.json", "utf8")) as {
    node: Record<string, { filename: string; exportedName: string }>;
  };
  return Object.entries(manifest.node).map(([id, entry]) => ({ id, name: entry.exportedName, file: entry.filename }));
}

const callAction = (request: APIRequestContext, id: string, args: unknown[]) =>
  request.post("/settings", {
    // An API request context sends no Accept-Language: the answers would be Portuguese.
    headers: { "Next-Action": id, "Content-Type": "text/plain;charset=UTF-8", Accept: "text/x-component", "Accept-Language": "en" },
    data: JSON.stringify(args),
    maxRedirects: 0,
  });

test("every route handler refuses a signed-out request, unless public by design", async ({ request }) => {
  expect(routes.length).toBeGreaterThanOrEqual(10);
  for (const { route, methods } of routes) {
    if (PUBLIC_ROUTES[route]) continue;
    const url = route.replace(/\[\.\.\.[^\]]+\]|\[[^\]]+\]/g, "x");
    for (const method of methods) {
      const response = await request.fetch(url, { method, maxRedirects: 0 });
      expect([401, 403, 404], `${method} ${route} answered ${response.status()} signed out`).toContain(response.status());
    }
  }
});

test("every server action refuses a signed-out caller, unless public by design", async ({ request }) => {
  const actions = buildActions();
  // Every exported action of lib/actions/ is in the build (an unused one would not be callable).
  const exported = readdirSync("lib/actions").flatMap((name) =>
    [...readFileSync(path.join("lib/actions", name), "utf8").matchAll(/^export async function (\w+)/gm)].map((match) => match[1]!),
  );
  expect(actions.map((action) => action.name).sort()).toEqual([...new Set(exported)].sort());
  for (const action of actions) {
    if (PUBLIC_ACTIONS[action.name]) continue;
    const response = await callAction(request, action.id, ["x", "y"]);
    // requireSeller redirects to the sign-in page; anything else (data, a 200 outcome) fails.
    expect(response.headers()["x-action-redirect"] ?? "", `${action.name} answered ${response.status()} signed out`).toMatch(/^\/connect/);
  }
});

test("an action given another seller's id acts as if it did not exist", async ({ page, browser }) => {
  // An event of seller@example.com, delivered to their receiver.
  await connectAs(page, "seller@example.com");
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
  const eventId = await withE2eDatabase(async (client) => (await client.query<{ id: string }>(`SELECT "id" FROM "WebhookEvent" WHERE "rawBody" = $1`, [body])).rows[0]!.id);

  const processAgain = buildActions().find((action) => action.name === "processAgainAction")!;
  expect((await (await callAction(page.request, processAgain.id, [eventId])).text())).toContain("processed again");
  const other = await browser.newContext();
  try {
    const otherPage = await other.newPage();
    await connectAs(otherPage, "seller2@example.com");
    const response = await callAction(otherPage.request, processAgain.id, [eventId]);
    expect(await response.text()).toContain("This event does not exist.");
  } finally {
    await other.close();
  }
});

test("the four table endpoints answer alike: never cached, 400 naming a bad parameter", async ({ page }) => {
  await connectAs(page, "seller@example.com");
  for (const endpoint of ["/api/orders", "/api/prices", "/api/skus", "/api/events"]) {
    const response = await page.request.get(endpoint);
    expect(response.status(), endpoint).toBe(200);
    expect(response.headers()["cache-control"], endpoint).toBe("private, no-store");
    const bad = await page.request.get(`${endpoint}?size=7`);
    expect(bad.status(), endpoint).toBe(400);
    expect(((await bad.json()) as { error: string }).error, endpoint).toMatch(/^size: /);
  }
});
