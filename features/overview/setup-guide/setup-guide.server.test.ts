import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Guide from "@/features/overview/setup-guide/setup-guide.server";
import type * as BestSellers from "@/features/overview/setup-guide/best-sellers.server";
import type * as Shops from "@/lib/shops/shops.server";
import type { SetupStep } from "@/features/overview/setup-guide/setup-steps";
import { ordersQuery } from "@marketplace/api/list-query";
import { startTestSandbox } from "@marketplace/sandbox/testing";
import type { TestSandbox } from "@marketplace/sandbox/testing";
import { connect, useTestDatabase } from "../../../tests/support/database";
import { deliverToReceiver } from "../../../tests/support/receiver";
import { connectTestShop } from "../../../tests/support/shops";

// The setup guide's server module against a real database and the sandbox (issue 40, point 13): a
// shop just connected has done none of the four steps, and each is ticked by what its people then
// do (a notification arrives, costs are entered, someone is invited, the installed app is opened);
// best sellers come from the platform's orders, counted again only when the count is old; hiding the
// guide is per shop. The process runs in São Paulo's zone: instants must still be stored in UTC.
process.env.TZ = "America/Sao_Paulo";

let sandbox: TestSandbox;
let sql: pg.Client;
let guide: typeof Guide;
let best: typeof BestSellers;
let shops: typeof Shops;
let shopId: string;
let token: string;
let webhookKey: string;
const owner = { id: "person-owner", name: "Olga Dona" };

beforeAll(async () => {
  const url = await useTestDatabase();
  sandbox = await startTestSandbox({ config: { seedOrders: 0 } });
  process.env.MARKETPLACE_BASE_URL = sandbox.url;
  sql = await connect(url);
  ({ token, sellerId: shopId, webhookKey } = await connectTestShop({ sandboxUrl: sandbox.url }));
  guide = await import("@/features/overview/setup-guide/setup-guide.server");
  best = await import("@/features/overview/setup-guide/best-sellers.server");
  shops = await import("@/lib/shops/shops.server");
  await sql.query(`INSERT INTO "Person" (id, name) VALUES ($1, $2)`, [owner.id, owner.name]);
  await sql.query(`INSERT INTO "Membership" ("sellerId", "personId", role) VALUES ($1, $2, 'owner')`, [shopId, owner.id]);
  // Orders placed now, with the sandbox's random items; connecting then points notifications here.
  expect((await sandbox.api("/_sandbox/orders", { method: "POST", json: { seller: "seller@example.com", count: 8 } })).status).toBe(201);
  const { switchOnNotificationsAtConnect } = await import("@/lib/auth/notifications-at-connect.server");
  expect(await switchOnNotificationsAtConnect(shopId)).toBe("on");
}, 60_000);

afterAll(async () => {
  await sql?.end();
  await sandbox?.close();
});

async function currentShop() {
  const shop = await shops.findCurrentShop(shopId);
  expect(shop).not.toBeNull();
  return shop!;
}

const stepOf = <Name extends SetupStep["name"]>(steps: SetupStep[], name: Name) =>
  steps.find((step): step is Extract<SetupStep, { name: Name }> => step.name === name)!;

/** The five codes with most units over the sandbox's orders (none is cancelled: all were just placed), read through its API. */
async function expectedBestSellers(): Promise<string[]> {
  const response = await sandbox.api(`/v1.0/marketplace/orders?${ordersQuery({ limit: 100 })}`, { token });
  const { results } = (await response.json()) as { results: { deliveries: { items: { quantity: number; info: { sku: string } }[] }[] }[] };
  const units = new Map<string, number>();
  for (const order of results)
    for (const delivery of order.deliveries)
      for (const item of delivery.items) units.set(item.info.sku, (units.get(item.info.sku) ?? 0) + item.quantity);
  return [...units]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .slice(0, 5)
    .map(([sku]) => sku);
}

describe("a shop just connected", () => {
  it("has done none of the steps: notifications wait for the first, every best seller lacks a cost, nobody else is in, no app opened", async () => {
    const steps = await guide.loadSetupSteps(await currentShop());
    const wanted = await expectedBestSellers();
    expect(wanted.length).toBeGreaterThan(0);
    expect(stepOf(steps, "notifications")).toEqual({ name: "notifications", done: false, callback: "here", lastNotificationAt: null });
    const costs = stepOf(steps, "costs");
    expect(costs).toMatchObject({ done: false, state: "sales" });
    if (costs.state !== "sales") throw new Error("unreachable");
    expect(costs.bestSellers.map((product) => product.sku)).toEqual(wanted);
    expect(costs.missing.map((product) => product.sku)).toEqual(wanted);
    // Named as the mirror or the catalogue names them; a code nobody named has no name.
    expect(costs.bestSellers.every((product) => product.name === null || product.name.length > 0)).toBe(true);
    expect(stepOf(steps, "team")).toEqual({ name: "team", done: false, state: "alone", members: 1 });
    expect(stepOf(steps, "phone")).toEqual({ name: "phone", done: false, openedAt: null });
    expect(await guide.setupGuideState(shopId)).toEqual({ dismissed: false, appOpened: false });
  });
});

describe("each step, ticked by what was done", () => {
  it("notifications: once one reaches the shop's receiver", async () => {
    const body = JSON.stringify({ data: { domain: "order.order", status: "new", order_id: "65a000000000000000000001" } });
    expect((await deliverToReceiver(webhookKey, body, { signWith: token })).status).toBe(200);
    const step = stepOf(await guide.loadSetupSteps(await currentShop()), "notifications");
    expect(step.done).toBe(true);
    expect(step.lastNotificationAt).toBeInstanceOf(Date);
  });

  it("notifications: turned off on the Webhooks page, then on again, they wait for a notification sent after that", async () => {
    const { recordAudit } = await import("@/lib/audit/audit.server");
    await recordAudit({ shopId, person: owner, action: "webhooks.settings", before: { receiver: "dashboard" }, after: { url: null } });
    expect(stepOf(await guide.loadSetupSteps(await currentShop()), "notifications")).toMatchObject({ done: false, callback: "none" });
    await recordAudit({ shopId, person: owner, action: "webhooks.settings", before: { url: null }, after: { receiver: "dashboard" } });
    expect(stepOf(await guide.loadSetupSteps(await currentShop()), "notifications")).toMatchObject({
      done: false,
      callback: "here",
      lastNotificationAt: null,
    });
    const body = JSON.stringify({ data: { domain: "order.order", status: "approved", order_id: "65a000000000000000000001" } });
    expect((await deliverToReceiver(webhookKey, body, { signWith: token })).status).toBe(200);
    expect(stepOf(await guide.loadSetupSteps(await currentShop()), "notifications").done).toBe(true);
  });

  it("costs: says which best sellers still lack one, and is done once each has one (a removed cost counts as none)", async () => {
    const { setProductCost } = await import("@/features/prices/costs/product-costs.server");
    const wanted = await expectedBestSellers();
    const [first, ...others] = wanted;
    for (const sku of others) await setProductCost(shopId, owner, { sku, cost: 1990 }, "prices");
    // A cost set, then removed, is none.
    await setProductCost(shopId, owner, { sku: first!, cost: 500 }, "prices");
    await setProductCost(shopId, owner, { sku: first!, cost: null }, "prices");
    const costs = stepOf(await guide.loadSetupSteps(await currentShop()), "costs");
    expect(costs.done).toBe(false);
    if (costs.state !== "sales") throw new Error(`expected sales, got ${costs.state}`);
    expect(costs.missing.map((product) => product.sku)).toEqual([first]);

    await setProductCost(shopId, owner, { sku: first!, cost: 700 }, "catalogue");
    expect(stepOf(await guide.loadSetupSteps(await currentShop()), "costs").done).toBe(true);
  });

  it("team: an open invitation, then a second member; a revoked or expired one does not count", async () => {
    const { createInvitation, revokeInvitation } = await import("@/features/people/invitations.server");
    const expired = await createInvitation(shopId, "viewer", owner.id, new Date(Date.now() - 8 * 86_400_000));
    const revoked = await createInvitation(shopId, "viewer", owner.id);
    await revokeInvitation(shopId, revoked.id);
    expect(stepOf(await guide.loadSetupSteps(await currentShop()), "team")).toMatchObject({ done: false, state: "alone" });
    expect(expired.expiresAt.getTime()).toBeLessThan(Date.now());

    await createInvitation(shopId, "manager", owner.id);
    expect(stepOf(await guide.loadSetupSteps(await currentShop()), "team")).toMatchObject({ done: true, state: "invited" });

    await sql.query(`INSERT INTO "Person" (id, name) VALUES ('person-gil', 'Gil Gerente')`);
    await sql.query(`INSERT INTO "Membership" ("sellerId", "personId", role) VALUES ($1, 'person-gil', 'manager')`, [shopId]);
    expect(stepOf(await guide.loadSetupSteps(await currentShop()), "team")).toEqual({
      name: "team",
      done: true,
      state: "team",
      members: 2,
    });
  });

  it("phone: the first opening of the installed app counts, in UTC, and a later one changes nothing", async () => {
    const first = new Date("2026-11-29T10:15:00.000Z");
    await guide.recordAppOpened(shopId, first);
    await guide.recordAppOpened(shopId, new Date("2026-11-29T18:00:00.000Z"));
    const { rows } = await sql.query<{ at: string }>(
      `SELECT to_char("appOpenedAt", 'YYYY-MM-DD"T"HH24:MI:SS') AS at FROM "SetupGuide" WHERE "sellerId" = $1`,
      [shopId],
    );
    expect(rows[0]!.at).toBe("2026-11-29T10:15:00");
    const steps = await guide.loadSetupSteps(await currentShop());
    expect(stepOf(steps, "phone")).toEqual({ name: "phone", done: true, openedAt: first });
    expect(steps.every((step) => step.done)).toBe(true);
    expect(await guide.setupGuideState(shopId)).toEqual({ dismissed: false, appOpened: true });
  });
});

describe("best sellers", () => {
  it("are kept for a few hours, counted again after, and an old count stands in while the platform cannot answer", async () => {
    const now = new Date();
    const made = [{ sku: "KEPT-001", units: 99 }];
    await sql.query(
      `UPDATE "SetupGuide" SET "bestSellers" = $2::jsonb, "bestSellersAt" = ($3::timestamptz AT TIME ZONE 'UTC') WHERE "sellerId" = $1`,
      [shopId, JSON.stringify(made), new Date(now.getTime() - 60 * 60_000).toISOString()],
    );
    expect(await best.bestSellers(await currentShop(), 5, now)).toEqual(made);

    // Without the orders scope the platform is not asked: the old count is all there is.
    await sql.query(`UPDATE "SetupGuide" SET "bestSellersAt" = ($2::timestamptz AT TIME ZONE 'UTC') WHERE "sellerId" = $1`, [
      shopId,
      new Date(now.getTime() - 7 * 60 * 60_000).toISOString(),
    ]);
    await sql.query(`UPDATE "Connection" SET "scopesMissing" = 'order-order:read' WHERE "sellerId" = $1`, [shopId]);
    expect(await best.bestSellers(await currentShop(), 5, now)).toEqual(made);
    await sql.query(`UPDATE "SetupGuide" SET "bestSellers" = NULL, "bestSellersAt" = NULL WHERE "sellerId" = $1`, [shopId]);
    expect(await best.bestSellers(await currentShop(), 5, now)).toBeNull();
    expect(stepOf(await guide.loadSetupSteps(await currentShop(), now), "costs")).toEqual({ name: "costs", done: false, state: "unknown" });

    await sql.query(`UPDATE "Connection" SET "scopesMissing" = '' WHERE "sellerId" = $1`, [shopId]);
    const counted = await best.bestSellers(await currentShop(), 5, now);
    expect(counted?.map((product) => product.sku)).toEqual(await expectedBestSellers());
  });
});

describe("hiding the guide", () => {
  it("hides it for its shop only", async () => {
    const other = await connectTestShop({ sandboxUrl: sandbox.url, login: "seller2@example.com", name: "Loja Dois" });
    await guide.dismissSetupGuide(shopId, owner.id);
    expect(await guide.setupGuideState(shopId)).toEqual({ dismissed: true, appOpened: true });
    expect(await guide.setupGuideState(other.sellerId)).toEqual({ dismissed: false, appOpened: false });
    const { rows } = await sql.query<{ by: string }>(`SELECT "dismissedById" AS by FROM "SetupGuide" WHERE "sellerId" = $1`, [shopId]);
    expect(rows[0]!.by).toBe(owner.id);
  });
});
