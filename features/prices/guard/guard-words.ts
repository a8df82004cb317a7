import type { useTranslations } from "next-intl";
import type { DisplayFormat } from "@/lib/format";
import { BPS, COST_CURRENCY, COST_NORMALIZER } from "../margin";
import type { GuardReason } from "./price-guard";

export type GuardWords = ReturnType<typeof useTranslations<"prices.guard">>;

/** "+35%", "−40%". */
export function signedPercent(bps: number, format: DisplayFormat): string {
  const text = format.percent(Math.abs(bps) / BPS);
  return bps > 0 ? `+${text}` : bps < 0 ? `\u2212${text}` : text;
}

/** "real brasileiro (BRL)": the name a seller knows, with the code beside it. */
function currencyWords(code: string, format: DisplayFormat): string {
  const name = new Intl.DisplayNames([format.locale], { type: "currency", fallback: "none" }).of(code);
  return name ? `${name} (${code})` : code;
}

export function describeGuardReason(reason: GuardReason, t: GuardWords, format: DisplayFormat): string {
  if (reason.code === "currencyChange") {
    return t("reasons.currencyChange", {
      type: reason.type,
      from: currencyWords(reason.from, format),
      to: currencyWords(reason.to, format),
    });
  }
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
