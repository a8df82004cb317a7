import "server-only";
import { db } from "@/lib/db.server";
import { recordAudit } from "@/lib/audit/audit.server";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { CostSource } from "@/features/prices/costs/cost-input";
import { BPS } from "@/features/prices/margin";

// A code's cost is its newest ProductCost row (null: removed). Every change commits with its audit entry.

type Tx = Prisma.TransactionClient;

/**
 * Cost changes of one shop are taken one at a time, so "before" in the log is the cost the change
 * replaced even when two people save at once.
 */
async function lockShopCosts(tx: Tx, shopId: string) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('product-cost'), hashtext(${shopId}))`;
}

async function costsIn(client: Tx | typeof db, shopId: string, skus: readonly string[]): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  if (skus.length === 0) return found;
  const rows = await client.$queryRaw<{ sku: string; cost: number | null }[]>`
    SELECT DISTINCT ON ("sku") "sku", "cost" FROM "ProductCost"
    WHERE "sellerId" = ${shopId} AND "sku" = ANY(${[...new Set(skus)]}::text[])
    ORDER BY "sku", "setAt" DESC, "id" DESC`;
  for (const row of rows) if (row.cost !== null) found.set(row.sku, row.cost);
  return found;
}

export function currentCosts(shopId: string, skus: readonly string[]): Promise<Map<string, number>> {
  return costsIn(db, shopId, skus);
}

export interface CostChange {
  sku: string;
  /** Centavos; null removes the cost. */
  cost: number | null;
}

export interface CostPerson {
  id: string;
  name: string;
}

/** The same cost again records nothing. */
export async function setProductCost(
  shopId: string,
  person: CostPerson,
  change: CostChange,
  source: CostSource,
): Promise<{ changed: boolean; before: number | null }> {
  return db.$transaction(async (tx) => {
    await lockShopCosts(tx, shopId);
    const before = (await costsIn(tx, shopId, [change.sku])).get(change.sku) ?? null;
    if (before === change.cost) return { changed: false, before };
    await tx.productCost.create({
      data: { shopId, sku: change.sku, cost: change.cost, personId: person.id, personName: person.name, source },
    });
    await recordAudit(
      {
        shopId,
        person,
        action: "cost.set",
        subject: change.sku,
        before: before === null ? null : { cost: before },
        after: { cost: change.cost },
      },
      tx,
    );
    return { changed: true, before };
  });
}

/** One transaction; codes whose cost is already that are left alone. Answers how many changed. */
export async function setProductCosts(
  shopId: string,
  person: CostPerson,
  changes: readonly CostChange[],
  source: CostSource,
): Promise<{ changed: number }> {
  return db.$transaction(
    async (tx) => {
      await lockShopCosts(tx, shopId);
      const before = await costsIn(
        tx,
        shopId,
        changes.map((change) => change.sku),
      );
      const changed = changes.filter((change) => (before.get(change.sku) ?? null) !== change.cost);
      if (changed.length === 0) return { changed: 0 };
      await tx.productCost.createMany({
        data: changed.map((change) => ({
          shopId,
          sku: change.sku,
          cost: change.cost,
          personId: person.id,
          personName: person.name,
          source,
        })),
      });
      await recordAudit(
        [
          { shopId, person, action: "cost.bulk", after: { count: changed.length } },
          ...changed.map((change) => {
            const was = before.get(change.sku);
            return {
              shopId,
              person,
              action: "cost.set" as const,
              subject: change.sku,
              before: was === undefined ? null : { cost: was },
              after: { cost: change.cost },
            };
          }),
        ],
        tx,
      );
      return { changed: changed.length };
    },
    // 5,000 codes write 10,000 rows: more than Prisma's default 5 s on a slow disk.
    { timeout: 30_000 },
  );
}

export interface CostHistoryEntry {
  /** Centavos; null when the cost was removed. */
  cost: number | null;
  setAt: Date;
  personName: string;
  source: string;
}

export async function costHistory(shopId: string, sku: string, take = 50): Promise<CostHistoryEntry[]> {
  return db.productCost.findMany({
    where: { shopId, sku },
    orderBy: [{ setAt: "desc" }, { id: "desc" }],
    take,
    select: { cost: true, setAt: true, personName: true, source: true },
  });
}

export interface LearnedCommission {
  /** Total commission ÷ total sales, in basis points. */
  rateBps: number;
  orders: number;
}

/** How many of a shop's latest orders (not cancelled) its commission rate is learned from. */
export const LEARNED_FROM_ORDERS = 1_000;

/**
 * Commissions over totals of those of the shop's latest orders, cancelled ones left out, that carry
 * one: a rate the marketplace changed shows within a thousand orders, and a shop with a million
 * does not read them all on every price page, price change or sales page with costs (nor, when its
 * orders carry none, look through all of them for one). Each amount is divided by its own
 * normalizer first; one currency is assumed (sellers sell in reais). Null before any order with a
 * commission.
 */
export async function learnedCommissionRate(shopId: string): Promise<LearnedCommission | null> {
  const [row] = await db.$queryRaw<{ rateBps: number | null; orders: number }[]>`
    SELECT ROUND(SUM("commission"::numeric / "normalizer") * ${BPS} / NULLIF(SUM("total"::numeric / "normalizer"), 0))::int AS "rateBps",
           COUNT(*)::int AS "orders"
    FROM (
      SELECT "commission", "total", "normalizer" FROM "OrderMirror"
      WHERE "sellerId" = ${shopId} AND "status" <> 'cancelled'
      ORDER BY "createdAt" DESC LIMIT ${LEARNED_FROM_ORDERS}
    ) AS "latest"
    WHERE "commission" IS NOT NULL AND "total" > 0`;
  if (!row || row.rateBps === null || row.orders === 0) return null;
  return { rateBps: row.rateBps, orders: row.orders };
}

export interface PricingSettings {
  /** The price guard's limit: a list or sell price moving more than this (±%) is held. */
  limitPercent: number;
  commission: {
    /** Set by hand, in basis points; null: learned from the orders. */
    manualBps: number | null;
    learned: LearnedCommission | null;
    /** The rate margins use: the hand-set one, else the learned one, else none known. */
    rateBps: number | null;
  };
}

export async function pricingSettings(shopId: string): Promise<PricingSettings> {
  const [shop, learned] = await Promise.all([
    db.shop.findUniqueOrThrow({ where: { id: shopId }, select: { priceChangeLimitPercent: true, commissionRateBps: true } }),
    learnedCommissionRate(shopId),
  ]);
  return {
    limitPercent: shop.priceChangeLimitPercent,
    commission: { manualBps: shop.commissionRateBps, learned, rateBps: shop.commissionRateBps ?? learned?.rateBps ?? null },
  };
}

export interface PriceGuardContext {
  limitPercent: number;
  costs: Map<string, number>;
  /** The commission rate margins use (pricingSettings), for the margin a held price leaves. */
  rateBps: number | null;
}

export async function priceGuardContext(shopId: string, skus: readonly string[]): Promise<PriceGuardContext> {
  const [settings, costs] = await Promise.all([pricingSettings(shopId), currentCosts(shopId, skus)]);
  return { limitPercent: settings.limitPercent, costs, rateBps: settings.commission.rateBps };
}

export async function setPriceChangeLimit(shopId: string, person: CostPerson, limitPercent: number): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const [before] = await tx.$queryRaw<
      { limit: number }[]
    >`SELECT "priceChangeLimitPercent" AS "limit" FROM "Seller" WHERE "id" = ${shopId} FOR UPDATE`;
    if (!before || before.limit === limitPercent) return false;
    await tx.shop.update({ where: { id: shopId }, data: { priceChangeLimitPercent: limitPercent } });
    await recordAudit({ shopId, person, action: "price.guardLimit", before: { limitPercent: before.limit }, after: { limitPercent } }, tx);
    return true;
  });
}

/** Sets the commission rate by hand (basis points), or null to learn it from the orders, with its audit entry. */
export async function setCommissionRate(shopId: string, person: CostPerson, rateBps: number | null): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const [before] = await tx.$queryRaw<
      { rateBps: number | null }[]
    >`SELECT "commissionRateBps" AS "rateBps" FROM "Seller" WHERE "id" = ${shopId} FOR UPDATE`;
    if (!before || before.rateBps === rateBps) return false;
    await tx.shop.update({ where: { id: shopId }, data: { commissionRateBps: rateBps } });
    await recordAudit({ shopId, person, action: "price.commissionRate", before: { rateBps: before.rateBps }, after: { rateBps } }, tx);
    return true;
  });
}
