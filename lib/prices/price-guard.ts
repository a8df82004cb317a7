// The price guard (issue 29): a new price that sells below the product's cost, or a list or sell
// price that moves more than the shop's limit (default ±30 %) from the current one, is held back
// until the seller confirms it for that product. This module only judges; the server actions
// re-judge every change with the platform's current prices and the stored costs before anything
// is sent (lib/data/prices.ts), and the pages judge their previews with it to show why a change is
// held. Exact integer arithmetic (BigInt), no floating point. Plain module: server and browser.
import type { PriceType } from "@/lib/marketplace/schemas/price";
import { BPS, COST_CURRENCY, COST_NORMALIZER, divideRounded } from "./margin";
import type { PriceAmount } from "./margin";

/** The shop's limit when it has not set one (prisma/schema.prisma Seller.priceChangeLimitPercent). */
export const DEFAULT_PRICE_CHANGE_LIMIT_PERCENT = 30;
/** The limits a shop may set, in whole percent. */
export const PRICE_CHANGE_LIMIT_RANGE = { min: 1, max: 1000 } as const;

/** Why a change is held. Amounts in centavos; `changeBps` signed (−4000 is −40 %). */
export type GuardReason =
  | { code: "belowCost"; type: "sell"; cost: number }
  | { code: "moveTooLarge"; type: PriceType; limitPercent: number; changeBps: number };

export interface GuardProduct {
  /** The prices the product has now; null where it has none (or it is not known). */
  current: { list: PriceAmount | null; sell: PriceAmount | null };
  /** In centavos (BRL, normalizer 100); null when the seller recorded none. */
  cost: number | null;
}

/** A change of one of a product's prices. */
export interface ProposedPrice extends PriceAmount {
  type: PriceType;
}

/**
 * The signed change from `current` to `proposed` in basis points, or null when it cannot be read
 * as one: another currency, or a current price of zero or less (any change from it is unbounded).
 */
export function changeBps(current: PriceAmount, proposed: PriceAmount): number | null {
  if (current.currency !== proposed.currency || current.value <= 0) return null;
  // proposed/pn − current/cn over current/cn, at one scale: (p·cn − c·pn) / (c·pn).
  const scaledCurrent = BigInt(current.value) * BigInt(proposed.normalizer);
  const difference = BigInt(proposed.value) * BigInt(current.normalizer) - scaledCurrent;
  return Number(divideRounded(difference * BigInt(BPS), scaledCurrent));
}

/**
 * The reasons `proposed` is held for a product, in a fixed order (below cost, then the move); none
 * when it may be sent. A product is judged on what is known: without a cost there is no "below
 * cost", without a current price of that type (or one in another currency) no "moves more than".
 * Exactly at the limit is allowed; only a sell price is compared with the cost, and only in reais.
 */
export function guardReasons(product: GuardProduct, proposed: ProposedPrice, limitPercent: number): GuardReason[] {
  const reasons: GuardReason[] = [];
  if (proposed.type === "sell" && product.cost !== null && proposed.currency === COST_CURRENCY) {
    // value/normalizer < cost/100, at one scale.
    if (BigInt(proposed.value) * BigInt(COST_NORMALIZER) < BigInt(product.cost) * BigInt(proposed.normalizer)) {
      reasons.push({ code: "belowCost", type: "sell", cost: product.cost });
    }
  }
  const current = product.current[proposed.type];
  if (current && current.currency === proposed.currency && current.value > 0) {
    const scaledCurrent = BigInt(current.value) * BigInt(proposed.normalizer);
    const difference = BigInt(proposed.value) * BigInt(current.normalizer) - scaledCurrent;
    const magnitude = difference < 0n ? -difference : difference;
    // |Δ| / current > limit / 100, without dividing.
    if (magnitude * 100n > BigInt(limitPercent) * scaledCurrent) {
      reasons.push({ code: "moveTooLarge", type: proposed.type, limitPercent, changeBps: changeBps(current, proposed)! });
    }
  }
  return reasons;
}

/** A change that is held, named by its product, with every reason. */
export interface HeldChange {
  sku: string;
  type: PriceType;
  reasons: GuardReason[];
}

/** The products (SKU codes, first-seen order) among `held` that are not in `confirmed`. */
export function unconfirmedProducts(held: readonly Pick<HeldChange, "sku">[], confirmed: ReadonlySet<string>): string[] {
  return [...new Set(held.map((change) => change.sku))].filter((sku) => !confirmed.has(sku));
}
