// Integers and BigInt throughout, no floating point: costs are centavos, so prices are brought to them.

export interface PriceAmount {
  value: number;
  currency: string;
  normalizer: number;
}

export const COST_CURRENCY = "BRL";
export const COST_NORMALIZER = 100;

/** 1250 bps is 12.5 %. */
export const BPS = 10_000;

/** Rounded half away from zero; `denominator` > 0. */
export function divideRounded(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  const twiceRest = (numerator % denominator) * 2n;
  if (twiceRest >= denominator) return quotient + 1n;
  if (twiceRest <= -denominator) return quotient - 1n;
  return quotient;
}

/** Null when not in reais: no cost compares with it. Other normalizers round half away from zero. */
export function toCentavos(price: PriceAmount): number | null {
  if (price.currency !== COST_CURRENCY) return null;
  return Number(divideRounded(BigInt(price.value) * BigInt(COST_NORMALIZER), BigInt(price.normalizer)));
}

/** The platform's commission on `centavos` at `rateBps` (null counts as zero), rounded half away from zero. */
export function commissionOf(centavos: number, rateBps: number | null): number {
  return Number(divideRounded(BigInt(centavos) * BigInt(rateBps ?? 0), BigInt(BPS)));
}

export interface Margin {
  /** Centavos, negative when the sale loses money. */
  amount: number;
  commission: number;
  /** Null for a sell price of zero. */
  percentBps: number | null;
}

/**
 * `rateBps` null counts as zero. The amount is not rounded itself, so amount + cost + commission is
 * always the sell price in centavos. Null without a sell price in reais or a cost.
 */
export function marginOf(sell: PriceAmount | null | undefined, cost: number | null | undefined, rateBps: number | null): Margin | null {
  if (!sell || cost === null || cost === undefined) return null;
  const sellCentavos = toCentavos(sell);
  if (sellCentavos === null) return null;
  const commission = commissionOf(sellCentavos, rateBps);
  const amount = sellCentavos - cost - commission;
  const percentBps = sellCentavos === 0 ? null : Number(divideRounded(BigInt(amount) * BigInt(BPS), BigInt(sellCentavos)));
  return { amount, commission, percentBps };
}
