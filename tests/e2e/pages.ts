import { randomBytes } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import AxeBuilder from "@axe-core/playwright";
import { expect } from "@playwright/test";
import type { APIRequestContext, Page } from "@playwright/test";
import { sampleSku } from "@marketplace/api/schemas/fixtures";
import { signWebhookBody } from "@marketplace/api/signature";
import { storedAccessToken, withE2eDatabase } from "./support";

// Every page of the app, as the page-by-page checks (accessibility, a phone's screen) visit it. The
// routes come from app/**/page.tsx, as the authorization matrix's come from the route files: a new
// page with no dynamic segment is visited as it is (its <main> heading is the sign it is ready); one
// with an id or a token needs a visit below, and `visitsForEveryPage` fails until it has one.

/** The seller the signed-in visits are made as. */
export const VISITS_LOGIN = "seller@example.com";

export interface PageVisit {
  /** The app route it covers (`/s/[shopId]/orders/[id]`). */
  route: string;
  /** What a failure names. */
  name: string;
  /** Goes there as a seller would and waits until what the page is for is on the screen. */
  open: (page: Page) => Promise<void>;
  /** Also checked in the second language: its words change the layout (the header, tables, forms). */
  wordsChangeLayout?: boolean;
}

/** `/s/[shopId]/orders/[id]` for app/s/[shopId]/orders/[id]/page.tsx; route groups left out. */
export function appPageRoutes(dir = "app"): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return appPageRoutes(full);
    if (name !== "page.tsx") return [];
    const segments = path
      .relative("app", path.dirname(full))
      .split(path.sep)
      .filter((segment) => segment !== "" && !/^\(.*\)$/.test(segment));
    return [`/${segments.join("/")}`];
  });
}

const mainHeading = (page: Page) => expect(page.locator("main h1")).toBeVisible();
const firstRow = (page: Page) => expect(page.locator("tbody tr").first()).toBeVisible();

/** Shop pages are opened by their shop-less paths, which lead to the signed-in person's shop. */
function goto(route: string, url: string, ready: (page: Page) => Promise<void>, more: Partial<PageVisit> = {}): PageVisit {
  return {
    route,
    name: url,
    open: async (page) => {
      await page.goto(url);
      await ready(page);
    },
    ...more,
  };
}

const SIGNED_OUT: PageVisit[] = [
  goto("/", "/", (page) => expect(page.locator("main")).toBeVisible(), { wordsChangeLayout: true }),
  goto("/connect", "/connect", (page) => expect(page.locator("main")).toBeVisible(), { wordsChangeLayout: true }),
  goto("/connect/error", "/connect/error?error=access_denied&stage=authorize", mainHeading),
  // Any other first segment: a shop-less path when signed in, the not-found page otherwise.
  goto("/[section]/[[...rest]]", "/no-such-page", (page) => expect(page.locator("main")).toBeVisible()),
  goto("/invite/[token]", "/invite/no-such-invite-link-0000000000", (page) => expect(page.locator("main")).toBeVisible()),
];

/** A notification of the shop's own, through its receiver as the platform sends one, so the event log has an event to open. */
async function anEventOfTheShop(request: APIRequestContext): Promise<string> {
  const { sellerId: shopId, webhookKey } = await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ sellerId: string; webhookKey: string }>(
      `SELECT c."sellerId", c."webhookKey" FROM "Connection" c JOIN "Seller" s ON s.id = c."sellerId" WHERE s.email = $1`,
      [VISITS_LOGIN],
    );
    return rows[0]!;
  });
  const body = JSON.stringify({ data: { domain: "chat", status: "new_conversation", id: `pages-${Date.now()}`, code: "c" } });
  const token = await storedAccessToken(VISITS_LOGIN);
  const delivered = await request.post(`/api/webhooks/marketplace/${webhookKey}`, {
    headers: { "content-type": "application/json", "x-svc-signature": signWebhookBody(body, token) },
    data: body,
  });
  expect(delivered.status()).toBe(200);
  return withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ id: string }>(`SELECT "id" FROM "WebhookEvent" WHERE "sellerId" = $1 AND "rawBody" = $2`, [
      shopId,
      body,
    ]);
    return rows[0]!.id;
  });
}

/**
 * A SKU of the shop's catalogue, as the dashboard keeps one once the platform confirmed it. Written
 * straight to the table: one imported through the sandbox would be confirmed by a notification
 * while later pages are scanned, and its live refresh dims their tables mid-scan.
 */
async function aSkuOfTheShop(): Promise<string> {
  const sku = sampleSku(`PAGES-${Date.now()}`);
  const id = randomBytes(12).toString("hex");
  await withE2eDatabase((client) =>
    client.query(
      `INSERT INTO "Sku" ("id", "sellerId", "code", "title", "payload", "status", "confirmedAt")
       SELECT $1, s."id", $2, $3, $4, 'created', now() FROM "Seller" s WHERE s."email" = $5`,
      [id, sku.code, sku.title.pt_BR, JSON.stringify(sku), VISITS_LOGIN],
    ),
  );
  return id;
}

const SIGNED_IN: PageVisit[] = [
  goto("/s/[shopId]", "/", (page) => expect(page.getByTestId("count-late")).toBeVisible(), { wordsChangeLayout: true }),
  goto("/s/[shopId]/orders", "/orders", firstRow, { wordsChangeLayout: true }),
  goto("/s/[shopId]/orders", "/orders?deadline=late", firstRow),
  {
    route: "/s/[shopId]/orders/[id]",
    name: "an order",
    open: async (page) => {
      await page.goto("/orders");
      await page.locator("tbody tr").first().getByRole("link").first().click();
      await expect(page).toHaveURL(/\/orders\/[0-9a-f]{24}$/);
      await mainHeading(page);
    },
  },
  goto("/s/[shopId]/prices", "/prices", firstRow),
  goto("/s/[shopId]/prices/products", "/prices/products", firstRow, { wordsChangeLayout: true }),
  {
    route: "/s/[shopId]/prices/products",
    name: "prices by product, a price edited in place beside a bulk change's preview",
    open: async (page) => {
      await page.goto("/prices/products");
      await page.locator("tbody tr").first().getByRole("checkbox").check();
      await page.locator('input[name="change"]').fill("-10");
      await page.locator('input[name="change"]').press("Enter");
      await expect(page.getByTestId("bulk-change-preview")).toBeVisible();
      await page.locator("tbody tr").first().locator("td").nth(2).getByRole("button").click();
    },
  },
  goto("/s/[shopId]/prices/bulk", "/prices/bulk", mainHeading),
  goto("/s/[shopId]/prices/costs", "/prices/costs", mainHeading),
  {
    route: "/s/[shopId]/prices/[id]",
    name: "a price",
    open: async (page) => {
      await page.goto("/prices");
      await page.locator('tbody a[href*="/prices/"]').first().click();
      await expect(page.getByTestId("price-history-chart")).toBeVisible();
    },
  },
  goto("/s/[shopId]/shipping", "/shipping", firstRow, { wordsChangeLayout: true }),
  goto("/s/[shopId]/shipping/picking", "/shipping/picking?all=1&due=today", mainHeading),
  goto("/s/[shopId]/skus", "/skus", mainHeading),
  goto("/s/[shopId]/skus/new", "/skus/new", mainHeading, { wordsChangeLayout: true }),
  {
    route: "/s/[shopId]/skus/new",
    name: "the SKU form with its errors",
    open: async (page) => {
      await page.goto("/skus/new");
      await page.locator('main form button[type="submit"]').last().click();
      await expect(page.locator("main [role=alert]").first()).toBeVisible();
    },
  },
  {
    route: "/s/[shopId]/skus/[id]",
    name: "a SKU",
    open: async (page) => {
      await page.goto(`/skus/${await aSkuOfTheShop()}`);
      await mainHeading(page);
    },
  },
  goto("/s/[shopId]/webhooks", "/webhooks", (page) => expect(page.getByTestId("current-webhook-url")).toBeVisible()),
  goto("/s/[shopId]/webhooks/events", "/webhooks/events", mainHeading),
  {
    route: "/s/[shopId]/webhooks/events/[id]",
    name: "an event",
    open: async (page) => {
      await page.goto(`/webhooks/events/${await anEventOfTheShop(page.request)}`);
      await mainHeading(page);
    },
  },
  goto("/s/[shopId]/settings", "/settings", (page) => expect(page.getByTestId("granted-scopes")).toBeVisible(), {
    wordsChangeLayout: true,
  }),
  goto("/s/[shopId]/members", "/members", (page) => expect(page.getByTestId("members")).toBeVisible()),
  goto("/s/[shopId]/audit", "/audit", mainHeading, { wordsChangeLayout: true }),
  goto("/shops", "/shops", (page) => expect(page.getByTestId("shops")).toBeVisible()),
  goto("/account", "/account", mainHeading),
  // The inbox: its English words ("Mark all as read") are laid out beside the heading, as the Portuguese are.
  goto("/inbox", "/inbox", mainHeading, { wordsChangeLayout: true }),
  // The search with results in every group it can show: a name part most shops' customers have.
  goto("/search", "/search?q=silva", (page) => expect(page.getByTestId("search-results")).toBeVisible()),
  goto("/refused", "/refused", mainHeading),
];

/**
 * Every page of the app, signed out or signed in: the listed visits, then a plain visit of each
 * route without a dynamic segment that none covers. Throws for a route with one that has no visit.
 */
export function visitsForEveryPage(): { signedOut: PageVisit[]; signedIn: PageVisit[] } {
  const covered = new Set([...SIGNED_IN, ...SIGNED_OUT].map((visit) => visit.route));
  const uncovered = appPageRoutes().filter((route) => !covered.has(route));
  const needVisit = uncovered.filter((route) => /\[/.test(route.replace(/^\/s\/\[shopId\]/, "")));
  if (needVisit.length > 0) throw new Error(`pages with no visit in tests/e2e/pages.ts: ${needVisit.join(", ")}`);
  const plain = uncovered.map((route) => goto(route, route.replace(/^\/s\/\[shopId\]/, "") || "/", mainHeading));
  return { signedOut: SIGNED_OUT, signedIn: [...SIGNED_IN, ...plain] };
}

// The rules of the axe-core that @axe-core/playwright injects (its own copy, which may differ from
// the project's top-level one), every one switched on: best practices and the experimental ones too.
const axeCore = createRequire(createRequire(import.meta.url).resolve("@axe-core/playwright"))("axe-core") as {
  getRules: () => { ruleId: string }[];
};
const EVERY_RULE = Object.fromEntries(axeCore.getRules().map((rule) => [rule.ruleId, { enabled: true }]));

/** The page's serious and critical axe violations, with every rule axe ships. */
export async function seriousViolations(page: Page) {
  // After a client-side navigation the new page's <title> streams in with its metadata, which
  // may land after its content: the page is scanned once it has settled, title included. A title
  // that never comes still fails (the wait times out).
  await expect(page).toHaveTitle(/\S/);
  // A table refreshing (a live update) is dimmed until its rows come: scanned once they have.
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  // Toasts (live orders) fade in and out, and stack with their contents fading: half-transparent,
  // their words fail the contrast rule that they pass once shown. Scanned when every part of every
  // toast is fully shown or fully hidden, and none is arriving or leaving; a toast that arrived
  // during the scan (a live order can come at any moment) makes it scan again, up to three times.
  const toastsNow = () =>
    page.evaluate(() => {
      const toasts = [...document.querySelectorAll("[data-sonner-toast]")];
      const settled = toasts.every(
        (toast) =>
          toast.getAttribute("data-mounted") === "true" &&
          toast.getAttribute("data-removed") !== "true" &&
          [toast, ...toast.querySelectorAll("*")].every((part) => ["0", "1"].includes(getComputedStyle(part).opacity)),
      );
      return { settled, ids: toasts.map((toast) => toast.getAttribute("data-index")).join(",") + `/${toasts.length}` };
    });
  // axe's own run in the page (legacy mode), reporting the nodes of violations only: the default
  // runs each frame's part, then opens a blank page, injects axe again and merges the parts there,
  // and carries every passing node back. 3× faster over the pages (45 s → 14 s for the signed-in
  // ones at a desk), the same rules and the same violations, as long as a page has no frames:
  expect(page.frames(), "a page with frames needs axe's frame-by-frame run (drop setLegacyMode)").toHaveLength(1);
  let results: Awaited<ReturnType<AxeBuilder["analyze"]>>;
  for (let scan = 1; ; scan++) {
    await expect.poll(async () => (await toastsNow()).settled).toBe(true);
    const before = await toastsNow();
    results = await new AxeBuilder({ page })
      .setLegacyMode(true)
      .options({ rules: EVERY_RULE, resultTypes: ["violations"] })
      .analyze();
    const after = await toastsNow();
    if (scan === 3 || (after.settled && after.ids === before.ids)) break;
  }
  // The scan ran over the page (rules passed), so an empty list below means something.
  expect(results.passes.length).toBeGreaterThan(10);
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.slice(0, 3).map((node) => node.target.join(" ")),
    }));
}
