import type { useTranslations } from "next-intl";
import type { DisplayFormat } from "@/lib/format";
import { BPS, COST_CURRENCY, COST_NORMALIZER } from "../margin";
import type { GuardReason, MarginLeft } from "./price-guard";

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

/** "leaves a 4.2% margin (R$2.10 a sale)"; a loss reads with its minus sign. */
export function describeMarginLeft(margin: MarginLeft, t: GuardWords, format: DisplayFormat): string {
  const percent = margin.percentBps < 0 ? signedPercent(margin.percentBps, format) : format.percent(margin.percentBps / BPS);
  const amount = format.money({ value: margin.amount, currency: COST_CURRENCY, normalizer: COST_NORMALIZER });
  return t("marginLeft", { percent, amount });
}

/** The reasons, then once the margin the new sell price leaves, when its product has a cost. */
export function describeGuardReasons(reasons: readonly GuardReason[], t: GuardWords, format: DisplayFormat): string {
  const words = reasons.map((reason) => describeGuardReason(reason, t, format));
  const margin = reasons.find((reason) => reason.margin)?.margin;
  if (margin) words.push(describeMarginLeft(margin, t, format));
  return words.join("; ");
}
