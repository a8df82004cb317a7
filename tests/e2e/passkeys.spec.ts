import { createHash, randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import type { Browser, BrowserContextOptions, Page } from "@playwright/test";
import { addVirtualAuthenticator, signInAs, withE2eDatabase, signOut } from "./support";

// Joining a shop through an invite link with a passkey, and signing in with it again, in Chromium
// with a virtual authenticator (a platform authenticator that keeps discoverable credentials and
// verifies its user at once). tests/integration/passkeys.test.ts checks the server's side with a
// software authenticator: refusals, counters, single use.

/** Signs the owner of Loja Demo in and answers the shop's id (the start page redirects to /s/{id}). */
async function ownerShopId(page: Page): Promise<string> {
  await signInAs(page, "seller@example.com");
  await page.goto("/");
  await page.waitForURL(/\/s\/[^/?#]+$/);
  return decodeURIComponent(new URL(page.url()).pathname.split("/")[2]!);
}

/** An invitation made straight in the database, for the pages about links that no longer work. */
async function invitationInDatabase(shopId: string, state: "open" | "expired" | "used" | "revoked"): Promise<string> {
  const token = randomBytes(24).toString("base64url");
  const tokenHash = createHash("sha256").update(token).digest("hex");
  await withE2eDatabase((client) =>
    client.query(
      `INSERT INTO "Invitation" ("id", "sellerId", "role", "tokenHash", "createdById", "expiresAt", "acceptedAt", "revokedAt")
       VALUES ($1, $2, 'viewer', $3, 'e2e', now() + ($4 || ' minutes')::interval, $5, $6)`,
      [
        `e2e-${token.slice(0, 12)}`,
        shopId,
        tokenHash,
        state === "expired" ? "-1" : "60",
        state === "used" ? new Date() : null,
        state === "revoked" ? new Date() : null,
      ],
    ),
  );
  return `/invite/${token}`;
}

/** Runs `work` in a fresh browser (no cookies): the invited person's own device. */
async function inAnotherBrowser<T>(browser: Browser, work: (page: Page) => Promise<T>, options: BrowserContextOptions = {}): Promise<T> {
  const context = await browser.newContext(options);
  try {
    return await work(await context.newPage());
  } finally {
    await context.close();
  }
}

test.describe("passkeys", () => {
  test("an invited person joins with a passkey, lands on the shop, and signs in with it again", async ({ page, browser }) => {
    const shopId = await ownerShopId(page);

    // DEPENDS ON the lead's Members page (/s/{shopId}/members): a "Role" select, "Create invite link",
    // and the link in an input labelled "Invite link".
    await page.goto(`/s/${shopId}/members`);
    await page.getByLabel("Role", { exact: true }).selectOption({ label: "Viewer" });
    await page.getByRole("button", { name: "Create invite link" }).click();
    await expect(page.getByLabel("Invite link", { exact: true })).toHaveValue(/\/invite\/[\w-]+$/);
    const link = await page.getByLabel("Invite link", { exact: true }).inputValue();

    const name = `Vera Visitante ${randomBytes(3).toString("hex")}`;
    await inAnotherBrowser(browser, async (newcomer) => {
      await addVirtualAuthenticator(newcomer);
      await newcomer.goto(link);
      await expect(newcomer.getByRole("heading", { level: 1, name: "Loja Demo invites you as viewer" })).toBeVisible();
      await expect(newcomer.getByText("Viewer: Sees orders, prices, SKUs and events")).toBeVisible();
      // Both ways in; the marketplace one posts the lead's signInForInviteAction.
      await expect(newcomer.getByRole("button", { name: "Sign in with your marketplace account" })).toBeVisible();

      // A name is needed before any passkey is made.
      await newcomer.getByRole("button", { name: "Create a passkey and join" }).click();
      await expect(newcomer.getByText("Type your name.")).toBeVisible();

      await newcomer.getByLabel("Your name").fill(name);
      await newcomer.getByRole("button", { name: "Create a passkey and join" }).click();
      await newcomer.waitForURL(new RegExp(`/s/${shopId}$`));
      // DEPENDS ON the lead's header: the signed-in person's name in the account block.
      await expect(newcomer.getByTestId("account")).toContainText(name);

      // Their account page lists the passkey; it is their only way in, so it cannot be removed.
      await newcomer.goto("/account");
      await expect(newcomer.getByTestId("sign-in-methods")).toHaveText("With passkeys only");
      await expect(newcomer.getByTestId("account-shops")).toContainText("Loja Demo");
      await expect(newcomer.getByTestId("account-shops")).toContainText("Viewer");
      await expect(newcomer.getByTestId("passkeys").getByRole("listitem")).toHaveCount(1);
      await expect(newcomer.getByTestId("passkeys")).toContainText("Not used yet");
      await expect(newcomer.getByRole("button", { name: /^Remove passkey / })).toBeDisabled();
      // This device already keeps one: the browser refuses a second, and the page says so.
      await newcomer.getByRole("button", { name: "Add a passkey" }).click();
      await expect(newcomer.getByText("This device already keeps a passkey of yours for this dashboard.")).toBeVisible();

      // Signed out, the start page leads a team member to passkey sign-in (/connect renders <PasskeySignIn />).
      await signOut(newcomer);
      await expect(newcomer.getByTestId("account").getByRole("button", { name: "Sign out" })).toHaveCount(0);
      await newcomer.goto("/");
      await newcomer.getByText("Part of a shop's team?").getByRole("link", { name: "Sign in" }).click();
      await newcomer.waitForURL(/\/connect$/);
      await newcomer.getByRole("button", { name: "Sign in with a passkey" }).click();
      // The start page leads to the person's last shop.
      await newcomer.waitForURL(new RegExp(`/s/${shopId}$`));
      await expect(newcomer.getByTestId("account")).toContainText(name);
      await newcomer.goto("/account");
      await expect(newcomer.getByTestId("passkeys")).toContainText("Last used");

      // The link was for one person.
      await newcomer.goto(link);
      await expect(newcomer.getByRole("heading", { level: 1, name: "This invite link was already used" })).toBeVisible();
    });

    const { rows } = await withE2eDatabase((client) =>
      client.query<{ role: string; lastUsedAt: Date | null }>(
        `SELECT m."role", k."lastUsedAt" FROM "Person" p JOIN "Membership" m ON m."personId" = p.id JOIN "Passkey" k ON k."personId" = p.id WHERE p."name" = $1`,
        [name],
      ),
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.role).toBe("viewer");
    expect(rows[0]!.lastUsedAt).not.toBeNull();
  });

  test("a browser without a passkey for the dashboard is told so, and stays signed out", async ({ browser }) => {
    await inAnotherBrowser(browser, async (page) => {
      await addVirtualAuthenticator(page); // holds no credential
      // DEPENDS ON the lead's /connect page rendering <PasskeySignIn />.
      await page.goto("/connect");
      await page.getByRole("button", { name: "Sign in with a passkey" }).click();
      await expect(page.getByText(/No passkey was used/)).toBeVisible();
      await expect(page).toHaveURL(/\/connect$/);
    });
  });

  test("links that no longer work say why, with a way back", async ({ page, browser }) => {
    const shopId = await ownerShopId(page);
    const expected = {
      expired: "This invite link has expired",
      used: "This invite link was already used",
      revoked: "This invite link was withdrawn",
    } as const;
    for (const [state, heading] of Object.entries(expected) as [keyof typeof expected, string][]) {
      const link = await invitationInDatabase(shopId, state);
      await inAnotherBrowser(browser, async (visitor) => {
        await visitor.goto(link);
        await expect(visitor.getByRole("heading", { level: 1, name: heading })).toBeVisible();
        await expect(visitor.getByRole("button", { name: "Create a passkey and join" })).toHaveCount(0);
        await expect(visitor.getByRole("link", { name: "Go to the start" })).toBeVisible();
      });
    }
    await inAnotherBrowser(browser, async (visitor) => {
      await visitor.goto("/invite/not-a-real-invitation-token");
      await expect(visitor.getByRole("heading", { level: 1, name: "This invite link does not work" })).toBeVisible();
    });
  });

  test("an expired link is explained in Portuguese too", async ({ page, browser }) => {
    const link = await invitationInDatabase(await ownerShopId(page), "expired");
    await inAnotherBrowser(
      browser,
      async (visitor) => {
        await visitor.goto(link);
        await expect(visitor.getByRole("heading", { level: 1, name: "Este link de convite expirou" })).toBeVisible();
        await expect(visitor.getByRole("link", { name: "Ir para o início" })).toBeVisible();
      },
      { locale: "pt-BR" },
    );
  });

  test("an open link says which shop and role, in Portuguese, on a phone's width", async ({ page, browser }) => {
    const link = await invitationInDatabase(await ownerShopId(page), "open");
    await inAnotherBrowser(
      browser,
      async (visitor) => {
        await visitor.goto(link);
        await expect(visitor.getByRole("heading", { level: 1, name: "Loja Demo convida você como visualizador" })).toBeVisible();
        await expect(visitor.getByRole("button", { name: "Criar chave de acesso e entrar na equipe" })).toBeVisible();
        // Nothing wider than the screen.
        expect(await visitor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      },
      { locale: "pt-BR", viewport: { width: 390, height: 844 } },
    );
  });
});
