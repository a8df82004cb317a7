// One function for every place a net is shown, so it reads the same everywhere (decision 0012).
import type { OrderAmounts } from "@marketplace/api/schemas/order";

/** A commission the platform does not send is none charged; the total already has the discount. */
export type NetAmounts = Pick<OrderAmounts, "currency" | "normalizer" | "total" | "freight"> & {
  comission?: OrderAmounts["comission"] | null;
};

/** Minor units of the order's currency and normalizer: total − commission − sellerFreight = net. */
export interface OrderNet {
  total: number;
  commission: number;
  sellerFreight: number;
  net: number;
  currency: string;
  normalizer: number;
}

/** Rounded up: both deductions go through here, so rounding never makes the net larger than it is. */
function toNormalizer(value: number, from: number, to: number): number {
  const numerator = BigInt(value) * BigInt(to);
  const divisor = BigInt(from);
  const quotient = numerator / divisor;
  const converted = numerator % divisor > 0n ? quotient + 1n : quotient;
  if (converted > BigInt(Number.MAX_SAFE_INTEGER) || converted < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new RangeError(`Amount ${value}/${from} does not fit in normalizer ${to}`);
  }
  return Number(converted);
}

/**
 * Null when a commission or freight is in another currency: no rate is given, and a guessed one
 * would be a made-up figure. sellerFreight is `freight.total − freight.shared` (decision 0012).
 */
export function orderNet(amounts: NetAmounts): OrderNet | null {
  const { currency, normalizer, total, freight, comission } = amounts;
  if (freight.currency !== currency || (comission && comission.currency !== currency)) return null;
  const commission = comission ? toNormalizer(comission.total, comission.normalizer, normalizer) : 0;
  const shopFreight = toNormalizer(Math.max(0, freight.total - freight.shared), freight.normalizer, normalizer);
  return { total, commission, sellerFreight: shopFreight, net: total - commission - shopFreight, currency, normalizer };
}
