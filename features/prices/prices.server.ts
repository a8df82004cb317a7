import "server-only";
import { db } from "@/lib/db.server";
import { withPlatform } from "@/lib/platform/platform.server";
import type { PlatformResult } from "@/lib/platform/platform.server";
import { priceGuardContext } from "@/features/prices/costs/product-costs.server";
import { productNamesFor } from "@/lib/catalogue/product-names.server";
import type { CurrentShop } from "@/lib/shops/shops.server";
import { requiredScopesFor } from "@marketplace/api/client";
import type { MarketplaceClient } from "@marketplace/api/client";
import { pricesQuery } from "@marketplace/api/list-query";
import type { Price, PriceCreate, PriceType, PriceCreateResponse, PriceWithHistory } from "@marketplace/api/schemas/price";
import { applyPriceRows } from "@/features/prices/bulk/bulk-apply";
import type {
  ApplicableRow,
  ApplyPriceRowsOptions,
  ApplyPriceRowsResult,
  GuardedOutcome,
  SkippedOutcome,
} from "@/features/prices/bulk/bulk-apply";
import { judgePrice } from "@/features/prices/guard/price-guard";
import type { GuardProduct, GuardReason } from "@/features/prices/guard/price-guard";
import { toPlatformPricesQuery } from "@/features/prices/price-filters";
import type { PriceFilters } from "@/features/prices/price-filters";
import { toPriceRow } from "@/features/prices/price-rows";
import type { PricesPage } from "@/features/prices/price-rows";

export async function listPricesForShop(shop: CurrentShop, filters: PriceFilters): Promise<PlatformResult<PricesPage>> {
  const result = await withPlatform(shop, "listPrices", (client) => client.listPrices(toPlatformPricesQuery(filters)));
  if (!result.ok) return result;
  const page = result.data;
  const names = await productNamesFor(
    shop.id,
    page.items.map((price) => price.sku),
  );
  return {
    ok: true,
    data: {
      rows: page.items.map((price) => toPriceRow(price, names.get(price.sku) ?? null)),
      page: filters.page,
      size: filters.size,
      total: page.total ?? null,
      hasNext: page.next !== null,
    },
  };
}

/** A price with its history; null when the platform does not know it for this seller. */
export async function getPriceForShop(shop: CurrentShop, id: string): Promise<PlatformResult<PriceWithHistory | null>> {
  const result = await withPlatform(shop, "getPrice", (client) => client.getPrice(id));
  if (!result.ok && result.problem.kind === "error" && result.problem.status === 404) return { ok: true, data: null };
  return result;
}

/** Not exported: every change goes through the price guard (setPriceGuarded, applyGuardedPriceRows). */
async function createPriceForShop(shop: CurrentShop, price: PriceCreate): Promise<PlatformResult<PriceCreateResponse>> {
  return withPlatform(shop, "createPrice", (client) => client.createPrice(price));
}

/** Spec, Limits: max_limit is reported per response (200 in its example); we follow what comes back. */
export const EVERY_PRICE_PAGE_SIZE = 200;

/** Up to `maxPages` (`complete: false` when the cap stopped it): a view by SKU must read every price. */
export async function listEveryPrice(client: MarketplaceClient, maxPages: number): Promise<{ prices: Price[]; complete: boolean }> {
  const prices: Price[] = [];
  let offset = 0;
  for (let page = 0; page < maxPages; page++) {
    // Oldest first, so a price set meanwhile moves to the end and is read there. The shift may hide
    // one price at a page boundary; these views are advisory.
    const result = await client.listPrices(
      pricesQuery({ limit: EVERY_PRICE_PAGE_SIZE, offset, sort: { field: "created_at", direction: "asc" } }),
    );
    prices.push(...result.items);
    if (result.next === null || result.items.length === 0) return { prices, complete: true };
    offset = result.next.offset;
  }
  return { prices, complete: false };
}

/** A type, not an interface: it is stored as JSON in the audit log. */
export type KnownPrice = { type: string; value: number; currency: string; normalizer: number };

export const priceKey = (sku: string, type: string) => `${sku}\u0000${type}`;

export async function lastKnownPrices(shopId: string, rows: readonly { sku: string; type: string }[]): Promise<Map<string, KnownPrice>> {
  const found = new Map<string, KnownPrice>();
  if (rows.length === 0) return found;
  const mirrored = await db.priceMirror.findMany({
    where: { shopId, sku: { in: [...new Set(rows.map((row) => row.sku))] } },
    orderBy: { syncedAt: "asc" },
    select: { sku: true, type: true, value: true, currency: true, normalizer: true },
  });
  for (const price of mirrored)
    found.set(priceKey(price.sku, price.type), {
      type: price.type,
      value: price.value,
      currency: price.currency,
      normalizer: price.normalizer,
    });
  return found;
}

/** For the audit log's "before": the platform's newest, else the last the mirror saw. */
export async function currentPrice(shop: CurrentShop, sku: string, type: PriceType): Promise<KnownPrice | null> {
  const listed = await withPlatform(shop, "listPrices", (client) =>
    client.listPrices(pricesQuery({ sku, type, limit: 1, sort: { field: "created_at", direction: "desc" } })),
  );
  const newest = listed.ok ? listed.data.items[0] : undefined;
  if (newest) return { type: newest.type, value: newest.value, currency: newest.currency, normalizer: newest.normalizer };
  return (await lastKnownPrices(shop.id, [{ sku, type }])).get(priceKey(sku, type)) ?? null;
}

// Every price change goes through one of the two functions below, which judge it again with the
// platform's current price and the stored cost, whatever the page showed.

/** The price create body without `extras` (spec: Resources → Price). */
export interface PriceChange {
  sku: string;
  type: PriceType;
  value: number;
  currency: string;
  normalizer: number;
}

/** `confirmedPast`: what the guard objected to and the person confirmed, for the audit log. */
export type GuardedPriceOutcome =
  | { kind: "held"; reasons: GuardReason[]; before: KnownPrice | null }
  | { kind: "sent"; result: PlatformResult<PriceCreateResponse>; before: KnownPrice | null; confirmedPast: GuardReason[] };

/** Held when the guard objects, unless `confirmed`; judged either way, so the log says what was confirmed. */
export async function setPriceGuarded(
  shop: CurrentShop,
  change: PriceChange,
  options: { confirmed: boolean },
): Promise<GuardedPriceOutcome> {
  const before = await currentPrice(shop, change.sku, change.type);
  const guard = await priceGuardContext(shop.id, [change.sku]);
  const current: GuardProduct["current"] = { list: null, sell: null };
  current[change.type] = before;
  const reasons = judgePrice({ current, cost: guard.costs.get(change.sku) ?? null }, change, guard.limitPercent, guard.rateBps);
  if (reasons.length > 0 && !options.confirmed) return { kind: "held", reasons, before };
  const result = await createPriceForShop(shop, { ...change, extras: {} });
  return { kind: "sent", result, before, confirmedPast: reasons };
}

/** The newest of each type, as endpoint 7 lists them. */
export async function currentPricesOfSku(client: MarketplaceClient, sku: string): Promise<GuardProduct["current"]> {
  // The platform keeps one price per SKU and type; a few more cover one set while this reads.
  const listed = await client.listPrices(pricesQuery({ sku, limit: 10, sort: { field: "created_at", direction: "desc" } }));
  const current: GuardProduct["current"] = { list: null, sell: null };
  for (const price of listed.items) {
    if (price.sku === sku && current[price.type] === null)
      current[price.type] = { value: price.value, currency: price.currency, normalizer: price.normalizer };
  }
  return current;
}

/**
 * Each row is judged right before it is sent; a held row is never sent unless its SKU is in
 * `confirmed`, and then `onConfirmedPastGuard` hears what was confirmed. A failed read counts as a
 * failed create (retried), so no row is sent unjudged. `precondition` may skip a row on what the
 * platform holds now (an undo skips a price changed since); `onSend` hears, for each row about to
 * be sent, the product's prices read just before: the audit log's "before".
 */
export async function applyGuardedPriceRows<R extends ApplicableRow & PriceChange>(
  shop: CurrentShop,
  rows: readonly R[],
  options: Omit<ApplyPriceRowsOptions<R, GuardedOutcome>, "createPrice" | "check"> & {
    confirmed: ReadonlySet<string>;
    onConfirmedPastGuard?: (row: R, reasons: GuardReason[]) => void;
    precondition?: (row: R, current: GuardProduct["current"]) => SkippedOutcome | null;
    onSend?: (row: R, current: GuardProduct["current"]) => void;
  },
): Promise<PlatformResult<ApplyPriceRowsResult<R, GuardedOutcome>>> {
  // The reads need portfolio:read as the creates need portfolio:write; a missing one is said up front.
  const missing = requiredScopesFor("listPrices").filter((scope) => shop.connection.scopesMissing.includes(scope));
  if (missing.length > 0) return { ok: false, problem: { kind: "missing_scope", scopes: missing } };
  const { confirmed, onConfirmedPastGuard, precondition, onSend, ...engine } = options;
  const guard = await priceGuardContext(shop.id, [...new Set(rows.map((row) => row.sku))]);
  return withPlatform(shop, "createPrice", (client) => {
    const reads = new Map<string, Promise<GuardProduct["current"]>>();
    const currentOf = (sku: string) => {
      let read = reads.get(sku);
      if (!read) {
        read = currentPricesOfSku(client, sku);
        // A failed read is asked again when the engine retries the row.
        read.catch(() => reads.delete(sku));
        reads.set(sku, read);
      }
      return read;
    };
    return applyPriceRows<R, GuardedOutcome>(rows, {
      ...engine,
      createPrice: (row) =>
        client.createPrice({
          sku: row.sku,
          type: row.type,
          value: row.value,
          currency: row.currency,
          normalizer: row.normalizer,
          extras: {},
        }),
      check: async (row): Promise<GuardedOutcome | null> => {
        const cost = guard.costs.get(row.sku) ?? null;
        const isConfirmed = confirmed.has(row.sku);
        // Below cost is known without the platform: held without a read.
        const belowCost = judgePrice({ current: { list: null, sell: null }, cost }, row, guard.limitPercent, guard.rateBps).filter(
          (reason) => reason.code === "belowCost",
        );
        if (belowCost.length > 0 && !isConfirmed) return { outcome: "held", reasons: belowCost };
        const current = await currentOf(row.sku);
        const skipped = precondition?.(row, current) ?? null;
        if (skipped) return skipped;
        const reasons = judgePrice({ current, cost }, row, guard.limitPercent, guard.rateBps);
        if (reasons.length > 0 && !isConfirmed) return { outcome: "held", reasons };
        if (reasons.length > 0) onConfirmedPastGuard?.(row, reasons);
        onSend?.(row, current);
        return null;
      },
    });
  });
}
