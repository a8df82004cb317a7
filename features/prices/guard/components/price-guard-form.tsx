"use client";

import { useTranslations } from "next-intl";
import { useActionState } from "react";
import { useShopId } from "@/components/shop-link";
import { idle } from "@/lib/action-state";
import { setPriceGuardLimitAction } from "@/features/prices/costs/actions";
import { PRICE_CHANGE_LIMIT_RANGE } from "@/features/prices/guard/price-guard";

/** Settings → prices: how far a list or sell price may move before the price guard asks to confirm it. */
export function PriceGuardForm({ limitPercent }: { limitPercent: number }) {
  const t = useTranslations("settings.prices");
  const [state, action, pending] = useActionState(setPriceGuardLimitAction.bind(null, useShopId() ?? ""), idle);
  const error = state.status === "error" ? (state.fieldErrors.limitPercent?.[0] ?? state.message) : undefined;
  return (
    <form action={action} className="space-y-2" data-testid="price-guard-form">
      <h3 className="font-medium">{t("limitTitle")}</h3>
      <p className="text-sm text-zinc-600">{t("limitHelp")}</p>
      <div className="flex flex-wrap items-end gap-3">
        <label className="text-sm">
          <span className="block text-zinc-700">{t("limitLabel")}</span>
          <span className="mt-1 flex items-center gap-2">
            <input
              name="limitPercent"
              inputMode="numeric"
              defaultValue={limitPercent}
              min={PRICE_CHANGE_LIMIT_RANGE.min}
              max={PRICE_CHANGE_LIMIT_RANGE.max}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "limit-error" : undefined}
              className="min-h-11 w-24 rounded-md border border-zinc-300 px-3 py-2 tabular-nums md:min-h-0"
            />
            <span aria-hidden="true">%</span>
          </span>
        </label>
        <button
          type="submit"
          disabled={pending}
          className="min-h-11 rounded-md bg-brand-700 px-4 py-2 text-sm font-medium text-white hover:bg-brand-900 disabled:opacity-60 md:min-h-0"
        >
          {t("limitSave")}
        </button>
      </div>
      {error ? (
        <p id="limit-error" className="text-sm text-red-800">
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
