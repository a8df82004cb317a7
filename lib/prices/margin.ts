// A product's margin on prices by product (issue 29): what is left of the sell price after the
// product's cost and the marketplace's commission, in money and as a share of the sell price.
// Costs are kept in centavos (BRL, normalizer 100: prisma/schema.prisma ProductCost), so the sell
// price is brought to centavos first. Integers and BigInt throughout, no floating point (see
// lib/money.ts). Plain module: the page, the table and the tests use it.

/** A price as the platform gives it (spec: Resources → Price). */
export interface PriceAmount {
  value: number;
  currency: string;
  normalizer: number;
}

/** The currency and precision costs are kept in. */
export const COST_CURRENCY = "BRL";
export const COST_NORMALIZER = 100;

/** One in basis points: a rate of 1250 bps is 12.5 %. */
export const BPS = 10_000;

/** `numerator / denominator` rounded half away from zero (denominator > 0). */
export function divideRounded(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  const twiceRest = (numerator % denominator) * 2n;
  if (twiceRest >= denominator) return quotient + 1n;
  if (twiceRest <= -denominator) return quotient - 1n;
  return quotient;
}

/**
 * The price in centavos, or null when it is not in reais (a cost cannot be compared with it). A
 * normalizer other than 100 is converted exactly when it can be, else rounded half away from zero
 * to the centavo (a price kept in thousandths: 12.345 → 1235).
 */
export function toCentavos(price: PriceAmount): number | null {
  if (price.currency !== COST_CURRENCY) return null;
  return Number(divideRounded(BigInt(price.value) * BigInt(COST_NORMALIZER), BigInt(price.normalizer)));
}

export interface Margin {
  /** Sell price − cost − commission, in centavos (negative when the sale loses money). */
  amount: number;
  /** The commission taken from the sell price, in centavos. */
  commission: number;
  /** `amount` ÷ sell price in basis points; null for a sell price of zero. */
  percentBps: number | null;
}

/**
 * The margin of selling at `sell` with a cost of `cost` centavos and a commission of `rateBps`
 * (null: none known, counted as zero). Rounding: the sell price to the centavo as `toCentavos`
 * does, the commission (rate × sell price) half away from zero to the centavo, the percentage half
 * away from zero to the basis point; the amount itself is exact given those, so amount + cost +
 * commission is always the sell price in centavos. Null without a sell price in reais or a cost.
 */
export function marginOf(sell: PriceAmount | null | undefined, cost: number | null | undefined, rateBps: number | null): Margin | null {
  if (!sell || cost === null || cost === undefined) return null;
  const sellCentavos = toCentavos(sell);
  if (sellCentavos === null) return null;
  const commission = Number(divideRounded(BigInt(sellCentavos) * BigInt(rateBps ?? 0), BigInt(BPS)));
  const amount = sellCentavos - cost - commission;
  const percentBps = sellCentavos === 0 ? null : Number(divideRounded(BigInt(amount) * BigInt(BPS), BigInt(sellCentavos)));
  return { amount, commission, percentBps };
}
