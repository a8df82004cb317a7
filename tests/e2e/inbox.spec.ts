import { expect, test } from "@playwright/test";
import type { APIRequestContext, Page } from "@playwright/test";
import { formatMoney } from "../../lib/money";
import { E2E_MAIL_URL, E2E_SANDBOX_URL } from "../../scripts/lib/e2e-ports";
import { DESK, PHONE } from "./devices";
import { seriousViolations } from "./pages";
import { expectNoSidewaysScroll, orderReferenceOf, signInAs, withE2eDatabase } from "./support";

// The inbox (issue 41), in Portuguese at a desk and on a phone: an order placed at the marketplace
// reaches the owner's bell while a page of the shop is open, without a reload, and their e-mail
// (the run's development mail server, read through its API) in Portuguese; the inbox names it by
// its short reference and total, and opening it opens the order and reads it.

interface ReceivedEmail {
  id: string;
  subject: string;
  text: string;
  to: { address: string }[];
}

async function emailsTo(address: string): Promise<ReceivedEmail[]> {
  const response = await fetch(`${E2E_MAIL_URL}/api/email`);
  const emails = (await response.json()) as ReceivedEmail[];
  return emails.filter((email) => email.to.some((each) => each.address === address));
}

interface SandboxOrder {
  id: string;
  customer: { name: string };
  amounts: { total: number; currency: string; normalizer: number };
}

async function placeOrder(request: APIRequestContext): Promise<SandboxOrder> {
  const created = await request.post(`${E2E_SANDBOX_URL}/_sandbox/orders`, { data: { seller: "seller@example.com" } });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { orders: SandboxOrder[] }).orders[0]!;
}

/** The e-mail about this order, once it arrived. */
async function emailAbout(reference: string): Promise<ReceivedEmail> {
  let found: ReceivedEmail | undefined;
  await expect
    .poll(
      async () => (found = (await emailsTo("seller@example.com")).find((email) => email.subject.startsWith(`Pedido novo ${reference} ·`))),
      {
        timeout: 20_000,
      },
    )
    .toBeDefined();
  return found!;
}

const bell = (page: Page) => page.getByTestId("inbox-bell");
const unreadOf = async (page: Page) => Number(await bell(page).getAttribute("data-unread"));

for (const { name, device } of [
  { name: "desk (1366 px)", device: DESK },
  { name: "phone (390 px)", device: PHONE },
]) {
  test.describe(`em português, ${name}`, () => {
    test.use({ locale: "pt-BR", ...device });
    // E-mails are written in the language the person last chose, and other specs switch the demo
    // owner to English: here they last chose Portuguese.
    test.beforeEach(() =>
      withE2eDatabase((client) => client.query(`UPDATE "Person" SET "locale" = 'pt-BR' WHERE "marketplaceEmail" = 'seller@example.com'`)),
    );

    test("a new order reaches the bell without a reload, and the inbox opens it by its reference and total", async ({ page, request }) => {
      await signInAs(page, "seller@example.com");
      // The marketplace sends this shop's notifications here.
      await page.goto("/webhooks");
      const useDashboard = page.getByRole("button", { name: "Usar este painel" });
      if ((await useDashboard.count()) > 0 && (await useDashboard.isEnabled())) await useDashboard.click();

      await page.goto("/orders");
      await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
      // In the header at this width, not behind the menu.
      await expect(bell(page)).toBeVisible();
      const before = await unreadOf(page);

      const order = await placeOrder(request);
      // Other news may arrive meanwhile (reconciliation tells late orders every few seconds here).
      await expect.poll(() => unreadOf(page), { timeout: 20_000 }).toBeGreaterThan(before);
      await expect(bell(page)).toHaveAccessibleName(/^Avisos, \d+ não lidos?$/);

      const reference = await orderReferenceOf(order.id);
      const total = formatMoney(
        { value: order.amounts.total, currency: order.amounts.currency, normalizer: order.amounts.normalizer },
        "pt-BR",
      );
      // The owner signed in with a Portuguese browser: the e-mail is in Portuguese, with a link to the order.
      const subject = `Pedido novo ${reference} · ${total} — Loja Demo`;
      await expect
        .poll(async () => (await emailsTo("seller@example.com")).map((email) => email.subject), { timeout: 20_000 })
        .toContain(subject);
      const email = (await emailsTo("seller@example.com")).find((each) => each.subject === subject)!;
      expect(email.text).toContain(`/orders/${order.id}`);

      await bell(page).click();
      await expect(page.getByRole("heading", { name: "Avisos" })).toBeVisible();
      const item = page.getByTestId("inbox-item").filter({ hasText: `Pedido novo ${reference} ·` });
      await expect(item).toHaveAttribute("data-read", "false");
      await expect(item).toContainText(`Pedido novo ${reference} · ${total}`);
      await expect(item).toContainText("Loja Demo");
      expect(await seriousViolations(page)).toEqual([]);
      if (device === PHONE) await expectNoSidewaysScroll(page, "inbox");

      const unread = await unreadOf(page);
      await item.getByRole("button").click();
      await expect(page).toHaveURL(new RegExp(`/orders/${order.id}$`));
      await expect(page.getByRole("heading", { name: `Pedido ${reference}` })).toBeVisible();
      await expect.poll(() => unreadOf(page)).toBeLessThan(unread);

      await page.goto("/inbox");
      await expect(page.getByTestId("inbox-item").filter({ hasText: `Pedido novo ${reference} ·` })).toHaveAttribute("data-read", "true");
    });

    test("one click in the e-mail stops new-order e-mails, signed out; the preferences bring them back", async ({
      page,
      request,
      browser,
    }) => {
      await signInAs(page, "seller@example.com");
      await page.goto("/orders");
      const first = await placeOrder(request);
      const email = await emailAbout(await orderReferenceOf(first.id));
      const link = /Não quero mais e-mails de pedidos novos desta loja: (\S+)/.exec(email.text)?.[1];
      expect(link).toMatch(/\/unsubscribe\?t=/);

      // Opened from the mailbox, in a browser where nobody is signed in.
      const signedOut = await browser.newContext({ locale: "pt-BR", ...device });
      const mailbox = await signedOut.newPage();
      await mailbox.goto(link!);
      await expect(mailbox.getByText("Parar de receber por e-mail os avisos de “Pedido novo” da loja Loja Demo?")).toBeVisible();
      expect(await seriousViolations(mailbox)).toEqual([]);
      await mailbox.getByRole("button", { name: "Parar de receber" }).click();
      await expect(mailbox.getByRole("status")).toHaveText(
        "Pronto: você não recebe mais por e-mail os avisos de “Pedido novo” da loja Loja Demo.",
      );
      if (device === PHONE) await expectNoSidewaysScroll(mailbox, "unsubscribe");
      await signedOut.close();

      // The next order is in the inbox, and not in the mailbox.
      const before = await unreadOf(page);
      const second = await placeOrder(request);
      await expect.poll(() => unreadOf(page), { timeout: 20_000 }).toBeGreaterThan(before);
      const secondReference = await orderReferenceOf(second.id);
      await page.waitForTimeout(3_000);
      expect((await emailsTo("seller@example.com")).map((each) => each.subject)).not.toContainEqual(
        expect.stringContaining(`${secondReference} ·`),
      );

      // The preferences page shows the choice, and turns it back on.
      await page.goto("/inbox");
      await page.getByRole("link", { name: "Preferências de avisos" }).click();
      await expect(page.getByRole("heading", { name: "Preferências de avisos" })).toBeVisible();
      const shop = page.getByTestId("shop-preferences").filter({ hasText: "Loja Demo" });
      const byEmail = shop.getByRole("checkbox", { name: "Pedido novo por e-mail" });
      await expect(byEmail).not.toBeChecked();
      expect(await seriousViolations(page)).toEqual([]);
      if (device === PHONE) await expectNoSidewaysScroll(page, "alert preferences");
      await byEmail.check();
      await shop.getByRole("button", { name: "Salvar" }).click();
      await expect(page.getByTestId("shop-preferences").filter({ hasText: "Loja Demo" }).getByRole("status")).toHaveText(
        "Preferências salvas.",
      );
      await expect(
        page.getByTestId("shop-preferences").filter({ hasText: "Loja Demo" }).getByRole("checkbox", { name: "Pedido novo por e-mail" }),
      ).toBeChecked();
      const third = await placeOrder(request);
      await emailAbout(await orderReferenceOf(third.id));
    });
  });
}

test.describe("what the shop needs from its owner", () => {
  test.use({ locale: "pt-BR" });

  test("each cause is said in words and opens the page that mends it", async ({ page }) => {
    await signInAs(page, "seller@example.com");
    const stamp = new Date().toISOString();
    await withE2eDatabase(async (client) => {
      await client.query(`UPDATE "Person" SET "locale" = 'pt-BR' WHERE "marketplaceEmail" = 'seller@example.com'`);
      const { rows } = await client.query<{ personId: string; sellerId: string }>(
        `SELECT m."personId", m."sellerId" FROM "Membership" m JOIN "Person" p ON p."id" = m."personId"
         JOIN "Seller" s ON s."id" = m."sellerId" WHERE p."marketplaceEmail" = 'seller@example.com' AND s."email" = 'seller@example.com'`,
      );
      for (const cause of ["callback", "deadEvents", "permissions"])
        await client.query(
          `INSERT INTO "Notification" ("id", "personId", "sellerId", "kind", "subject", "createdAt")
           VALUES (gen_random_uuid()::text, $1, $2, 'shop.attention', $3, now() AT TIME ZONE 'UTC')`,
          [rows[0]!.personId, rows[0]!.sellerId, `${cause}:${stamp}`],
        );
    });
    for (const [words, path] of [
      ["Os avisos da loja Loja Demo não chegam mais a este painel", /\/webhooks$/],
      ["Alguns avisos da loja Loja Demo não puderam ser processados", /\/webhooks\/events\?processing=dead$/],
      ["Falta uma permissão da loja Loja Demo no marketplace", /\/settings$/],
    ] as const) {
      await page.goto("/inbox");
      await page.getByTestId("inbox-item").filter({ hasText: words }).first().getByRole("button").click();
      await expect(page).toHaveURL(path);
    }
  });
});

test("a viewer who chose e-mail gets the new order without the customer; the owner's copy names them", async ({ request }) => {
  const viewer = { id: `e2e-viewer-${Date.now()}`, email: `visualizadora-${Date.now()}@example.com` };
  await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ id: string }>(`SELECT "id" FROM "Seller" WHERE "email" = 'seller@example.com'`);
    await client.query(
      `INSERT INTO "Person" ("id", "name", "marketplaceEmail", "platformEmail", "locale") VALUES ($1, 'Visualizadora', $2, $2, 'pt-BR')`,
      [viewer.id, viewer.email],
    );
    await client.query(`INSERT INTO "Membership" ("sellerId", "personId", "role") VALUES ($1, $2, 'viewer')`, [rows[0]!.id, viewer.id]);
    await client.query(
      `INSERT INTO "NotificationChoice" ("personId", "sellerId", "kind", "email", "push") VALUES ($1, $2, 'order.new', true, false)`,
      [viewer.id, rows[0]!.id],
    );
  });
  try {
    const order = await placeOrder(request);
    const reference = await orderReferenceOf(order.id);
    let copies: ReceivedEmail[] = [];
    await expect
      .poll(
        async () => {
          copies = [...(await emailsTo(viewer.email)), ...(await emailsTo("seller@example.com"))].filter((email) =>
            email.subject.startsWith(`Pedido novo ${reference} ·`),
          );
          return copies.length;
        },
        { timeout: 20_000 },
      )
      .toBe(2);
    const [viewerCopy, ownerCopy] = copies;
    expect(viewerCopy!.subject).toBe(ownerCopy!.subject);
    expect(ownerCopy!.text).toContain(`Cliente: ${order.customer.name}`);
    expect(viewerCopy!.text).not.toContain(order.customer.name);
    expect(viewerCopy!.text).toContain("“Visualizador”");
  } finally {
    await withE2eDatabase((client) => client.query(`DELETE FROM "Person" WHERE "id" = $1`, [viewer.id]));
  }
});
