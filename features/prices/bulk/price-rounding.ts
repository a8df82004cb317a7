// "Psychological" endings for a bulk change's new prices: −10 % of R$ 49,90 is R$ 44,91, which no
// seller wants on a shelf; every seller tool offers R$ 44,90 or R$ 44,99 instead.
import type { PriceAmount } from "../margin";

export const CENTS_ROUNDINGS = ["exact", "90", "99"] as const;
/** "exact" keeps the computed cents; "90" and "99" end the price in ,90 or ,99. */
export type CentsRounding = (typeof CENTS_ROUNDINGS)[number];

export const isCentsRounding = (value: string): value is CentsRounding => (CENTS_ROUNDINGS as readonly string[]).includes(value);

type Direction = "nearest" | "down" | "up";

/**
 * The price ending in the chosen cents that is nearest to `value`, a tie going down; never below
 * the lowest such price (R$ 0,90 or R$ 0,99), so never below R$ 0,01, and never more than one
 * currency unit away. Nearest rather than always down (decision 0014): it stays within R$ 0,50
 * of the price the percentage gave, either way, where rounding down would cut up to R$ 0,99 more
 * than the seller asked for (R$ 44,91 → R$ 43,99). A normalizer that cannot write the cents
 * (not a multiple of 100: a currency without cents) leaves the value as it is.
 */
export function roundCents(value: number, normalizer: number, rounding: CentsRounding, direction: Direction = "nearest"): number {
  if (rounding === "exact" || normalizer % 100 !== 0) return value;
  const ending = (Number(rounding) * normalizer) / 100;
  // The candidates are ending + k × normalizer, k ≥ 0: `below` is the highest at or under the value.
  const below = value - ((((value - ending) % normalizer) + normalizer) % normalizer);
  const above = below === value ? value : below + normalizer;
  if (below < ending) return ending;
  if (direction === "down") return below;
  if (direction === "up") return above;
  return above - value < value - below ? above : below;
}

interface Rounded {
  list: number | null;
  sell: number | null;
}

/** True when the sell price is above the list price (same currency only: they cannot be compared otherwise). */
function sellAboveList(list: PriceAmount | null, sell: PriceAmount | null): boolean {
  if (!list || !sell || list.currency !== sell.currency) return false;
  return BigInt(sell.value) * BigInt(list.normalizer) > BigInt(list.value) * BigInt(sell.normalizer);
}

/**
 * Rounds a product's new prices (null: this change does not set that price) so that a sell price
 * at or under its list price ("de R$ 59,90 por R$ 49,90") stays there: a sell price that the
 * nearest ending would lift above the list price goes to the ending below instead, a list price
 * that would drop under the sell price to the ending above; if neither keeps the order the exact
 * values are kept. `kept`: the product's prices this change leaves as they are.
 */
export function roundProductPrices(
  next: { list: PriceAmount | null; sell: PriceAmount | null },
  kept: { list: PriceAmount | null; sell: PriceAmount | null },
  rounding: CentsRounding,
): Rounded {
  const round = (price: PriceAmount | null, direction: Direction) =>
    price === null ? null : roundCents(price.value, price.normalizer, rounding, direction);
  const exact: Rounded = { list: next.list?.value ?? null, sell: next.sell?.value ?? null };
  const attempts: Rounded[] = [
    { list: round(next.list, "nearest"), sell: round(next.sell, "nearest") },
    { list: round(next.list, "nearest"), sell: round(next.sell, "down") },
    { list: round(next.list, "up"), sell: round(next.sell, "down") },
  ];
  const pair = (values: Rounded) => ({
    list: next.list ? { ...next.list, value: values.list! } : kept.list,
    sell: next.sell ? { ...next.sell, value: values.sell! } : kept.sell,
  });
  const before = pair(exact);
  // Only an order the exact values keep is kept; a change that itself puts the sell price above the list is the seller's.
  if (sellAboveList(before.list, before.sell)) return attempts[0]!;
  return (
    attempts.find((values) => {
      const after = pair(values);
      return !sellAboveList(after.list, after.sell);
    }) ?? exact
  );
}
