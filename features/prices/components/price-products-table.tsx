"use client";

import { ShopLink, useShopId } from "@/components/shop-link";
import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { useEffect, useId, useRef, useState, useTransition } from "react";
import { BulkApplyProgress } from "@/features/prices/bulk/components/bulk-apply-progress";
import { dispatchBulkUpload } from "@/features/prices/bulk/components/bulk-upload-store";
import { CostCell } from "@/features/prices/costs/components/cost-cell";
import { HeldChanges } from "@/features/prices/guard/components/held-changes";
import type { HeldProduct } from "@/features/prices/guard/components/held-changes";
import { cardTable } from "@/components/ui/card-table";
import { useBulkApply } from "@/features/prices/bulk/components/use-bulk-apply";
import { setProductPriceAction } from "@/features/prices/actions";
import { useDisplayFormat } from "@/lib/format";
import type { PriceType } from "@marketplace/api/schemas/price";
import type { BulkPreview, PreviewRow } from "@/features/prices/bulk/bulk-preview-rows";
import { describeGuardReasons, signedPercent } from "@/features/prices/guard/guard-words";
import { COST_CURRENCY, COST_NORMALIZER, marginOf } from "@/features/prices/margin";
import type { HeldChange } from "@/features/prices/guard/price-guard";
import { discountOf, guardPlan, planBulkChange } from "@/features/prices/price-products";
import type { BulkChange, BulkTarget, PlannedChange, PriceProduct } from "@/features/prices/price-products";
import { useCan } from "@/components/shop-role";

// Prices by product, editable in place, and a change of several products at once previewed old → new
// before anything is sent, then applied through the bulk upload's engine (bulk-upload-store.ts), so
// it gets the same batches, rate-limit waits and per-row outcomes, and survives leaving the page.

/** A planned change's line in the bulk engine (lines start at 2, after a CSV's header). */
const lineOf = (index: number) => index + 2;

/** The run this page started in this tab, kept with the module so it is found again on return. */
let productRun: { preview: BulkPreview; planned: PlannedChange[] } | null = null;

const COLUMNS = ["select", "sku", "name", "list", "sell", "discount", "cost", "margin", "history"] as const;

/** What the page knows of the shop's pricing: the guard's limit and the commission rate margins use. */
export interface PricingView {
  limitPercent: number;
  /** Basis points; null when no rate is known (margins then count no commission). */
  rateBps: number | null;
}

/** A checkbox with a touch-sized target around it on a phone. */
function Checkbox({ label, checked, onChange }: { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="-m-2.5 inline-flex min-h-11 min-w-11 items-center justify-center md:m-0 md:min-h-0 md:min-w-0">
      <input type="checkbox" aria-label={label} checked={checked} onChange={(event) => onChange(event.target.checked)} />
    </label>
  );
}

export function PriceProductsTable({ rows, seller, pricing }: { rows: PriceProduct[]; seller: string; pricing: PricingView }) {
  const t = useTranslations("prices.products");
  const format = useDisplayFormat();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const allSelected = rows.length > 0 && rows.every((row) => selected.has(row.sku));
  const selectAll = (checked: boolean) => setSelected(checked ? new Set(rows.map((row) => row.sku)) : new Set());
  const select = (sku: string, checked: boolean) =>
    setSelected((previous) => {
      const next = new Set(previous);
      if (checked) next.add(sku);
      else next.delete(sku);
      return next;
    });

  const chosen = rows.filter((row) => selected.has(row.sku));
  const canChange = useCan("prices.change");
  return (
    <div className="space-y-4">
      {rows.length > 0 && canChange ? (
        // On a phone the header row (with its checkbox) is hidden: "select all" stands above the
        // cards, and once products are chosen, the way to the change panel below them. Not a
        // sticky bar: one laid over the cards would cover their controls (axe's target-size).
        <div className="flex flex-wrap items-center justify-between gap-3 md:hidden">
          <label className="flex min-h-11 items-center gap-3 text-sm">
            <input type="checkbox" checked={allSelected} onChange={(event) => selectAll(event.target.checked)} />
            {t("selectAll")}
          </label>
          {chosen.length > 0 ? (
            <a href="#bulk-change" className="flex min-h-11 items-center rounded-full bg-brand-700 px-4 text-sm font-medium text-white">
              {t("bulk.jump", { count: chosen.length })}
            </a>
          ) : null}
        </div>
      ) : null}
      <div className={cardTable.frame}>
        <table className={cardTable.table}>
          <caption className="sr-only">{t("caption")}</caption>
          <thead className={cardTable.head}>
            <tr>
              {COLUMNS.map((column) => (
                <th key={column} scope="col" className={cardTable.headCell}>
                  {column === "select" ? (
                    <Checkbox label={t("selectAll")} checked={allSelected} onChange={selectAll} />
                  ) : column === "history" ? (
                    <span className="sr-only">{t("columns.history")}</span>
                  ) : (
                    t(`columns.${column}`)
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className={cardTable.body}>
            {rows.map((product) => {
              const discount = discountOf(product);
              const historyId = product.sell?.id ?? product.list?.id;
              return (
                <tr key={product.sku} className={cardTable.row}>
                  <td className={`${cardTable.cell} ${cardTable.pad} self-start ${product.name ? "row-span-2" : ""}`}>
                    <Checkbox
                      label={t("select", { sku: product.sku })}
                      checked={selected.has(product.sku)}
                      onChange={(checked) => select(product.sku, checked)}
                    />
                  </td>
                  <td className={`${cardTable.cell} ${cardTable.pad} font-mono text-xs wrap-anywhere`}>{product.sku}</td>
                  {/* The product's name heads its row for screen readers; "—" until the catalogue or an order names it. */}
                  <th
                    scope="row"
                    className={`${cardTable.cell} ${cardTable.pad} text-left font-medium md:font-normal ${product.name ? "" : "max-md:hidden"}`}
                    data-testid="product-name"
                  >
                    {product.name ?? <span className="text-zinc-600">—</span>}
                  </th>
                  <td className={`${cardTable.labelled} ${cardTable.pad}`} data-label={t("columns.list")}>
                    <PriceCell product={product} type="list" />
                  </td>
                  <td className={`${cardTable.labelled} ${cardTable.pad}`} data-label={t("columns.sell")}>
                    <PriceCell product={product} type="sell" />
                  </td>
                  <td className={`${cardTable.labelled} ${cardTable.pad}`} data-label={t("columns.discount")}>
                    <span className="tabular-nums" data-testid="discount">
                      {discount === null ? "—" : format.percent(-discount)}
                    </span>
                  </td>
                  <td className={`${cardTable.labelled} ${cardTable.pad}`} data-label={t("columns.cost")}>
                    <CostCell sku={product.sku} cost={product.cost} source="prices" />
                  </td>
                  <td className={`${cardTable.labelled} ${cardTable.pad}`} data-label={t("columns.margin")}>
                    <MarginCell product={product} rateBps={pricing.rateBps} />
                  </td>
                  <td className={`${cardTable.cell} ${cardTable.pad} col-span-2`}>
                    {historyId ? (
                      <ShopLink
                        href={`/prices/${historyId}`}
                        className="inline-flex min-h-11 items-center text-brand-700 hover:underline md:min-h-0"
                        aria-label={t("historyOf", { sku: product.sku })}
                      >
                        {t("history")}
                      </ShopLink>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {rows.length === 0 ? (
          <p className="rounded-lg border border-zinc-200 bg-white p-6 text-center text-sm text-zinc-600 md:border-0">{t("empty")}</p>
        ) : null}
      </div>
      {canChange ? <BulkChangePanel products={chosen} seller={seller} limitPercent={pricing.limitPercent} /> : null}
    </div>
  );
}

/** The margin of selling at the "por" price: money and share of the price, red when it loses money. */
function MarginCell({ product, rateBps }: { product: PriceProduct; rateBps: number | null }) {
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
function PriceCell({ product, type }: { product: PriceProduct; type: PriceType }) {
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
function BulkChangePanel({ products, seller, limitPercent }: { products: PriceProduct[]; seller: string; limitPercent: number }) {
  const t = useTranslations("prices.products.bulk");
  const guardWords = useTranslations("prices.guard");
  const locale = useLocale();
  const format = useDisplayFormat();
  const router = useRouter();
  const { state, start, sendNow } = useBulkApply(seller);
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
