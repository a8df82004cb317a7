"use client";

import { useTranslations } from "next-intl";
import { useActionState } from "react";
import { useShopId } from "@/components/shop-link";
import { idle } from "@/lib/action-state";
import { setCommissionRateAction } from "@/features/prices/costs/actions";
import { useDisplayFormat } from "@/lib/format";
import { BPS } from "@/features/prices/margin";

/**
 * Settings → prices: the marketplace's commission rate margins are computed with, learned from the
 * shop's latest orders (total commission ÷ total sales, learnedCommissionRate) or set by hand.
 */
export function CommissionRateForm({
  manualBps,
  learned,
}: {
  manualBps: number | null;
  learned: { rateBps: number; orders: number } | null;
}) {
  const t = useTranslations("settings.prices");
  const format = useDisplayFormat();
  const [state, action, pending] = useActionState(setCommissionRateAction.bind(null, useShopId() ?? ""), idle);
  const error = state.status === "error" ? (state.fieldErrors.rate?.[0] ?? state.message) : undefined;
  // The rate as the seller types it back: "12,5" in pt-BR.
  const typed =
    manualBps === null
      ? ""
      : new Intl.NumberFormat(format.locale, { maximumFractionDigits: 2, useGrouping: false }).format(manualBps / 100);
  return (
    <form action={action} className="space-y-2" data-testid="commission-form">
      <fieldset className="space-y-2">
        <legend className="font-medium">{t("commissionTitle")}</legend>
        <p className="text-sm text-zinc-600">{t("commissionHelp")}</p>
        <label className="flex min-h-11 items-center gap-2 text-sm md:min-h-0">
          <input type="radio" name="mode" value="learned" defaultChecked={manualBps === null} />
          <span data-testid="learned-rate">
            {learned ? t("learnedOption", { rate: format.percent(learned.rateBps / BPS), orders: learned.orders }) : t("learnedNone")}
          </span>
        </label>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <label className="flex min-h-11 items-center gap-2 md:min-h-0">
            <input type="radio" name="mode" value="manual" defaultChecked={manualBps !== null} />
            {t("manualOption")}
          </label>
          <label className="flex items-center gap-2">
            <span className="sr-only">{t("rateLabel")}</span>
            <input
              name="rate"
              inputMode="decimal"
              defaultValue={typed}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "rate-error" : undefined}
              className="min-h-11 w-24 rounded-md border border-zinc-300 px-3 py-2 tabular-nums md:min-h-0"
            />
            <span aria-hidden="true">%</span>
          </label>
        </div>
      </fieldset>
      <button
        type="submit"
        disabled={pending}
        className="min-h-11 rounded-md bg-brand-700 px-4 py-2 text-sm font-medium text-white hover:bg-brand-900 disabled:opacity-60 md:min-h-0"
      >
        {t("commissionSave")}
      </button>
      {error ? (
        <p id="rate-error" className="text-sm text-red-800">
          {error}
        </p>
      ) : null}
      {state.status === "success" ? (
        <p role="status" className="text-sm text-green-800">
          {state.message}
        </p>
      ) : null}
    </form>
  );
}
