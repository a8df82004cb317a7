"use client";

import { ShopLink } from "@/components/shop-link";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { CostCell } from "@/features/prices/costs/components/cost-cell";
import { cardTable } from "@/components/ui/card-table";
import { useDisplayFormat } from "@/lib/format";
import { discountOf } from "@/features/prices/price-products";
import type { PriceProduct } from "@/features/prices/price-products";
import { useCan } from "@/components/shop-role";

import { BulkChangePanel } from "./bulk-change-panel";
import { MarginCell, PriceCell } from "./price-product-cells";

// Prices by product, editable in place, and a change of several products at once previewed old → new
// before anything is sent, then applied through the bulk upload's engine (bulk-upload-store.ts), so
// it gets the same batches, rate-limit waits and per-row outcomes, and survives leaving the page.

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

export function PriceProductsTable({ rows, shopId: shop, pricing }: { rows: PriceProduct[]; shopId: string; pricing: PricingView }) {
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
      {canChange ? <BulkChangePanel products={chosen} shopId={shop} limitPercent={pricing.limitPercent} rateBps={pricing.rateBps} /> : null}
    </div>
  );
}

/** The margin of selling at the "por" price: money and share of the price, red when it loses money. */
