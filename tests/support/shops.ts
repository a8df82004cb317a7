import { obtainAccessToken } from "@marketplace/sandbox/testing";

const ALL_SCOPES = "basic_user_info portfolio:read portfolio:write order-order:read";

/**
 * A sandbox seller signed in through the OAuth flow and connected as the dashboard connects one
 * (encrypted token, receiver key). Call after useTestDatabase: it imports the data layer.
 */
export async function connectTestShop(options: { sandboxUrl: string; login?: string; name?: string; scopes?: string }) {
  const { sandboxUrl, login = "seller@example.com", name = "Loja Demo", scopes = ALL_SCOPES } = options;
  const token = await obtainAccessToken(sandboxUrl, { login });
  const { connectShop } = await import("@/lib/shops/shops.server");
  const { db } = await import("@/lib/db.server");
  const shop = await connectShop({ email: login, name, accessToken: token, scopesRequested: scopes });
  const { webhookKey } = await db.connection.findUniqueOrThrow({ where: { shopId: shop.id }, select: { webhookKey: true } });
  return { token, sellerId: shop.id, webhookKey };
}

/** Runs sweeps (what every instance does every few seconds) until `done` holds. */
export async function sweepUntil(done: () => Promise<boolean>, timeoutMs = 10_000) {
  const { sweepDueEvents } = await import("@/features/webhooks/process/process.server");
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error("the condition did not hold in time");
    await sweepDueEvents();
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
}
