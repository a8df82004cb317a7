"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useEffect, useId, useRef, useState, useTransition } from "react";
import { useShopId } from "@/components/shop-link";
import { useCan } from "@/components/shop-role";
import { idle } from "@/lib/action-state";
import { setCostAction } from "@/features/prices/costs/actions";
import { useDisplayFormat } from "@/lib/format";
import type { CostSource } from "@/features/prices/costs/cost-input";
import { COST_CURRENCY, COST_NORMALIZER } from "@/features/prices/margin";

/** A cost in centavos as money ("R$ 35,00"), or "—" without one. */
export function useCostWords() {
  const format = useDisplayFormat();
  return (cost: number | null | undefined) =>
    cost === null || cost === undefined ? "—" : format.money({ value: cost, currency: COST_CURRENCY, normalizer: COST_NORMALIZER });
}

/**
 * A product's cost, shown as money, with "Edit" turning it into an input in place (Enter saves,
 * Escape cancels; an empty input removes the cost) for those who may change costs. `onSaved` runs
 * after a save (by default the page's server data is read again).
 */
export function CostCell({
  sku,
  cost,
  source,
  onSaved,
}: {
  sku: string;
  cost: number | null | undefined;
  source: CostSource;
  onSaved?: () => void;
}) {
  const t = useTranslations("prices.costs.cell");
  const costWords = useCostWords();
  const format = useDisplayFormat();
  const router = useRouter();
  const shopId = useShopId() ?? "";
  const canChange = useCan("costs.change");
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const input = useRef<HTMLInputElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const label = t("label", { sku });
  const errorId = useId();

  useEffect(() => {
    if (editing) input.current?.focus();
  }, [editing]);

  const close = () => {
    setEditing(false);
    setError(null);
    requestAnimationFrame(() => editButton.current?.focus());
  };

  const save = () => {
    const formData = new FormData();
    formData.set("sku", sku);
    formData.set("cost", input.current?.value ?? "");
    formData.set("source", source);
    startTransition(async () => {
      const answer = await setCostAction(shopId, idle, formData);
      if (answer.status === "success") {
        close();
        if (onSaved) onSaved();
        else router.refresh();
      } else if (answer.status === "error") {
        setError(answer.fieldErrors.cost?.[0] ?? answer.message);
      }
    });
  };

  const shown = (
    <span className="whitespace-nowrap tabular-nums" data-testid="cost">
      {costWords(cost)}
    </span>
  );
  if (!editing && !canChange) return shown;
  if (!editing) {
    return (
      <div className="flex items-center gap-3 md:items-baseline md:gap-2">
        {shown}
        <button
          ref={editButton}
          type="button"
          onClick={() => setEditing(true)}
          className="min-h-11 rounded-md border border-zinc-300 px-3 text-sm font-medium text-brand-700 md:min-h-0 md:border-0 md:px-0 md:text-xs md:font-normal md:hover:underline"
        >
          {cost === null || cost === undefined ? t("set") : t("edit")}
          <span className="sr-only">: {label}</span>
        </button>
      </div>
    );
  }
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
        name="cost"
        inputMode="decimal"
        defaultValue={
          cost === null || cost === undefined
            ? ""
            : format.money({ value: cost, currency: COST_CURRENCY, normalizer: COST_NORMALIZER }).replace(/[^\d.,]/g, "")
        }
        aria-label={label}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        placeholder={t("placeholder")}
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
    </form>
  );
}
