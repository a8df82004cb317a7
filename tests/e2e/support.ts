import { expect } from "@playwright/test";
import pg from "pg";
import type { Page } from "@playwright/test";
import { decryptSecret, sellerTokenContext } from "../../lib/crypto";
import { decodeKey, parseEnv } from "../../lib/env.js";
import { databaseUrl } from "../../scripts/lib/database";
import { E2E_APP_URL, E2E_DATABASE, E2E_SANDBOX_URL } from "./ports";

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
  await page.getByRole("button", { name: "Connect marketplace account" }).click();
  await consent(page, login, options);
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
  const env = parseEnv(process.env);
  const row = await withE2eDatabase(async (client) => {
    const result = await client.query<{ sellerId: string; enc: string }>(
      'SELECT c."sellerId" AS "sellerId", c."accessTokenEnc" AS enc FROM "Connection" c JOIN "Seller" s ON s.id = c."sellerId" WHERE s.email = $1',
      [email],
    );
    return result.rows[0];
  });
  expect(row, `a stored connection for ${email}`).toBeDefined();
  return decryptSecret(row!.enc, sellerTokenContext(row!.sellerId), decodeKey(env.TOKEN_ENCRYPTION_KEY)!);
}
