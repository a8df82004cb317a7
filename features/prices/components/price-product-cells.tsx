"use client";

import { useShopId } from "@/components/shop-link";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useEffect, useId, useRef, useState, useTransition } from "react";
import { setProductPriceAction } from "@/features/prices/actions";
import { useDisplayFormat } from "@/lib/format";
import type { PriceType } from "@marketplace/api/schemas/price";
import { describeGuardReasons, signedPercent } from "@/features/prices/guard/guard-words";
import { COST_CURRENCY, COST_NORMALIZER, marginOf } from "@/features/prices/margin";
import type { HeldChange } from "@/features/prices/guard/price-guard";
import type { PriceProduct } from "@/features/prices/price-products";
import { useCan } from "@/components/shop-role";

// A product's price cell (edited in place, a change past the guard held for confirmation) and its margin.

export function MarginCell({ product, rateBps }: { product: PriceProduct; rateBps: number | null }) {
  const t = useTranslations("prices.products");
  const format = useDisplayFormat();
  const margin = marginOf(product.sell, product.cost, rateBps);
  if (!margin) {
    return (
      <span className="text-zinc-600" data-testid="margin">
        —
      </span>
    );
  }
  const money = format.money({ value: margin.amount, currency: COST_CURRENCY, normalizer: COST_NORMALIZER });
  const percent = margin.percentBps === null ? null : signedPercent(margin.percentBps, format);
  return (
    <span
      className={`whitespace-nowrap tabular-nums ${margin.amount < 0 ? "font-medium text-red-800" : ""}`}
      data-testid="margin"
      title={t("marginTitle", {
        commission: format.money({ value: margin.commission, currency: COST_CURRENCY, normalizer: COST_NORMALIZER }),
      })}
    >
      {percent === null ? money : t("marginValue", { money, percent })}
    </span>
  );
}

/** A price shown as money, with "Edit" turning it into an input in place (Enter saves, Escape cancels). */
export function PriceCell({ product, type }: { product: PriceProduct; type: PriceType }) {
  const t = useTranslations("prices.products");
  const format = useDisplayFormat();
  const router = useRouter();
  const price = product[type];
  const model = price ?? product.list ?? product.sell;
  const guardWords = useTranslations("prices.guard");
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** The change the price guard held: shown with its reasons until the seller sends it anyway or edits it. */
  const [held, setHeld] = useState<HeldChange | null>(null);
  const [pending, startTransition] = useTransition();
  const input = useRef<HTMLInputElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const label = t(type === "list" ? "editList" : "editSell", { sku: product.sku });
  const heldId = useId();
  const shopId = useShopId() ?? "";
  const canChange = useCan("prices.change");

  useEffect(() => {
    if (editing) input.current?.focus();
  }, [editing]);

  const close = () => {
    setEditing(false);
    setError(null);
    setHeld(null);
    // Back to where the seller was: keyboard users continue from the cell they edited.
    requestAnimationFrame(() => editButton.current?.focus());
  };

  /** Sends the typed amount; `confirm`: the seller confirmed the change the guard held. */
  const save = (confirm = false) => {
    const amount = input.current?.value ?? "";
    startTransition(async () => {
      const answer = await setProductPriceAction(shopId, {
        sku: product.sku,
        type,
        amount,
        currency: model?.currency ?? "BRL",
        normalizer: model?.normalizer ?? 100,
        ...(confirm ? { confirm: product.sku } : {}),
      });
      if (answer.status === "success") {
        close();
        router.refresh();
      } else if (answer.data?.held) {
        setError(null);
        setHeld(answer.data.held);
      } else {
        setHeld(null);
        setError(answer.fieldErrors.amount?.[0] ?? answer.message);
      }
    });
  };

  if (!editing && !canChange) {
    return (
      <span className="whitespace-nowrap tabular-nums" data-testid={`${type}-price`}>
        {price ? format.money(price) : "—"}
      </span>
    );
  }
  if (!editing) {
    return (
      <div className="flex items-center gap-3 md:items-baseline md:gap-2">
        <span className="whitespace-nowrap tabular-nums" data-testid={`${type}-price`}>
          {price ? format.money(price) : "—"}
        </span>
        <button
          ref={editButton}
          type="button"
          onClick={() => setEditing(true)}
          className="min-h-11 rounded-md border border-zinc-300 px-3 text-sm font-medium text-brand-700 md:min-h-0 md:border-0 md:px-0 md:text-xs md:font-normal md:hover:underline"
        >
          {/* Named by its visible word first, so a voice-control user who says it reaches it. */}
          {price ? t("edit") : t("set")}
          <span className="sr-only">: {label}</span>
        </button>
      </div>
    );
  }
  const errorId = `${type}-${product.sku}-error`;
  return (
    <form
      className="flex w-full flex-wrap items-center gap-2 md:w-auto md:gap-1"
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
      onKeyDown={(event) => {
        if (event.key === "Escape") close();
      }}
    >
      <input
        ref={input}
        name="amount"
        inputMode="decimal"
        defaultValue={price ? format.money(price).replace(/[^\d.,]/g, "") : ""}
        aria-label={label}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : held ? heldId : undefined}
        onChange={() => setHeld(null)}
        className="min-h-11 w-28 min-w-0 flex-1 rounded-md border border-zinc-300 px-2 py-1 tabular-nums md:min-h-0 md:flex-none"
      />
      <button
        type="submit"
        disabled={pending}
        className="min-h-11 rounded-md bg-brand-700 px-3 py-1 text-sm font-medium text-white disabled:opacity-50 md:min-h-0 md:px-2 md:text-xs"
      >
        {pending ? t("saving") : t("save")}
      </button>
      <button
        type="button"
        onClick={close}
        className="min-h-11 rounded-md border border-zinc-300 px-3 py-1 text-sm md:min-h-0 md:px-2 md:text-xs"
      >
        {t("cancel")}
      </button>
      {error ? (
        <p id={errorId} role="alert" className="w-full text-xs text-red-800">
          {error}
        </p>
      ) : null}
      {held ? (
        // Nothing was sent: the seller reads why, for this product, and sends it anyway or not.
        <div
          className="w-full space-y-1 rounded-md border border-amber-300 bg-amber-50 p-2 text-xs text-amber-950"
          data-testid="price-held"
        >
          <p id={heldId} role="alert">
            {guardWords("heldInPlace", {
              product: product.name ? `${product.sku} · ${product.name}` : product.sku,
              reasons: describeGuardReasons(held.reasons, guardWords, format),
            })}
          </p>
          <button
            type="button"
            disabled={pending}
            onClick={() => save(true)}
            className="min-h-11 rounded-md border border-amber-400 bg-white px-3 py-1 font-medium hover:bg-amber-100 disabled:opacity-50 md:min-h-0 md:px-2"
          >
            {guardWords("sendAnyway")}
            <span className="sr-only">: {label}</span>
          </button>
        </div>
      ) : null}
    </form>
  );
}

/**
 * The selected products' change: by a percentage or to a value, previewed (with the changes the
 * price guard holds named, each product confirmed on its own), then applied.
 */
