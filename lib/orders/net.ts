// What the seller receives of an order: its total less the platform's commission and the part of
// the freight taken from them (docs/decisions/0012-net-per-order.md). Pure and browser-safe: the
// order page, the orders list, the export and the order mirror all call this one function, so a
// net reads the same wherever it is shown.
import type { OrderAmounts } from "@/lib/marketplace/schemas/order";

/**
 * The amounts the net is worked out from (spec: Resources → Order, `amounts`). A commission the
 * platform does not send is none charged; the discount is not read (the total already has it).
 */
export type NetAmounts = Pick<OrderAmounts, "currency" | "normalizer" | "total" | "freight"> & {
  comission?: OrderAmounts["comission"] | null;
};

/** Every figure in minor units of the order's own currency and normalizer: total − commission − sellerFreight = net. */
export interface OrderNet {
  total: number;
  commission: number;
  sellerFreight: number;
  net: number;
  currency: string;
  normalizer: number;
}

/**
 * `value` (minor units of `from`) in minor units of `to`, exactly when it divides and otherwise
 * rounded up: both deductions go through here, so a rounding never makes the net larger than the
 * platform's own figures give. BigInt, because value × normalizer may pass 2^53.
 */
function toNormalizer(value: number, from: number, to: number): number {
  const numerator = BigInt(value) * BigInt(to);
  const divisor = BigInt(from);
  const quotient = numerator / divisor;
  // BigInt division truncates toward zero; a positive remainder means the ceiling is one more.
  const converted = numerator % divisor > 0n ? quotient + 1n : quotient;
  if (converted > BigInt(Number.MAX_SAFE_INTEGER) || converted < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new RangeError(`Amount ${value}/${from} does not fit in normalizer ${to}`);
  }
  return Number(converted);
}

/**
 * The order's net, or null when a commission or freight is in another currency than the order's:
 * no rate to convert at is given, and a guessed one would be a made-up figure.
 *
 * - commission = `comission.total` (money whatever its `type`: it carries currency and normalizer);
 * - sellerFreight = `freight.total − freight.shared`, never below zero: the buyer pays the whole
 *   freight inside `total`, the platform keeps it for the shipping except the shared part, which
 *   reaches the seller (decision 0012 lists the readings rejected).
 */
export function orderNet(amounts: NetAmounts): OrderNet | null {
  const { currency, normalizer, total, freight, comission } = amounts;
  if (freight.currency !== currency || (comission && comission.currency !== currency)) return null;
  const commission = comission ? toNormalizer(comission.total, comission.normalizer, normalizer) : 0;
  const sellerFreight = toNormalizer(Math.max(0, freight.total - freight.shared), freight.normalizer, normalizer);
  return { total, commission, sellerFreight, net: total - commission - sellerFreight, currency, normalizer };
}
