import type { useTranslations } from "next-intl";
import type { DisplayFormat } from "@/lib/format";
import { BPS, COST_CURRENCY, COST_NORMALIZER } from "./margin";
import type { GuardReason } from "./price-guard";

export type GuardWords = ReturnType<typeof useTranslations<"prices.guard">>;

/** "+35%", "−40%". */
export function signedPercent(bps: number, format: DisplayFormat): string {
  const text = format.percent(Math.abs(bps) / BPS);
  return bps > 0 ? `+${text}` : bps < 0 ? `\u2212${text}` : text;
}

export function describeGuardReason(reason: GuardReason, t: GuardWords, format: DisplayFormat): string {
  if (reason.code === "belowCost") {
    return t("reasons.belowCost", { cost: format.money({ value: reason.cost, currency: COST_CURRENCY, normalizer: COST_NORMALIZER }) });
  }
  return t("reasons.moveTooLarge", {
    type: reason.type,
    limit: format.percent(reason.limitPercent / 100),
    change: signedPercent(reason.changeBps, format),
  });
}

export function describeGuardReasons(reasons: readonly GuardReason[], t: GuardWords, format: DisplayFormat): string {
  return reasons.map((reason) => describeGuardReason(reason, t, format)).join("; ");
}
