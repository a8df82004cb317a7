// Only judges (decision 0014): pages use it to explain previews, and the server judges again with
// current prices and stored costs before sending (features/prices/prices.server.ts).
import type { PriceType } from "@marketplace/api/schemas/price";
import { BPS, COST_CURRENCY, COST_NORMALIZER, divideRounded, marginOf } from "../margin";
import type { PriceAmount } from "../margin";

export const DEFAULT_PRICE_CHANGE_LIMIT_PERCENT = 30;
/** Whole percent. */
export const PRICE_CHANGE_LIMIT_RANGE = { min: 1, max: 1000 } as const;

/**
 * What selling at the proposed price leaves (margin.ts): centavos, and basis points of the price.
 * A type, not an interface: it is stored as JSON in the audit log.
 */
export type MarginLeft = { amount: number; percentBps: number };

/**
 * Amounts in centavos; `changeBps` signed (−4000 is −40 %); currencies are ISO-4217 codes.
 * `margin`: on a reason about a sell price whose product has a cost (judgePrice), so the words can say it.
 */
export type GuardReason =
  | { code: "belowCost"; type: "sell"; cost: number; margin?: MarginLeft }
  | { code: "moveTooLarge"; type: PriceType; limitPercent: number; changeBps: number; margin?: MarginLeft }
  | { code: "currencyChange"; type: PriceType; from: string; to: string; margin?: MarginLeft };

export interface GuardProduct {
  /** Null where it has none or it is not known. */
  current: { list: PriceAmount | null; sell: PriceAmount | null };
  /** Centavos; null when the seller recorded none. */
  cost: number | null;
}

export interface ProposedPrice extends PriceAmount {
  type: PriceType;
}

/** Basis points; null for another currency or a current price of zero or less (unbounded). */
export function changeBps(current: PriceAmount, proposed: PriceAmount): number | null {
  if (current.currency !== proposed.currency || current.value <= 0) return null;
  const scaledCurrent = BigInt(current.value) * BigInt(proposed.normalizer);
  const difference = BigInt(proposed.value) * BigInt(current.normalizer) - scaledCurrent;
  return Number(divideRounded(difference * BigInt(BPS), scaledCurrent));
}

/**
 * The currency the product is priced in: its current price of the type, else of the other type,
 * else reais when it has a cost (costs are kept in reais). Null for a product with none of these.
 */
function pricedIn(product: GuardProduct, type: PriceType): string | null {
  const other: PriceType = type === "sell" ? "list" : "sell";
  return product.current[type]?.currency ?? product.current[other]?.currency ?? (product.cost !== null ? COST_CURRENCY : null);
}

/**
 * Judged on what is known: no cost, no "below cost"; no comparable current price, no "moves more
 * than". Exactly at the limit is allowed; only a sell price in reais is compared with the cost. A
 * price in another currency than the product's is held as such: neither rule could judge it.
 */
export function guardReasons(product: GuardProduct, proposed: ProposedPrice, limitPercent: number): GuardReason[] {
  const reasons: GuardReason[] = [];
  const from = pricedIn(product, proposed.type);
  if (from !== null && from !== proposed.currency)
    reasons.push({ code: "currencyChange", type: proposed.type, from, to: proposed.currency });
  if (proposed.type === "sell" && product.cost !== null && proposed.currency === COST_CURRENCY) {
    if (BigInt(proposed.value) * BigInt(COST_NORMALIZER) < BigInt(product.cost) * BigInt(proposed.normalizer)) {
      reasons.push({ code: "belowCost", type: "sell", cost: product.cost });
    }
  }
  const current = product.current[proposed.type];
  if (current && current.currency === proposed.currency && current.value > 0) {
    const scaledCurrent = BigInt(current.value) * BigInt(proposed.normalizer);
    const difference = BigInt(proposed.value) * BigInt(current.normalizer) - scaledCurrent;
    const magnitude = difference < 0n ? -difference : difference;
    if (magnitude * 100n > BigInt(limitPercent) * scaledCurrent) {
      reasons.push({ code: "moveTooLarge", type: proposed.type, limitPercent, changeBps: changeBps(current, proposed)! });
    }
  }
  return reasons;
}

/**
 * guardReasons, each reason of a sell price carrying the margin the proposed price leaves, with
 * the shop's commission rate (null: none known, counted as zero, as margins are on the page).
 * A product without a cost, or a list price, says nothing of margin: the list price does not sell.
 */
export function judgePrice(product: GuardProduct, proposed: ProposedPrice, limitPercent: number, rateBps: number | null): GuardReason[] {
  const reasons = guardReasons(product, proposed, limitPercent);
  const margin = proposed.type === "sell" ? marginOf(proposed, product.cost, rateBps) : null;
  if (!margin || margin.percentBps === null) return reasons;
  const left: MarginLeft = { amount: margin.amount, percentBps: margin.percentBps };
  return reasons.map((reason) => (reason.type === "sell" ? { ...reason, margin: left } : reason));
}

export interface HeldChange {
  sku: string;
  type: PriceType;
  reasons: GuardReason[];
}

/** In first-seen order. */
export function unconfirmedProducts(held: readonly Pick<HeldChange, "sku">[], confirmed: ReadonlySet<string>): string[] {
  return [...new Set(held.map((change) => change.sku))].filter((sku) => !confirmed.has(sku));
}

/** What a price.set audit entry adds when the person confirmed a change the guard held. */
export function confirmedPastGuard(reasons: readonly GuardReason[]): { confirmedPastGuard?: GuardReason[] } {
  return reasons.length > 0 ? { confirmedPastGuard: [...reasons] } : {};
}
