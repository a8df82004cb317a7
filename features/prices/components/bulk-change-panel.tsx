"use client";

import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { BulkApplyProgress } from "@/features/prices/bulk/components/bulk-apply-progress";
import { dispatchBulkUpload } from "@/features/prices/bulk/components/bulk-upload-store";
import { HeldChanges } from "@/features/prices/guard/components/held-changes";
import type { HeldProduct } from "@/features/prices/guard/components/held-changes";
import { cardTable } from "@/components/ui/card-table";
import { useBulkApply } from "@/features/prices/bulk/components/use-bulk-apply";
import { useDisplayFormat } from "@/lib/format";
import type { BulkPreview, PreviewRow } from "@/features/prices/bulk/bulk-preview-rows";
import { describeGuardReasons } from "@/features/prices/guard/guard-words";
import { guardPlan, planBulkChange } from "@/features/prices/price-products";
import type { BulkChange, BulkTarget, PlannedChange, PriceProduct } from "@/features/prices/price-products";

// A change of several products at once, previewed old → new before anything is sent, then applied
// through the bulk upload's engine (bulk-upload-store.ts).

/** A planned change's line in the bulk engine (lines start at 2, after a CSV's header). */
const lineOf = (index: number) => index + 2;

/** The run this page started in this tab, kept with the module so it is found again on return. */
let productRun: { preview: BulkPreview; planned: PlannedChange[] } | null = null;

export function BulkChangePanel({
  products,
  shopId: shop,
  limitPercent,
}: {
  products: PriceProduct[];
  shopId: string;
  limitPercent: number;
}) {
  const t = useTranslations("prices.products.bulk");
  const guardWords = useTranslations("prices.guard");
  const locale = useLocale();
  const format = useDisplayFormat();
  const router = useRouter();
  const { state, start, sendNow } = useBulkApply(shop);
  const [target, setTarget] = useState<BulkTarget>("sell");
  const [mode, setMode] = useState<BulkChange["mode"]>("percent");
  const [planned, setPlanned] = useState<PlannedChange[] | null>(null);
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

  if (products.length === 0 && !ours) {
    return <p className="text-sm text-zinc-600">{t("selectHint")}</p>;
  }

  const preview = (form: HTMLFormElement) => {
    const text = String(new FormData(form).get("change") ?? "");
    const change: BulkChange = mode === "percent" ? { mode, percent: text, target } : { mode, amount: text, target };
    setPlanned(guardPlan(products, planBulkChange(products, change, locale), limitPercent));
    setConfirmed(new Set());
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
    const names = Object.fromEntries(products.flatMap((product) => (product.name ? [[product.sku, product.name]] : [])));
    const bulkPreview: BulkPreview = {
      rows: sent,
      counts,
      names,
      complete: true,
      pricesSeen: planned.length,
      source: "percent",
      confirmed: [...confirmed],
    };
    productRun = { preview: bulkPreview, planned };
    setRun(productRun);
    dispatchBulkUpload({ type: "preview_loaded", preview: bulkPreview });
    start();
  };

  const shown = ours && run ? run.planned : planned;
  // While a run is shown the products may have left the page: its own names are used.
  const nameOf = (sku: string) => (ours && run ? run.preview.names[sku] : products.find((product) => product.sku === sku)?.name) ?? null;
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
        {t("title", { count: products.length })}
      </h2>
      {!ours ? (
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
          <div className={cardTable.frame}>
            <table className={cardTable.table} data-testid="bulk-change-preview">
              <caption className="sr-only">{t("previewCaption")}</caption>
              <thead className={cardTable.head}>
                <tr>
                  {(["sku", "product", "price", "now", "new", "outcome"] as const).map((column) => (
                    <th key={column} scope="col" className={cardTable.headCell}>
                      {t(`columns.${column}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className={cardTable.body}>
                {shown.map((row, index) => {
                  const result = ours?.results.get(lineOf(index));
                  const name = nameOf(row.sku);
                  return (
                    <tr key={`${row.sku}:${row.type}`} className={cardTable.row}>
                      <td className={`${cardTable.cell} ${cardTable.pad} font-mono text-xs wrap-anywhere`}>{row.sku}</td>
                      <th scope="row" className={`${cardTable.cell} ${cardTable.pad} text-left font-medium md:font-normal`}>
                        {name ?? <span className="text-zinc-600">—</span>}
                      </th>
                      <td className={`${cardTable.labelled} ${cardTable.pad}`} data-label={t("columns.price")}>
                        {t(`targets.${row.type}`)}
                      </td>
                      <td className={`${cardTable.labelled} ${cardTable.pad} tabular-nums`} data-label={t("columns.now")}>
                        {row.current ? format.money(row.current) : "—"}
                      </td>
                      <td className={`${cardTable.labelled} ${cardTable.pad} tabular-nums`} data-label={t("columns.new")}>
                        {row.kind === "invalid" ? "—" : format.money(row)}
                      </td>
                      <td
                        className={`${cardTable.labelled} ${cardTable.pad}`}
                        data-label={t("columns.outcome")}
                        data-testid="bulk-change-outcome"
                      >
                        {result ? (
                          <span
                            className={
                              result.outcome === "applied"
                                ? "text-green-800"
                                : result.outcome === "held"
                                  ? "text-amber-900"
                                  : "text-red-800"
                            }
                          >
                            {t(`outcomes.${result.outcome}`)}
                            {result.outcome !== "applied" ? `: ${result.message}` : null}
                          </span>
                        ) : row.kind === "invalid" ? (
                          <span className="text-red-800">{t(`problems.${row.problem}`)}</span>
                        ) : row.held?.length && !(ours && run?.preview.confirmed?.includes(row.sku)) ? (
                          <span className="text-amber-900" data-testid="held-reasons">
                            {ours
                              ? t("heldNotSent")
                              : guardWords("heldBecause", { reasons: describeGuardReasons(row.held, guardWords, format) })}
                          </span>
                        ) : (
                          t(`kinds.${row.kind}`)
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          {!ours ? <HeldChanges products={heldProducts} confirmed={confirmed} onChange={confirm} /> : null}
          {!ours ? (
            <div className="flex flex-wrap items-center gap-3">
              <button
                type="button"
                onClick={apply}
                disabled={sendable === 0 || otherRunning}
                className="min-h-11 w-full rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-900 disabled:opacity-50 md:w-auto"
              >
                {t("apply", { count: sendable })}
              </button>
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
            <button
              type="button"
              onClick={() => {
                productRun = null;
                setRun(null);
                setPlanned(null);
                setConfirmed(new Set());
              }}
              className="min-h-11 rounded-md border border-zinc-300 bg-white px-4 py-2 font-medium hover:bg-zinc-50"
            >
              {t("newChange")}
            </button>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
