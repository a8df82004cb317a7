import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { E2E_SANDBOX_URL } from "../../scripts/lib/e2e-ports";
import { DESK, PHONE } from "./devices";
import { seriousViolations } from "./pages";
import {
  buildActions,
  callAction,
  connectAs,
  expectNoSidewaysScroll,
  gotoHydrated,
  sandboxOrders,
  sessionCookieFor,
  shopPathOf,
  signInAs,
  smallTouchTargets,
  storedAccessToken,
  withE2eDatabase,
} from "./support";

// The overview's setup guide (issue 40, point 13), in Portuguese as a Brazilian seller works, at a
// desk and on a phone, with one check in English: a shop just connected has done none of the four
// steps; a notification arriving, costs entered for the best sellers, an invitation and opening the
// installed app each tick theirs after a reload; hiding the guide hides it for that shop alone and
// for good; viewers and operations never see it, and a viewer's forged "hide" is refused.

const SELLER = "seller@example.com";
const OTHER = "seller2@example.com";
const DAY = 86_400_000;

/**
 * The guide as on a shop's first day: not hidden, no app opened, no cost, no invitation open and
 * nobody in the shop but the person who connected it. Run before and after, so no other test's
 * leftovers tick a step and none of ours is left behind.
 */
async function freshGuide(login: string) {
  await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ id: string }>(`SELECT id FROM "Seller" WHERE "platformEmail" = $1`, [login]);
    for (const { id } of rows) {
      await client.query(`DELETE FROM "SetupGuide" WHERE "sellerId" = $1`, [id]);
      await client.query(`DELETE FROM "ProductCost" WHERE "sellerId" = $1`, [id]);
      await client.query(
        `UPDATE "Invitation" SET "revokedAt" = now() WHERE "sellerId" = $1 AND "acceptedAt" IS NULL AND "revokedAt" IS NULL`,
        [id],
      );
      await client.query(
        `DELETE FROM "Membership" WHERE "sellerId" = $1 AND "personId" NOT IN (SELECT id FROM "Person" WHERE "platformEmail" = $2)`,
        [id, login],
      );
    }
  });
}

interface PlacedOrder {
  status: string;
  created_at: string;
  deliveries: { items: { quantity: number; info: { sku: string } }[] }[];
}

/** The five codes with most units over the last 30 days' orders (cancelled left out), ties to the code sorting first: straight from the sandbox's API. */
async function bestSellers(request: APIRequestContext, token: string): Promise<string[]> {
  const orders = (await sandboxOrders(request, token, "status__in=new,approved,finished")) as unknown as PlacedOrder[];
  const since = Date.now() - 30 * DAY;
  const units = new Map<string, number>();
  for (const order of orders.filter((placed) => Date.parse(placed.created_at) >= since))
    for (const delivery of order.deliveries)
      for (const item of delivery.items) units.set(item.info.sku, (units.get(item.info.sku) ?? 0) + item.quantity);
  return [...units]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .slice(0, 5)
    .map(([sku]) => sku);
}

const guideIn = (page: Page, name = "Configure sua loja") => page.getByRole("region", { name });
const stepOf = (guide: Locator, name: "notifications" | "costs" | "team" | "phone") => guide.getByTestId(`setup-step-${name}`);

/** Reloads `shop`'s overview until the step is ticked (its words come from the server, read again on each load). */
async function expectTickedAfterReload(page: Page, shop: string, step: "notifications" | "costs" | "team" | "phone") {
  await expect
    .poll(
      async () => {
        await page.goto(shop);
        // By its test id: the guide's name changes once every step is done.
        return stepOf(page.getByTestId("setup-guide"), step).getAttribute("data-done", { timeout: 10_000 });
      },
      { timeout: 30_000 },
    )
    .toBe("true");
}

/** From here on the browser answers the display-mode query as an app opened from the home screen does. */
async function openAsInstalledApp(page: Page) {
  await page.addInitScript(() => {
    const matchMedia = window.matchMedia.bind(window);
    window.matchMedia = (query: string) => {
      const list = matchMedia(query);
      if (query.includes("display-mode: standalone")) Object.defineProperty(list, "matches", { value: true });
      return list;
    };
  });
}

test.afterAll(async () => {
  await freshGuide(SELLER);
  await freshGuide(OTHER);
});

test.describe("em português, numa mesa (1366 px)", () => {
  test.use({ locale: "pt-BR", ...DESK });
  test.beforeEach(async () => {
    await freshGuide(SELLER);
    await freshGuide(OTHER);
  });

  test("a shop just connected has done none of the steps; each is ticked by what the seller does, and once all four are done the guide says so and hides for that shop alone", async ({
    page,
    browser,
    request,
  }) => {
    test.setTimeout(240_000);
    // No callback URL at the platform while two orders are placed (so no notification precedes the
    // connection), then the seller connects: the dashboard points the notifications here.
    const connected = await withE2eDatabase(
      async (client) =>
        (await client.query(`SELECT 1 FROM "Connection" c JOIN "Seller" s ON s.id = c."sellerId" WHERE s.email = $1`, [SELLER])).rowCount,
    );
    if (connected) {
      const removed = await request.delete(`${E2E_SANDBOX_URL}/v1.0/marketplace/webhooks/url`, {
        headers: { Authorization: `Bearer ${await storedAccessToken(SELLER)}` },
      });
      expect(removed.ok()).toBe(true);
    }
    expect((await request.post(`${E2E_SANDBOX_URL}/_sandbox/orders`, { data: { seller: SELLER, count: 2 } })).status()).toBe(201);
    await freshGuide(SELLER);
    await connectAs(page, SELLER);
    const shop = await shopPathOf(page);
    const token = await storedAccessToken(SELLER);
    const wanted = await bestSellers(request, token);
    expect(wanted.length).toBeGreaterThan(0);

    await page.goto(shop);
    const guide = guideIn(page);
    await expect(guide).toBeVisible();
    await expect(guide.getByTestId("setup-progress")).toHaveText("0 de 4 feitos");
    await expect(stepOf(guide, "notifications")).toContainText("Ligadas. Falta chegar a primeira");
    await expect(stepOf(guide, "costs").getByTestId("missing-costs")).toHaveText(
      `Mais vendidos dos últimos 30 dias sem custo: ${wanted.length} de ${wanted.length}.`,
    );
    for (const sku of wanted) await expect(stepOf(guide, "costs").getByRole("link", { name: new RegExp(sku) })).toBeVisible();
    await expect(stepOf(guide, "team")).toContainText("Só você usa o painel.");
    await expect(stepOf(guide, "phone").getByText("Como instalar")).toBeVisible();
    for (const step of ["notifications", "costs", "team", "phone"] as const) {
      await expect(stepOf(guide, step)).toHaveAttribute("data-done", "false");
      await expect(stepOf(guide, step)).not.toContainText("Feito");
    }
    expect(await seriousViolations(page)).toEqual([]);

    // A new order at the marketplace: its notification reaches the dashboard.
    expect((await request.post(`${E2E_SANDBOX_URL}/_sandbox/orders`, { data: { seller: SELLER } })).status()).toBe(201);
    await expectTickedAfterReload(page, shop, "notifications");
    await expect(stepOf(guideIn(page), "notifications")).toContainText(/Feito.*Ligadas: a última chegou em/);
    await expect(guideIn(page).getByTestId("setup-progress")).toHaveText("1 de 4 feitos");

    // A cost for each best seller, from the guide's link to the product.
    for (const [index, sku] of wanted.entries()) {
      await page.goto(shop);
      await stepOf(guideIn(page), "costs")
        .getByRole("link", { name: new RegExp(sku) })
        .click();
      await page.waitForURL((url) => url.pathname === `${shop}/prices/products` && url.searchParams.get("search") === sku);
      await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
      await page.getByRole("button", { name: `: Custo de ${sku}` }).click();
      await page.getByRole("textbox", { name: `Custo de ${sku}` }).fill(`${10 + index},90`);
      await page.getByRole("button", { name: "Salvar custo" }).click();
      const row = page.locator("tbody tr", { has: page.getByRole("checkbox", { name: `Selecionar ${sku}` }) });
      await expect(row.getByTestId("cost")).toHaveText(new RegExp(`R\\$\\s?${10 + index},90`));
    }
    await expectTickedAfterReload(page, shop, "costs");
    await expect(guideIn(page).getByTestId("setup-progress")).toHaveText("2 de 4 feitos");

    // An invitation, from the guide's link to the team page.
    await stepOf(guideIn(page), "team").getByRole("link", { name: "Convidar alguém →" }).click();
    await page.waitForURL(`**${shop}/members`);
    await page.getByLabel("Papel", { exact: true }).selectOption({ label: "Visualizador" });
    await page.getByRole("button", { name: "Criar link de convite" }).click();
    await expect(page.getByLabel("Link de convite", { exact: true })).toHaveValue(/\/invite\/[\w-]+$/);
    await expectTickedAfterReload(page, shop, "team");
    await expect(stepOf(guideIn(page), "team")).toContainText("Convite enviado");

    // The dashboard opened as an installed app (a computer's counts as a phone's).
    await openAsInstalledApp(page);
    await expectTickedAfterReload(page, shop, "phone");
    const done = guideIn(page, "Sua loja está configurada");
    await expect(done.getByTestId("setup-progress")).toHaveText("4 de 4 feitos");
    await expect(done).toContainText("Os 4 passos estão feitos. Você já pode ocultar este guia.");

    await gotoHydrated(page, shop);
    await guideIn(page, "Sua loja está configurada").getByRole("button", { name: "Ocultar guia" }).click();
    await expect(guideIn(page, "Sua loja está configurada")).toHaveCount(0);
    await page.reload();
    await expect(page.locator("main h1")).toBeVisible();
    await expect(page.getByTestId("setup-guide")).toHaveCount(0);

    // Another shop's guide stays.
    const context = await browser.newContext({ locale: "pt-BR", ...DESK });
    try {
      const other = await context.newPage();
      await signInAs(other, OTHER);
      await other.goto(await shopPathOf(other));
      await expect(guideIn(other)).toBeVisible();
      await expect(guideIn(other).getByRole("button", { name: "Ocultar guia" })).toBeVisible();
    } finally {
      await context.close();
    }
  });

  test("owners and managers see the guide and may hide it; viewers and operations never see it, and a viewer's forged hide is refused", async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    await signInAs(page, SELLER);
    const shop = await shopPathOf(page);
    const shopId = shop.slice("/s/".length);
    const suffix = randomBytes(4).toString("hex");
    const people = {
      manager: `e2e-guide-manager-${suffix}`,
      operations: `e2e-guide-operations-${suffix}`,
      viewer: `e2e-guide-viewer-${suffix}`,
    };
    await withE2eDatabase(async (client) => {
      for (const [role, personId] of Object.entries(people)) {
        await client.query(`INSERT INTO "Person" (id, name) VALUES ($1, $2)`, [personId, `Guia ${role}`]);
        await client.query(`INSERT INTO "Membership" ("sellerId", "personId", role) VALUES ($1, $2, $3)`, [shopId, personId, role]);
      }
    });
    const contexts = await Promise.all(Object.values(people).map(() => browser.newContext({ locale: "pt-BR", ...DESK })));
    try {
      const [manager, operations, viewer] = await Promise.all(
        Object.values(people).map(async (personId, index) => {
          await contexts[index]!.addCookies([await sessionCookieFor(personId)]);
          return contexts[index]!.newPage();
        }),
      );

      for (const [someone, role] of [
        [viewer!, "Visualizador"],
        [operations!, "Operações"],
      ] as const) {
        await someone.goto(shop);
        await expect(someone.getByTestId("current-shop")).toContainText(role, { ignoreCase: true });
        await expect(someone.locator("main h1")).toBeVisible();
        await expect(someone.getByTestId("setup-guide")).toHaveCount(0);
        await expect(someone.getByRole("button", { name: "Ocultar guia" })).toHaveCount(0);
      }

      // A viewer's hand-made call is refused, and the guide stays for the owner.
      const hide = buildActions().find((action) => action.name === "dismissSetupGuideAction")!;
      const forged = await callAction(viewer!.request, hide.id, [shopId]);
      expect(forged.headers()["x-action-redirect"]).toMatch(/^\/refused/);
      await page.goto(shop);
      await expect(guideIn(page)).toBeVisible();
      // With a manager and others in, the shop has a team.
      await expect(stepOf(guideIn(page), "team")).toContainText("Feito");

      await gotoHydrated(manager!, shop);
      const managerGuide = guideIn(manager!);
      await expect(managerGuide).toBeVisible();
      // The team page is the owner's: the manager is not sent there.
      await expect(managerGuide.getByRole("link", { name: "Convidar alguém →" })).toHaveCount(0);
      await managerGuide.getByRole("button", { name: "Ocultar guia" }).click();
      await expect(managerGuide).toHaveCount(0);
      await page.reload();
      await expect(page.locator("main h1")).toBeVisible();
      await expect(page.getByTestId("setup-guide")).toHaveCount(0);
    } finally {
      await Promise.all(contexts.map((context) => context.close()));
      await withE2eDatabase((client) => client.query(`DELETE FROM "Person" WHERE id = ANY($1::text[])`, [Object.values(people)]));
    }
  });
});

test.describe("em português, no celular (390 px)", () => {
  test.use({ locale: "pt-BR", ...PHONE });
  test.beforeEach(() => freshGuide(SELLER));

  test("the guide fits the screen, its controls are touch targets, it says how to install the app, and opening the installed app ticks that step", async ({
    page,
  }) => {
    await signInAs(page, SELLER);
    const shop = await shopPathOf(page);
    await gotoHydrated(page, shop);
    const guide = guideIn(page);
    await expect(guide).toBeVisible();
    await expectNoSidewaysScroll(page);
    expect(await smallTouchTargets(page)).toEqual([]);
    const phone = stepOf(guide, "phone");
    await phone.getByText("Como instalar").click();
    await expect(phone).toContainText("No iPhone, no Safari: toque em Compartilhar e depois em Adicionar à Tela de Início.");
    await expect(phone).toContainText("No Android, no Chrome: toque no menu ⋮ e depois em Instalar app");
    await expectNoSidewaysScroll(page);
    expect(await seriousViolations(page)).toEqual([]);

    await openAsInstalledApp(page);
    await expectTickedAfterReload(page, shop, "phone");
    await expect(stepOf(guideIn(page), "phone")).toContainText("Instalado: alguém da loja já abriu o painel como app.");
    await expect(stepOf(guideIn(page), "phone").getByText("Como instalar")).toHaveCount(0);
  });
});

test.describe("in English", () => {
  test.use({ locale: "en-US", ...DESK });
  test.beforeEach(() => freshGuide(SELLER));

  test("the guide speaks the seller's language", async ({ page }) => {
    await signInAs(page, SELLER);
    await page.goto(await shopPathOf(page));
    const guide = guideIn(page, "Set up your shop");
    await expect(guide).toBeVisible();
    await expect(guide.getByTestId("setup-progress")).toHaveText(/^[0-4] of 4 done$/);
    for (const title of [
      "Receive the marketplace's notifications",
      "Enter the cost of your best sellers",
      "Invite a teammate",
      "Install the dashboard on your phone",
    ]) {
      await expect(guide.getByRole("heading", { name: title })).toBeVisible();
    }
    await expect(guide.getByRole("button", { name: "Hide guide" })).toBeVisible();
    await guide.getByText("How to install").click();
    await expect(guide).toContainText("On an iPhone, in Safari: tap Share, then Add to Home Screen.");
  });
});
