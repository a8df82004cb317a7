"use client";

import { createColumnHelper } from "@tanstack/react-table";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { useEffect, useMemo, useRef, useState, useTransition } from "react";
import { BulkApplyProgress } from "@/components/prices/bulk-apply-progress";
import { dispatchBulkUpload } from "@/components/prices/bulk-upload-store";
import { useBulkApply } from "@/components/prices/use-bulk-apply";
import { DataTable } from "@/components/ui/data-table";
import { setProductPriceAction } from "@/lib/actions/prices";
import { useDisplayFormat } from "@/lib/format";
import type { PriceType } from "@/lib/marketplace/schemas/price";
import type { BulkPreview, PreviewRow } from "@/lib/prices/bulk-preview-rows";
import { discountOf, planBulkChange } from "@/lib/prices/price-products";
import type { BulkChange, BulkTarget, PlannedChange, PriceProduct } from "@/lib/prices/price-products";

// The prices-by-product table: "de" and "por" side by side with the discount, each editable in
// place, and a change of several products at once, previewed old → new before anything is sent,
// then applied through the bulk upload's engine (components/prices/bulk-upload-store.ts: the same
// batches, rate-limit waits and per-row outcomes as a CSV upload; the run goes on if the seller
// opens another page, and this page shows it again).

const column = createColumnHelper<PriceProduct>();

/** A planned change's line in the bulk engine (lines start at 2, after a CSV's header). */
const lineOf = (index: number) => index + 2;

/** The run this page started in this tab, kept with the module so it is found again on return. */
let productRun: { preview: BulkPreview; planned: PlannedChange[] } | null = null;

export function PriceProductsTable({ rows, seller }: { rows: PriceProduct[]; seller: string }) {
  const t = useTranslations("prices.products");
  const format = useDisplayFormat();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const allSelected = rows.length > 0 && rows.every((row) => selected.has(row.sku));

  const columns = useMemo(
    () => [
      column.display({
        id: "select",
        header: () => (
          <input
            type="checkbox"
            aria-label={t("selectAll")}
            checked={allSelected}
            onChange={(event) => setSelected(event.target.checked ? new Set(rows.map((row) => row.sku)) : new Set())}
          />
        ),
        cell: (info) => {
          const sku = info.row.original.sku;
          return (
            <input
              type="checkbox"
              aria-label={t("select", { sku })}
              checked={selected.has(sku)}
              onChange={(event) =>
                setSelected((previous) => {
                  const next = new Set(previous);
                  if (event.target.checked) next.add(sku);
                  else next.delete(sku);
                  return next;
                })
              }
            />
          );
        },
      }),
      column.accessor("sku", { header: t("columns.sku"), cell: (info) => <span className="font-mono text-xs">{info.getValue()}</span> }),
      column.display({ id: "list", header: t("columns.list"), cell: (info) => <PriceCell product={info.row.original} type="list" /> }),
      column.display({ id: "sell", header: t("columns.sell"), cell: (info) => <PriceCell product={info.row.original} type="sell" /> }),
      column.display({
        id: "discount",
        header: t("columns.discount"),
        cell: (info) => {
          const discount = discountOf(info.row.original);
          return <span className="tabular-nums" data-testid="discount">{discount === null ? "—" : format.percent(-discount)}</span>;
        },
      }),
      column.display({
        id: "history",
        header: () => <span className="sr-only">{t("columns.history")}</span>,
        cell: (info) => {
          const id = info.row.original.sell?.id ?? info.row.original.list?.id;
          return id ? (
            <Link href={`/prices/${id}`} className="text-brand-700 hover:underline" aria-label={t("historyOf", { sku: info.row.original.sku })}>
              {t("history")}
            </Link>
          ) : null;
        },
      }),
    ],
    [allSelected, format, rows, selected, t],
  );

  const chosen = rows.filter((row) => selected.has(row.sku));
  return (
    <div className="space-y-4">
      <DataTable rows={rows} columns={columns} getRowId={(row) => row.sku} isPending={false} isFetching={false} empty={t("empty")} caption={t("caption")} />
      <BulkChangePanel products={chosen} seller={seller} />
    </div>
  );
}

/** A price shown as money, with "Edit" turning it into an input in place (Enter saves, Escape cancels). */
function PriceCell({ product, type }: { product: PriceProduct; type: PriceType }) {
  const t = useTranslations("prices.products");
  const format = useDisplayFormat();
  const router = useRouter();
  const price = product[type];
  const model = price ?? product.list ?? product.sell;
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const input = useRef<HTMLInputElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const label = t(type === "list" ? "editList" : "editSell", { sku: product.sku });

  useEffect(() => {
    if (editing) input.current?.focus();
  }, [editing]);

  const close = () => {
    setEditing(false);
    setError(null);
    // Back to where the seller was: keyboard users continue from the cell they edited.
    requestAnimationFrame(() => editButton.current?.focus());
  };

  const save = () => {
    const amount = input.current?.value ?? "";
    startTransition(async () => {
      const answer = await setProductPriceAction({ sku: product.sku, type, amount, currency: model?.currency ?? "BRL", normalizer: model?.normalizer ?? 100 });
      if (answer.status === "success") {
        close();
        router.refresh();
      } else {
        setError(answer.fieldErrors.amount?.[0] ?? answer.message);
      }
    });
  };

  if (!editing) {
    return (
      <div className="flex items-baseline gap-2">
        <span className="tabular-nums" data-testid={`${type}-price`}>
          {price ? format.money(price) : "—"}
        </span>
        <button ref={editButton} type="button" onClick={() => setEditing(true)} aria-label={label} className="text-xs text-brand-700 hover:underline">
          {price ? t("edit") : t("set")}
        </button>
      </div>
    );
  }
  const errorId = `${type}-${product.sku}-error`;
  return (
    <form
      className="flex flex-wrap items-center gap-1"
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
        aria-describedby={error ? errorId : undefined}
        className="w-28 rounded-md border border-zinc-300 px-2 py-1 tabular-nums"
      />
      <button type="submit" disabled={pending} className="rounded-md bg-brand-700 px-2 py-1 text-xs font-medium text-white disabled:opacity-50">
        {pending ? t("saving") : t("save")}
      </button>
      <button type="button" onClick={close} className="rounded-md border border-zinc-300 px-2 py-1 text-xs">
        {t("cancel")}
      </button>
      {error ? (
        <p id={errorId} role="alert" className="w-full text-xs text-red-700">
          {error}
        </p>
      ) : null}
    </form>
  );
}

/** The selected products' change: by a percentage or to a value, previewed, then applied. */
function BulkChangePanel({ products, seller }: { products: PriceProduct[]; seller: string }) {
  const t = useTranslations("prices.products.bulk");
  const locale = useLocale();
  const format = useDisplayFormat();
  const router = useRouter();
  const { state, start, sendNow } = useBulkApply(seller);
  const [target, setTarget] = useState<BulkTarget>("sell");
  const [mode, setMode] = useState<BulkChange["mode"]>("percent");
  const [planned, setPlanned] = useState<PlannedChange[] | null>(null);
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
    setPlanned(planBulkChange(products, change, locale));
  };

  const apply = () => {
    if (!planned) return;
    // The rows to send, as the bulk engine's preview rows.
    const sent = planned.flatMap((row, index): PreviewRow[] => {
      if (row.kind !== "changed" && row.kind !== "new") return [];
      const base = { line: lineOf(index), sku: row.sku, type: row.type, amount: row.amount, value: row.value, currency: row.currency, normalizer: row.normalizer };
      if (row.kind === "new") return [{ ...base, kind: "new", current: null }];
      const { id, value, currency, normalizer } = row.current;
      return [{ ...base, kind: "changed", current: { id, value, currency, normalizer } }];
    });
    const counts = { changed: sent.filter((row) => row.kind === "changed").length, new: sent.filter((row) => row.kind === "new").length, unchanged: 0, invalid: 0 };
    const bulkPreview: BulkPreview = { rows: sent, counts, complete: true, pricesSeen: planned.length };
    productRun = { preview: bulkPreview, planned };
    setRun(productRun);
    dispatchBulkUpload({ type: "preview_loaded", preview: bulkPreview });
    start();
  };

  const shown = ours && run ? run.planned : planned;
  const sendable = planned?.filter((row) => row.kind === "changed" || row.kind === "new").length ?? 0;

  return (
    <section aria-labelledby="bulk-change" className="space-y-4 rounded-lg border border-zinc-200 bg-white p-4 text-sm">
      <h2 id="bulk-change" className="text-base font-semibold">
        {t("title", { count: products.length })}
      </h2>
      {!ours ? (
        <form
          className="flex flex-wrap items-end gap-3"
          onChange={() => setPlanned(null)}
          onSubmit={(event) => {
            event.preventDefault();
            preview(event.currentTarget);
          }}
        >
          <label className="flex flex-col gap-1">
            {t("target")}
            <select value={target} onChange={(event) => setTarget(event.target.value as BulkTarget)} className="rounded-md border border-zinc-300 px-2 py-1">
              <option value="sell">{t("targets.sell")}</option>
              <option value="list">{t("targets.list")}</option>
              <option value="both">{t("targets.both")}</option>
            </select>
          </label>
          <fieldset className="flex flex-col gap-1">
            <legend>{t("mode")}</legend>
            <div className="flex gap-3">
              <label className="flex items-center gap-1">
                <input type="radio" name="mode" checked={mode === "percent"} onChange={() => setMode("percent")} />
                {t("modes.percent")}
              </label>
              <label className="flex items-center gap-1">
                <input type="radio" name="mode" checked={mode === "value"} onChange={() => setMode("value")} />
                {t("modes.value")}
              </label>
            </div>
          </fieldset>
          <label className="flex flex-col gap-1">
            {mode === "percent" ? t("percent") : t("amount")}
            <input name="change" required inputMode="decimal" placeholder={mode === "percent" ? "-10" : t("amountPlaceholder")} className="w-32 rounded-md border border-zinc-300 px-2 py-1 tabular-nums" />
          </label>
          <button type="submit" className="rounded-md border border-zinc-300 bg-white px-3 py-1.5 font-medium hover:bg-zinc-50">
            {t("preview")}
          </button>
        </form>
      ) : null}

      {shown ? (
        <>
          <div className="overflow-x-auto rounded-lg border border-zinc-200">
            <table className="w-full text-sm" data-testid="bulk-change-preview">
              <caption className="sr-only">{t("previewCaption")}</caption>
              <thead className="bg-zinc-50 text-left text-zinc-500">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">{t("columns.sku")}</th>
                  <th scope="col" className="px-3 py-2 font-medium">{t("columns.price")}</th>
                  <th scope="col" className="px-3 py-2 font-medium">{t("columns.now")}</th>
                  <th scope="col" className="px-3 py-2 font-medium">{t("columns.new")}</th>
                  <th scope="col" className="px-3 py-2 font-medium">{t("columns.outcome")}</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((row, index) => {
                  const result = ours?.results.get(lineOf(index));
                  return (
                    <tr key={`${row.sku}:${row.type}`} className="border-t border-zinc-100">
                      <td className="px-3 py-2 font-mono text-xs">{row.sku}</td>
                      <td className="px-3 py-2">{t(`targets.${row.type}`)}</td>
                      <td className="px-3 py-2 tabular-nums">{row.current ? format.money(row.current) : "—"}</td>
                      <td className="px-3 py-2 tabular-nums">{row.kind === "invalid" ? "—" : format.money(row)}</td>
                      <td className="px-3 py-2" data-testid="bulk-change-outcome">
                        {result ? (
                          <span className={result.outcome === "applied" ? "text-green-800" : "text-red-700"}>
                            {t(`outcomes.${result.outcome}`)}
                            {result.outcome !== "applied" ? `: ${result.message}` : null}
                          </span>
                        ) : row.kind === "invalid" ? (
                          <span className="text-red-700">{t(`problems.${row.problem}`)}</span>
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
          {!ours ? (
            <div className="flex flex-wrap items-center gap-3">
              <button
                type="button"
                onClick={apply}
                disabled={sendable === 0 || otherRunning}
                className="rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-900 disabled:opacity-50"
              >
                {t("apply", { count: sendable })}
              </button>
              {otherRunning ? <p className="text-amber-800">{t("otherRunning")}</p> : null}
            </div>
          ) : null}
        </>
      ) : null}

      {ours && phase ? (
        <>
          {phase !== "preview" ? <BulkApplyProgress upload={ours} onSendNow={sendNow} /> : null}
          {phase === "paused" ? (
            <button type="button" onClick={start} className="rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-900">
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
              }}
              className="rounded-md border border-zinc-300 bg-white px-4 py-2 font-medium hover:bg-zinc-50"
            >
              {t("newChange")}
            </button>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
