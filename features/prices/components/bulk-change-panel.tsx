"use client";

import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { BulkApplyProgress } from "@/features/prices/bulk/components/bulk-apply-progress";
import { dispatchBulkUpload } from "@/features/prices/bulk/components/bulk-upload-store";
import { HeldChanges } from "@/features/prices/guard/components/held-changes";
import type { HeldProduct } from "@/features/prices/guard/components/held-changes";
import { BulkUndoButton } from "@/features/prices/bulk/components/bulk-undo-button";
import { useBulkApply } from "@/features/prices/bulk/components/use-bulk-apply";
import type { BulkPreview, PreviewRow } from "@/features/prices/bulk/bulk-preview-rows";
import { CENTS_ROUNDINGS, isCentsRounding } from "@/features/prices/bulk/price-rounding";
import type { CentsRounding } from "@/features/prices/bulk/price-rounding";
import { undoPlanOf } from "@/features/prices/bulk/bulk-undo";
import { guardPlan, planBulkChange } from "@/features/prices/price-products";
import type { BulkChange, BulkTarget, PlannedChange, PriceProduct } from "@/features/prices/price-products";
import { BulkChangeTable, lineOf } from "./bulk-change-table";

// A change of several products at once, previewed old → new before anything is sent, then applied
// through the bulk upload's engine (bulk-upload-store.ts); once applied, it can be undone the same way.

/** The run this page started in this tab, kept with the module so it is found again on return. */
let productRun: { preview: BulkPreview; planned: PlannedChange[] } | null = null;

/** An undo being previewed: the run it undoes, and the names of its products. */
interface UndoPlan {
  of: string;
  names: Record<string, string>;
}

export function BulkChangePanel({
  products,
  shopId: shop,
  limitPercent,
  rateBps = null,
}: {
  products: PriceProduct[];
  shopId: string;
  limitPercent: number;
  /** The commission rate margins use, for the margin a held change leaves. */
  rateBps?: number | null;
}) {
  const t = useTranslations("prices.products.bulk");
  const locale = useLocale();
  const router = useRouter();
  const { state, start, sendNow } = useBulkApply(shop);
  const [target, setTarget] = useState<BulkTarget>("sell");
  const [mode, setMode] = useState<BulkChange["mode"]>("percent");
  const [rounding, setRounding] = useState<CentsRounding>("exact");
  const [planned, setPlanned] = useState<PlannedChange[] | null>(null);
  const [undo, setUndo] = useState<UndoPlan | null>(null);
  /** Products whose held changes the seller confirmed in this preview. */
  const [confirmed, setConfirmed] = useState<ReadonlySet<string>>(new Set());
  const [run, setRun] = useState(productRun);

  const upload = state.upload;
  const ours = run && upload?.preview === run.preview ? upload : null;
  const otherRunning = !ours && upload?.phase.name === "applying";
  const phase = ours?.phase.name;

  // The prices shown are the platform's: read them again once the run ends.
  const finished = phase === "done";
  useEffect(() => {
    if (finished) router.refresh();
  }, [finished, router]);

  if (products.length === 0 && !ours && !undo) {
    return <p className="text-sm text-zinc-600">{t("selectHint")}</p>;
  }

  const preview = (form: HTMLFormElement) => {
    const text = String(new FormData(form).get("change") ?? "");
    const change: BulkChange = mode === "percent" ? { mode, percent: text, target, rounding } : { mode, amount: text, target, rounding };
    setPlanned(guardPlan(products, planBulkChange(products, change, locale), limitPercent, rateBps));
    setConfirmed(new Set());
  };

  /** The run shown ends, and the panel is ready for a new change. */
  const reset = () => {
    productRun = null;
    setRun(null);
    setPlanned(null);
    setUndo(null);
    setConfirmed(new Set());
  };

  /** The server's preview of undoing the run just shown: sent only once the seller applies it. */
  const previewUndo = (of: string, undoPreview: BulkPreview) => {
    productRun = null;
    setRun(null);
    setConfirmed(new Set());
    setUndo({ of, names: undoPreview.names });
    setPlanned(undoPlanOf(undoPreview));
  };

  const sends = (row: PlannedChange) => (row.kind === "changed" || row.kind === "new") && (!row.held?.length || confirmed.has(row.sku));

  const apply = () => {
    if (!planned) return;
    // The rows to send, as the bulk engine's preview rows.
    // Held changes of products not confirmed are not sent at all (lines keep the plan's numbering).
    const sent = planned.flatMap((row, index): PreviewRow[] => {
      if ((row.kind !== "changed" && row.kind !== "new") || !sends(row)) return [];
      const base = {
        line: lineOf(index),
        sku: row.sku,
        type: row.type,
        amount: row.amount,
        value: row.value,
        currency: row.currency,
        normalizer: row.normalizer,
        ...(row.held?.length ? { held: row.held } : {}),
      };
      if (row.kind === "new") return [{ ...base, kind: "new", current: null }];
      const { id, value, currency, normalizer } = row.current;
      return [{ ...base, kind: "changed", current: { id, value, currency, normalizer } }];
    });
    const counts = {
      changed: sent.filter((row) => row.kind === "changed").length,
      new: sent.filter((row) => row.kind === "new").length,
      unchanged: 0,
      invalid: 0,
    };
    const names = {
      ...Object.fromEntries(products.flatMap((product) => (product.name ? [[product.sku, product.name]] : []))),
      ...undo?.names,
    };
    const bulkPreview: BulkPreview = {
      rows: sent,
      counts,
      names,
      complete: true,
      pricesSeen: planned.length,
      confirmed: [...confirmed],
      // Chosen here, so that the finished run can be undone by its id.
      runId: crypto.randomUUID(),
      ...(undo ? { source: "undo", undoOf: undo.of } : { source: "percent" }),
    };
    productRun = { preview: bulkPreview, planned };
    setRun(productRun);
    dispatchBulkUpload({ type: "preview_loaded", preview: bulkPreview });
    start();
  };

  const shown = ours && run ? run.planned : planned;
  // While a run or an undo is shown the products may have left the page: its own names are used.
  const nameOf = (sku: string) =>
    (ours && run ? run.preview.names[sku] : (undo?.names[sku] ?? products.find((product) => product.sku === sku)?.name)) ?? null;
  const shownUndo = ours && run ? run.preview.source === "undo" : undo !== null;
  const runId = ours && run ? run.preview.runId : undefined;
  const sendable = planned?.filter(sends).length ?? 0;
  // Each held product once, with every reason of its held changes.
  const heldProducts: HeldProduct[] = [];
  for (const row of planned ?? []) {
    if (row.kind === "invalid" || !row.held?.length) continue;
    const known = heldProducts.find((product) => product.sku === row.sku);
    if (known) known.reasons.push(...row.held);
    else heldProducts.push({ sku: row.sku, name: nameOf(row.sku), reasons: [...row.held] });
  }
  const confirm = (sku: string, checked: boolean) =>
    setConfirmed((previous) => {
      const next = new Set(previous);
      if (checked) next.add(sku);
      else next.delete(sku);
      return next;
    });
  const control = "min-h-11 rounded-md border border-zinc-300 bg-white px-2 py-1 md:min-h-0";

  return (
    <section
      id="bulk-change"
      aria-labelledby="bulk-change-title"
      className="scroll-mt-4 space-y-4 rounded-lg border border-zinc-200 bg-white p-4 text-sm"
    >
      <h2 id="bulk-change-title" className="text-base font-semibold">
        {shownUndo ? t("undoTitle") : t("title", { count: products.length })}
      </h2>
      {shownUndo ? <p className="text-zinc-700">{t("undoHelp")}</p> : null}
      {!ours && !undo ? (
        <form
          className="grid gap-3 md:flex md:flex-wrap md:items-end"
          onChange={() => setPlanned(null)}
          onSubmit={(event) => {
            event.preventDefault();
            preview(event.currentTarget);
          }}
        >
          <label className="flex flex-col gap-1">
            {t("target")}
            <select value={target} onChange={(event) => setTarget(event.target.value as BulkTarget)} className={control}>
              <option value="sell">{t("targets.sell")}</option>
              <option value="list">{t("targets.list")}</option>
              <option value="both">{t("targets.both")}</option>
            </select>
          </label>
          <fieldset className="flex flex-col gap-1">
            <legend className="mb-1">{t("mode")}</legend>
            <div className="flex flex-wrap gap-x-4">
              <label className="flex min-h-11 items-center gap-2 md:min-h-0 md:gap-1">
                <input type="radio" name="mode" checked={mode === "percent"} onChange={() => setMode("percent")} />
                {t("modes.percent")}
              </label>
              <label className="flex min-h-11 items-center gap-2 md:min-h-0 md:gap-1">
                <input type="radio" name="mode" checked={mode === "value"} onChange={() => setMode("value")} />
                {t("modes.value")}
              </label>
            </div>
          </fieldset>
          <label className="flex flex-col gap-1">
            {mode === "percent" ? t("percent") : t("amount")}
            {/* A percentage is typed on the full keyboard: iOS's decimal keypad has no minus sign. */}
            <input
              name="change"
              required
              inputMode={mode === "percent" ? "text" : "decimal"}
              placeholder={mode === "percent" ? "-10" : t("amountPlaceholder")}
              className={`${control} tabular-nums md:w-32`}
            />
          </label>
          <label className="flex flex-col gap-1">
            {t("rounding")}
            <select
              value={rounding}
              onChange={(event) => isCentsRounding(event.target.value) && setRounding(event.target.value)}
              className={control}
            >
              {CENTS_ROUNDINGS.map((choice) => (
                <option key={choice} value={choice}>
                  {t(`roundings.${choice}`)}
                </option>
              ))}
            </select>
          </label>
          <button
            type="submit"
            className="min-h-11 rounded-md border border-zinc-300 bg-white px-3 py-1.5 font-medium hover:bg-zinc-50 md:min-h-0"
          >
            {t("preview")}
          </button>
        </form>
      ) : null}

      {shown ? (
        <>
          <BulkChangeTable
            rows={shown}
            results={ours ? ours.results : null}
            nameOf={nameOf}
            sentConfirmed={ours && run ? (run.preview.confirmed ?? []) : []}
            undo={shownUndo}
          />
          {!ours ? <HeldChanges products={heldProducts} confirmed={confirmed} onChange={confirm} /> : null}
          {!ours ? (
            <div className="flex flex-wrap items-center gap-3">
              <button
                type="button"
                onClick={apply}
                disabled={sendable === 0 || otherRunning}
                className="min-h-11 w-full rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-900 disabled:opacity-50 md:w-auto"
              >
                {undo ? t("undoApply", { count: sendable }) : t("apply", { count: sendable })}
              </button>
              {undo ? (
                <button
                  type="button"
                  onClick={reset}
                  className="min-h-11 w-full rounded-md border border-zinc-300 bg-white px-4 py-2 font-medium hover:bg-zinc-50 md:w-auto"
                >
                  {t("undoCancel")}
                </button>
              ) : null}
              {otherRunning ? <p className="text-amber-900">{t("otherRunning")}</p> : null}
            </div>
          ) : null}
        </>
      ) : null}

      {ours && phase ? (
        <>
          {phase !== "preview" ? <BulkApplyProgress upload={ours} onSendNow={sendNow} /> : null}
          {phase === "paused" ? (
            <button
              type="button"
              onClick={start}
              className="min-h-11 rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-900"
            >
              {t("resume")}
            </button>
          ) : null}
          {phase === "done" ? (
            <div className="flex flex-wrap items-start gap-3">
              <button
                type="button"
                onClick={reset}
                className="min-h-11 rounded-md border border-zinc-300 bg-white px-4 py-2 font-medium hover:bg-zinc-50"
              >
                {t("newChange")}
              </button>
              {/* An undo is not undone in turn: a new change does that. */}
              {!shownUndo && runId && [...ours.results.values()].some((result) => result.outcome === "applied") ? (
                <BulkUndoButton shopId={shop} runId={runId} onPreview={(undoPreview) => previewUndo(runId, undoPreview)} />
              ) : null}
            </div>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
