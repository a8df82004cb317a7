import "server-only";
import { db } from "@/lib/db.server";
import { productNamesFor } from "@/lib/catalogue/product-names.server";
import { pool } from "@/lib/pg-pool.server";
import type { CallbackTarget } from "@/lib/shops/callback-target";
import type { CurrentShop } from "@/lib/shops/shops.server";
import { bestSellers } from "@/features/overview/setup-guide/best-sellers.server";
import { BEST_SELLERS, callbackWhere, setupSteps } from "@/features/overview/setup-guide/setup-steps";
import type { SetupStep } from "@/features/overview/setup-guide/setup-steps";

export interface SetupGuideState {
  dismissed: boolean;
  appOpened: boolean;
}

/** What every member's overview needs: whether the guide is hidden, and whether the installed app was opened yet. */
export async function setupGuideState(shopId: string): Promise<SetupGuideState> {
  const row = await db.setupGuide.findUnique({ where: { shopId }, select: { dismissedAt: true, appOpenedAt: true } });
  return { dismissed: row?.dismissedAt != null, appOpened: row?.appOpenedAt != null };
}

/** The last change made to the callback URL on the Webhooks page since `since`, as its audit entry keeps it. */
async function callbackChangeSince(shopId: string, since: Date): Promise<{ target: CallbackTarget; at: Date } | null> {
  const entry = await db.auditEntry.findFirst({
    where: { shopId, kind: "webhooks", action: "webhooks.settings", at: { gte: since } },
    orderBy: { at: "desc" },
    select: { after: true, at: true },
  });
  if (!entry) return null;
  const after = entry.after as { receiver?: unknown; url?: unknown } | null;
  if (after?.receiver === "dashboard") return { target: { receiver: "dashboard" }, at: entry.at };
  return { target: { url: typeof after?.url === "string" ? after.url : null }, at: entry.at };
}

/** The newest notification the shop's receiver accepted since `since`. */
async function lastNotificationSince(shopId: string, since: Date): Promise<Date | null> {
  const event = await db.webhookEvent.findFirst({
    where: { shopId, source: "webhook", receivedAt: { gte: since } },
    orderBy: { receivedAt: "desc" },
    select: { receivedAt: true },
  });
  return event?.receivedAt ?? null;
}

// Costs are the prices feature's (features/prices/costs/product-costs.server.ts): a code's cost is
// its newest ProductCost row, null once removed. Read here in SQL, since the overview depends on
// the webhooks feature alone (docs/decisions/0017-feature-slices.md).
const CURRENT_COSTS = `
  SELECT DISTINCT ON ("sku") "sku", "cost" FROM "ProductCost"
  WHERE "sellerId" = $1 AND ($2::text[] IS NULL OR "sku" = ANY($2::text[]))
  ORDER BY "sku", "setAt" DESC, "id" DESC`;

/** The codes of `skus` (every code when null) that have a cost now. */
async function costedSkus(shopId: string, skus: readonly string[] | null): Promise<Set<string>> {
  const { rows } = await pool.query<{ sku: string; cost: number | null }>(CURRENT_COSTS, [shopId, skus]);
  return new Set(rows.filter((row) => row.cost !== null).map((row) => row.sku));
}

async function costFacts(shop: CurrentShop, now: Date) {
  const sold = await bestSellers(shop, BEST_SELLERS, now);
  if (sold === null) return { bestSellers: null, costed: new Set<string>(), anyCost: false };
  if (sold.length === 0) return { bestSellers: [], costed: new Set<string>(), anyCost: (await costedSkus(shop.id, null)).size > 0 };
  const skus = sold.map((product) => product.sku);
  const [costed, names] = await Promise.all([costedSkus(shop.id, skus), productNamesFor(shop.id, skus)]);
  return { bestSellers: skus.map((sku) => ({ sku, name: names.get(sku) ?? null })), costed, anyCost: costed.size > 0 };
}

async function notificationFacts(shop: CurrentShop) {
  const change = await callbackChangeSince(shop.id, shop.connection.connectedAt);
  // Only a notification since the URL was last set shows that this setting works.
  const since = change?.at ?? shop.connection.connectedAt;
  return {
    callback: callbackWhere(shop.connection.notificationsAtConnect, change?.target ?? null),
    lastNotificationAt: await lastNotificationSince(shop.id, since),
  };
}

async function teamFacts(shopId: string, now: Date) {
  const [members, openInvitations] = await Promise.all([
    db.membership.count({ where: { shopId } }),
    db.invitation.count({ where: { shopId, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } } }),
  ]);
  return { members, openInvitations };
}

/** The four steps of `shop`'s guide, each done or not by what its people did. */
export async function loadSetupSteps(shop: CurrentShop, now = new Date()): Promise<SetupStep[]> {
  const [notifications, costs, team, row] = await Promise.all([
    notificationFacts(shop),
    costFacts(shop, now),
    teamFacts(shop.id, now),
    db.setupGuide.findUnique({ where: { shopId: shop.id }, select: { appOpenedAt: true } }),
  ]);
  return setupSteps({ ...notifications, ...costs, ...team, appOpenedAt: row?.appOpenedAt ?? null });
}

/** Hidden for everyone of the shop. */
export async function dismissSetupGuide(shopId: string, personId: string, now = new Date()): Promise<void> {
  await db.setupGuide.upsert({
    where: { shopId },
    create: { shopId, dismissedAt: now, dismissedById: personId },
    update: { dismissedAt: now, dismissedById: personId },
  });
}

/** The first opening counts; later ones change nothing. */
export async function recordAppOpened(shopId: string, now = new Date()): Promise<void> {
  await pool.query(
    `INSERT INTO "SetupGuide" ("sellerId", "appOpenedAt") VALUES ($1, $2::timestamptz AT TIME ZONE 'UTC')
     ON CONFLICT ("sellerId") DO UPDATE SET "appOpenedAt" = COALESCE("SetupGuide"."appOpenedAt", excluded."appOpenedAt")`,
    [shopId, now.toISOString()],
  );
}
