"use client";

import { ShopLink } from "@/components/shop-link";
import { useTranslations } from "next-intl";
import { useActionState } from "react";
import { productLabel } from "@/features/prices/guard/components/held-changes";
import { createPriceAction } from "@/features/prices/actions";
import type { PriceActionState } from "@/features/prices/actions";
import { useShopId } from "@/components/shop-link";
import { useDisplayFormat } from "@/lib/format";
import { describeGuardReasons } from "@/features/prices/guard/guard-words";

interface CurrentPrice {
  sku: string;
  type: string;
  currency: string;
  normalizer: number;
  id: string;
}

/**
 * "Edit price" on a price's page. When the price guard holds the new price (below the product's
 * cost, or a move beyond the shop's limit), nothing is sent: the form names the product and why,
 * and sending it again with "send anyway" checked sends it. Works without JavaScript.
 */
export function EditPriceForm({ current, productName = null }: { current: CurrentPrice; productName?: string | null }) {
  const t = useTranslations("prices.products.editForm");
  const types = useTranslations("prices.products.types");
  const guardWords = useTranslations("prices.guard");
  const format = useDisplayFormat();
  const [state, action, pending] = useActionState<PriceActionState, FormData>(createPriceAction.bind(null, useShopId() ?? ""), {
    status: "idle",
  });
  const values = (state.status === "idle" ? null : state.data?.values) ?? { type: current.type, amount: "", currency: current.currency };
  const errors = state.status === "idle" ? {} : state.fieldErrors;
  const held = state.status === "error" ? (state.data?.held ?? null) : null;

  return (
    <form action={action} className="space-y-4 rounded-lg border border-zinc-200 bg-white p-5" noValidate>
      <h2 className="text-base font-semibold">{t("title")}</h2>
      <p className="text-sm text-zinc-600">{t.rich("help", { sku: () => <span className="font-mono">{current.sku}</span> })}</p>
      <input type="hidden" name="sku" value={current.sku} />
      <input type="hidden" name="normalizer" value={current.normalizer} />
      {/* The key remounts the fields with the submitted values, which React's form reset would otherwise clear. */}
      <div key={state.status === "idle" ? "idle" : String(state.at)} className="grid gap-4 sm:grid-cols-3">
        <label className="flex flex-col gap-1 text-sm">
          {t("type")}
          <select
            name="type"
            defaultValue={values.type}
            className="rounded-md border border-zinc-300 px-2 py-1.5"
            aria-describedby="price-type-error"
          >
            <option value="list">{types("list")}</option>
            <option value="sell">{types("sell")}</option>
          </select>
          <span id="price-type-error" className="text-red-800">
            {errors.type?.[0]}
          </span>
        </label>
        <label className="flex flex-col gap-1 text-sm">
          {t("amount", { currency: current.currency })}
          <input
            name="amount"
            inputMode="decimal"
            placeholder={t("amountPlaceholder")}
            defaultValue={values.amount}
            aria-invalid={!!errors.amount}
            aria-describedby="price-amount-error"
            className="rounded-md border border-zinc-300 px-2 py-1.5 tabular-nums"
          />
          <span id="price-amount-error" className="text-red-800">
            {errors.amount?.[0]}
          </span>
        </label>
        <label className="flex flex-col gap-1 text-sm">
          {t("currency")}
          <input
            name="currency"
            defaultValue={values.currency}
            maxLength={3}
            className="rounded-md border border-zinc-300 px-2 py-1.5 uppercase"
            aria-describedby="price-currency-error"
          />
          <span id="price-currency-error" className="text-red-800">
            {errors.currency?.[0]}
          </span>
        </label>
      </div>
      {held ? (
        <div
          key={String(state.status === "error" ? state.at : "")}
          className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
          data-testid="price-held"
        >
          <p>{describeGuardReasons(held.reasons, guardWords, format)}</p>
          <label className="flex items-start gap-2">
            <input type="checkbox" name="confirm" value={current.sku} className="mt-1" />
            <span className="font-medium">
              {guardWords("confirmProduct", { product: productLabel({ sku: current.sku, name: productName }) })}
            </span>
          </label>
        </div>
      ) : null}
      <div className="flex flex-wrap items-center gap-4">
        <button
          type="submit"
          disabled={pending}
          className="rounded-md bg-brand-700 px-4 py-2 text-sm font-medium text-white hover:bg-brand-900 disabled:opacity-50"
        >
          {pending ? t("saving") : t("submit")}
        </button>
        <p
          role={state.status === "error" ? "alert" : "status"}
          data-testid="price-message"
          className={state.status === "error" ? "text-sm text-red-800" : "text-sm text-brand-700"}
        >
          {state.status === "success" ? (
            <>
              {state.message}.{" "}
              {state.data.priceId !== current.id ? (
                <ShopLink href={`/prices/${state.data.priceId}`} className="underline">
                  {t("openOther", { type: state.data.values.type })}
                </ShopLink>
              ) : null}
            </>
          ) : state.status === "error" ? (
            state.message
          ) : null}
        </p>
      </div>
    </form>
  );
}
