import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import type { Browser, Page } from "@playwright/test";
import { E2E_APP_URL, E2E_MAIL_URL, E2E_SANDBOX_URL } from "../../scripts/lib/e2e-ports";
import { DESK, PHONE } from "./devices";
import {
  addVirtualAuthenticator,
  buildActions,
  callAction,
  demoShops,
  expectNoSidewaysScroll,
  signInAs,
  seedTeamShop,
  sessionCookieFor,
  shopPathOf,
  storedAccessToken,
  useThisDashboardForWebhooks,
  withE2eDatabase,
} from "./support";

// A shop run by a team, and shops run by an agency (issue 27), in a browser: invitations, roles
// the pages and the server both keep to, the audit log, a removal that takes effect at once, and
// a person with two shops whose every page is about the shop in its address.

/** An invite link for `role`, made on the Team page by the owner signed in on `owner`. */
async function inviteLink(owner: Page, shop: string, role: "Manager" | "Viewer"): Promise<string> {
  await owner.goto(`${shop}/members`);
  await owner.getByLabel("Role", { exact: true }).selectOption({ label: role });
  await owner.getByRole("button", { name: "Create invite link" }).click();
  const link = owner.getByLabel("Invite link", { exact: true });
  await expect(link).toHaveValue(/\/invite\/[\w-]+$/);
  return link.inputValue();
}

/** Someone on their own device opens the link, creates a passkey and joins. */
async function joinWithPasskey(browser: Browser, link: string, name: string, shop: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await addVirtualAuthenticator(page);
  await page.goto(link);
  await page.getByLabel("Your name").fill(name);
  await page.getByRole("button", { name: "Create a passkey and join" }).click();
  await page.waitForURL((url) => url.pathname === shop);
  return page;
}

test("a manager's price change shows in the audit log with their name; a viewer sees no customer and changes nothing; a removal ends access at once", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  await signInAs(page, "seller@example.com");
  const shop = await shopPathOf(page);
  const shopId = shop.slice("/s/".length);
  const suffix = randomBytes(3).toString("hex");
  const managerName = `Marta Gerente ${suffix}`;
  const viewerName = `Vitor Leitura ${suffix}`;

  const manager = await joinWithPasskey(browser, await inviteLink(page, shop, "Manager"), managerName, shop);
  const viewer = await joinWithPasskey(browser, await inviteLink(page, shop, "Viewer"), viewerName, shop);
  try {
    await expect(manager.getByTestId("current-shop")).toHaveText("Loja Demo — you are manager");
    // The manager's sections: no Team; Settings holds only prices and margins, not the connection.
    const nav = manager.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Audit log" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Team" })).toHaveCount(0);
    await nav.getByRole("link", { name: "Settings" }).click();
    await expect(manager.getByRole("button", { name: "Disconnect marketplace account" })).toHaveCount(0);
    await expect(manager.getByLabel("Largest change without confirmation (±)")).toBeVisible();

    // The manager changes a sell price in place.
    await manager.goto(`${shop}/prices/products`);
    const row = manager.locator("tbody tr").first();
    const sku = (await row.locator("td:nth-child(2)").textContent())!.trim();
    const before = (await row.getByTestId("sell-price").textContent())!.trim();
    expect(before).toMatch(/^R\$\s?[\d,]+\.\d{2}$/);
    await manager.getByRole("button", { name: `: Sell price of ${sku}` }).click();
    await manager.getByRole("textbox", { name: `Sell price of ${sku}` }).fill("77.70");
    await manager.keyboard.press("Enter");
    // A move past the shop's guard limit (30 %) is held until the manager confirms it.
    const beforeValue = Number(before.replace(/[^\d.]/g, ""));
    if (Math.abs(77.7 - beforeValue) / beforeValue > 0.3) {
      await manager
        .getByTestId("price-held")
        .getByRole("button", { name: /^Send anyway/ })
        .click();
    }
    await expect(row.getByTestId("sell-price")).toHaveText(/R\$\s?77\.70/);

    // The audit log: who, and old → new.
    await manager.goto(`${shop}/audit`);
    const entry = manager.getByTestId("audit-entry").filter({ hasText: sku }).first();
    await expect(entry).toContainText(managerName);
    const amount = (text: string) => text.replace(/\s/g, "").replace("R$", "R\\$\\s?");
    await expect(entry).toContainText(new RegExp(`${amount(before)} → R\\$\\s?77\\.70`));

    // The viewer (decision 0010): amounts, items and deadlines, but nothing of who bought, nor the
    // label that prints their address — in nothing that reaches the browser, as the sandbox has it.
    await viewer.goto(`${shop}/orders?status=approved`);
    await viewer.locator("tbody tr").first().getByRole("link").first().click();
    await viewer.waitForURL(/\/orders\/[0-9a-f]{24}$/);
    const orderId = viewer.url().split("/").pop()!;
    const token = await storedAccessToken("seller@example.com");
    const order = (await (
      await request.get(`${E2E_SANDBOX_URL}/v1.0/marketplace/orders/${orderId}`, { headers: { Authorization: `Bearer ${token}` } })
    ).json()) as {
      customer: { name: string; email: string; document_number: string; birth_date: string; phones: { number: string }[] };
      deliveries: { shipping: { labels: { url: string }; recipient: { address: { street: string; zipcode: string } } } }[];
    };
    await expect(viewer.locator("main h1")).toBeVisible();
    await expect(viewer.getByTestId("customer-hidden")).toBeVisible();
    await expect(viewer.getByTestId("order-amounts")).toContainText("R$");
    const html = await viewer.content();
    const { address } = order.deliveries[0]!.shipping.recipient;
    for (const secret of [
      order.customer.name,
      order.customer.email,
      order.customer.document_number,
      order.customer.phones[0]!.number,
      address.street,
      address.zipcode,
      order.deliveries[0]!.shipping.labels.url,
    ]) {
      expect(html).not.toContain(secret);
    }
    await expect(viewer.getByRole("link", { name: /label/i })).toHaveCount(0);
    // Nor in the lists, nor a label asked for directly.
    await viewer.goto(`${shop}/orders`);
    await expect(viewer.locator("tbody tr").first()).toBeVisible();
    await expect(viewer.getByRole("columnheader", { name: "Customer" })).toHaveCount(0);
    const shipping = (await (await viewer.request.get(`${E2E_APP_URL}/api${shop}/shipping?size=200`)).json()) as {
      rows: { customerName: string }[];
    };
    expect(shipping.rows.length).toBeGreaterThan(0);
    expect(shipping.rows.every((row) => row.customerName === "")).toBe(true);
    const label = await viewer.request.post(`${E2E_APP_URL}/api${shop}/shipping/labels`, {
      data: { ids: [orderId] },
      headers: { origin: E2E_APP_URL },
    });
    expect(label.status()).toBe(403);
    // The owner sees the e-mail in full.
    await page.goto(`${shop}/orders/${orderId}`);
    await expect(page.locator("main")).toContainText(order.customer.email);

    // The viewer cannot change a price: no control, and a forged call is refused.
    await viewer.goto(`${shop}/prices/products`);
    await expect(viewer.locator("tbody tr").first().getByTestId("sell-price")).toBeVisible();
    await expect(viewer.getByRole("button", { name: /^(Edit|Set)/ })).toHaveCount(0);
    await expect(viewer.getByRole("link", { name: /CSV/ })).toHaveCount(0);
    const setPrice = buildActions().find((action) => action.name === "setProductPriceAction")!;
    const forged = await callAction(viewer.request, setPrice.id, [
      shopId,
      { sku, type: "sell", amount: "1.00", currency: "BRL", normalizer: 100 },
    ]);
    expect(forged.headers()["x-action-redirect"]).toMatch(/^\/refused/);
    await viewer.reload();
    await expect(viewer.locator("tbody tr").first().getByTestId("sell-price")).toHaveText(/R\$\s?77\.70/);

    // The owner removes the manager: their open page's next request is refused.
    await manager.goto(`${shop}/orders`);
    await page.goto(`${shop}/members`);
    await page.getByRole("button", { name: `Remove ${managerName}` }).click();
    await expect(page.getByTestId("members")).not.toContainText(managerName);
    await expect(page.getByTestId("members")).toContainText(viewerName);
    // The owner who connected the shop reads as the shop's account, not as a person named after the shop.
    await expect(page.getByTestId("member-name").filter({ hasText: "The shop's marketplace account" })).toHaveCount(1);
    await expect(page.getByTestId("member-name").filter({ hasText: /^Loja Demo\b/ })).toHaveCount(0);
    await manager.reload();
    await expect(manager).toHaveURL(/\/refused$/);
    await expect(manager.getByRole("heading", { name: "You can't open this" })).toBeVisible();
    await page.goto(`${shop}/audit`);
    await expect(page.getByTestId("audit-entry").first()).toContainText(managerName);
  } finally {
    await manager.context().close();
    await viewer.context().close();
  }
});

test("a manager reads the callback URL's changes in the audit log and its CSV without the owner-only receiver key", async ({
  page,
  browser,
  request,
}) => {
  await signInAs(page, "seller@example.com");
  const shop = await shopPathOf(page);
  const shopId = shop.slice("/s/".length);
  // Whatever it was, the callback URL is removed at the platform, then the owner points it here.
  const token = await storedAccessToken("seller@example.com");
  const removed = await request.delete(`${E2E_SANDBOX_URL}/v1.0/marketplace/webhooks/url`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(removed.ok()).toBe(true);
  await useThisDashboardForWebhooks(page);
  const { webhookKey, personId } = await withE2eDatabase(async (client) => {
    const personId = `e2e-manager-${randomBytes(4).toString("hex")}`;
    await client.query(`INSERT INTO "Person" (id, name) VALUES ($1, 'Gerente Auditora')`, [personId]);
    await client.query(`INSERT INTO "Membership" ("sellerId", "personId", role) VALUES ($1, $2, 'manager')`, [shopId, personId]);
    const { rows } = await client.query<{ webhookKey: string }>(`SELECT "webhookKey" FROM "Connection" WHERE "sellerId" = $1`, [shopId]);
    return { webhookKey: rows[0]!.webhookKey, personId };
  });
  const context = await browser.newContext();
  try {
    await context.addCookies([await sessionCookieFor(personId)]);
    const manager = await context.newPage();
    await manager.goto(`${shop}/audit`);
    await expect(manager.getByTestId("audit-entry").filter({ hasText: "Callback URL set" }).first()).toContainText(
      "Callback URL set: this dashboard's receiver",
    );
    expect(await manager.content()).not.toContain(webhookKey);
    // A request of the context's own carries no Accept-Language: asked in English, as the page was.
    const csv = await manager.request.get(`/api${shop}/audit/export`, { headers: { "Accept-Language": "en" } });
    expect(csv.status()).toBe(200);
    const text = await csv.text();
    expect(text).toContain("this dashboard's receiver");
    expect(text).not.toContain(webhookKey);
    expect(text).not.toContain(encodeURIComponent(webhookKey));
  } finally {
    await context.close();
  }
});

test("an agency person with two shops: every page is about the shop in its address, whatever another tab opened", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const { shopA, shopB } = await demoShops(page, browser);

  // A person of an agency, manager in one shop and viewer in the other.
  const personId = `e2e-agency-${randomBytes(4).toString("hex")}`;
  await withE2eDatabase(async (client) => {
    await client.query(`INSERT INTO "Person" (id, name) VALUES ($1, 'Agência Norte')`, [personId]);
    await client.query(`INSERT INTO "Membership" ("sellerId", "personId", role) VALUES ($1, $3, 'manager'), ($2, $3, 'viewer')`, [
      shopA.slice(3),
      shopB.slice(3),
      personId,
    ]);
  });
  const agency = await browser.newContext();
  try {
    await agency.addCookies([await sessionCookieFor(personId)]);
    const first = await agency.newPage();
    await first.goto(`${shopA}/orders`);
    await expect(first.getByTestId("current-shop")).toHaveText("Loja Demo — you are manager");
    await expect(first.locator("tbody tr").first()).toBeVisible();

    // A second tab switches to the other shop.
    const other = await agency.newPage();
    await other.goto(`${shopA}/orders`);
    await other.getByTestId("shop-switcher").locator("summary").click();
    await other.getByRole("link", { name: "Loja Dois" }).click();
    await other.waitForURL((url) => url.pathname === shopB);
    await expect(other.getByTestId("current-shop")).toHaveText("Loja Dois — you are viewer");
    await other.goto(`${shopB}/orders`);
    await expect(other.locator("tbody tr").first()).toBeVisible();

    const orderIds = async (tab: Page) =>
      tab.locator('tbody a[href*="/orders/"]').evaluateAll((links) => links.map((link) => link.getAttribute("href")!.split("/").pop()!));
    // The first tab, reloaded, still shows its own shop: the address names it.
    await first.reload();
    await expect(first.getByTestId("current-shop")).toHaveText("Loja Demo — you are manager");
    await expect(first.locator("tbody tr").first()).toBeVisible();
    const idsA = await orderIds(first);
    const idsB = await orderIds(other);
    expect(idsA.length).toBeGreaterThan(0);
    expect(idsB.length).toBeGreaterThan(0);
    expect(idsA.filter((id) => idsB.includes(id))).toEqual([]);
    // An order of one shop opened in the other's address is not found there.
    await first.goto(`${shopA}/orders/${idsB[0]}`);
    await expect(first.getByRole("heading", { name: "Page not found" })).toBeVisible();

    // The event logs, each its shop's own.
    const eventIds = async (tab: Page, shop: string) => {
      await tab.goto(`${shop}/webhooks/events`);
      await expect(tab.locator("main h1")).toBeVisible();
      return tab
        .locator('tbody a[href*="/webhooks/events/"]')
        .evaluateAll((links) => links.map((link) => link.getAttribute("href")!.split("/").pop()!));
    };
    const [eventsA, eventsB] = [await eventIds(first, shopA), await eventIds(other, shopB)];
    expect(eventsA.filter((id) => eventsB.includes(id))).toEqual([]);
    const own = await withE2eDatabase(async (client) =>
      (await client.query<{ id: string }>(`SELECT id FROM "WebhookEvent" WHERE "sellerId" = $1`, [shopB.slice(3)])).rows.map(
        (row) => row.id,
      ),
    );
    for (const id of eventsB) expect(own).toContain(id);

    // The shop-less paths of before lead to the shop opened last.
    const third = await agency.newPage();
    await third.goto("/orders");
    await expect(third).toHaveURL(new RegExp(`${shopB}/orders$`));
    // A viewer there: the role is per shop.
    await expect(third.locator("tbody tr").first()).toBeVisible();
    await expect(third.getByRole("button", { name: /Export CSV/ })).toHaveCount(0);
  } finally {
    await agency.close();
  }
});

test("the only owner is offered neither another role nor their own removal, and the page says why", async ({ browser }) => {
  const team = await seedTeamShop("sole");
  const context = await browser.newContext();
  try {
    await context.addCookies([await sessionCookieFor(team.people.owner)]);
    const page = await context.newPage();
    await page.goto(`/s/${team.shopId}/members`);
    const members = page.getByTestId("members");
    await expect(members).toContainText("The only owner: a shop needs at least one.");
    await expect(page.getByRole("button", { name: "Remove sole owner" })).toHaveCount(0);
    await expect(page.getByRole("combobox", { name: "Role of sole owner" })).toHaveCount(0);
    // Everyone else keeps their controls.
    await expect(page.getByRole("button", { name: "Remove sole manager" })).toBeVisible();
  } finally {
    await context.close();
  }
});

test("an invite link is copied with one tap, or sent by WhatsApp or e-mail with a message naming the shop", async ({ browser }) => {
  const team = await seedTeamShop("convite");
  const context = await browser.newContext({ locale: "pt-BR" });
  try {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: E2E_APP_URL });
    await context.addCookies([await sessionCookieFor(team.people.owner)]);
    const page = await context.newPage();
    await page.goto(`/s/${team.shopId}/members`);
    await page.getByRole("button", { name: "Criar link de convite" }).click();
    const link = await page.getByLabel("Link de convite", { exact: true }).inputValue();
    expect(link).toMatch(/\/invite\/[\w-]+$/);

    await page.getByRole("button", { name: "Copiar link" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Link copiado." })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

    const whatsapp = new URL((await page.getByRole("link", { name: "Enviar pelo WhatsApp" }).getAttribute("href"))!);
    expect(whatsapp.origin).toBe("https://wa.me");
    expect(whatsapp.searchParams.get("text")).toContain(link);
    expect(whatsapp.searchParams.get("text")).toContain("Loja convite");
    const email = (await page.getByRole("link", { name: "Enviar por e-mail" }).getAttribute("href"))!;
    expect(email).toMatch(/^mailto:\?subject=/);
    expect(decodeURIComponent(email)).toContain(link);
  } finally {
    await context.close();
  }
});

for (const { name, device } of [
  { name: "desk (1366 px)", device: DESK },
  { name: "phone (390 px)", device: PHONE },
]) {
  test(`an invitation sent by e-mail from the Team page carries a link that joins, ${name}`, async ({ browser }) => {
    const team = await seedTeamShop(`email-${randomBytes(3).toString("hex")}`);
    const address = `convidada-${randomBytes(4).toString("hex")}@example.com`;
    const context = await browser.newContext({ locale: "pt-BR", ...device });
    try {
      await context.addCookies([await sessionCookieFor(team.people.owner)]);
      const page = await context.newPage();
      await page.goto(`/s/${team.shopId}/members`);
      await page.getByLabel("Papel", { exact: true }).selectOption({ label: "Visualizador" });
      await page.getByLabel("E-mail da pessoa (opcional)").fill(address);
      await page.getByRole("button", { name: "Criar link de convite" }).click();
      await expect(page.getByText(`Convite enviado para ${address}. O link também está aqui para copiar.`)).toBeVisible();
      if (device === PHONE) await expectNoSidewaysScroll(page, "members");

      // The e-mail, in the owner's language, read from the run's mail server.
      let email: { subject: string; text: string } | undefined;
      await expect
        .poll(
          async () => {
            const emails = (await (await fetch(`${E2E_MAIL_URL}/api/email`)).json()) as {
              subject: string;
              text: string;
              to: { address: string }[];
            }[];
            email = emails.find((each) => each.to.some((to) => to.address === address));
            return email?.subject;
          },
          { timeout: 20_000 },
        )
        .toMatch(/convidou você para a loja Loja /);
      expect(email!.text).toContain("“Visualizador”");
      const link = /Aceitar o convite: (\S+)/.exec(email!.text)?.[1];
      expect(link).toMatch(new RegExp(`^${E2E_APP_URL}/invite/[\\w-]+$`));

      // The person opens it on their own device and joins, with the role it was made for.
      const joined = await joinWithPasskey(browser, link!, "Convidada por e-mail", `/s/${team.shopId}`);
      const role = await withE2eDatabase(
        async (client) =>
          (
            await client.query<{ role: string }>(
              `SELECT m."role" FROM "Membership" m JOIN "Person" p ON p."id" = m."personId" WHERE m."sellerId" = $1 AND p."name" = $2`,
              [team.shopId, "Convidada por e-mail"],
            )
          ).rows[0]?.role,
      );
      expect(role).toBe("viewer");
      await joined.context().close();
      // The owner is told in their inbox, and the item opens the team.
      await page.goto("/inbox");
      const item = page.getByTestId("inbox-item").filter({ hasText: "Convidada por e-mail entrou na equipe como visualizador" });
      await expect(item).toBeVisible();
      await item.getByRole("button").click();
      await expect(page).toHaveURL(new RegExp(`/s/${team.shopId}/members$`));
    } finally {
      await context.close();
    }
  });
}
