"use client";

import { useTranslations } from "next-intl";
import { cardTable } from "@/components/ui/card-table";
import type { AppliedRowResult } from "@/features/prices/bulk/actions";
import { useDisplayFormat } from "@/lib/format";
import { describeGuardReasons } from "@/features/prices/guard/guard-words";
import type { PlannedChange } from "@/features/prices/price-products";

/** A planned change's line in the bulk engine (lines start at 2, after a CSV's header). */
export const lineOf = (index: number) => index + 2;

/**
 * The rows of a change of several products: each price now and after, and what became of it once
 * applied. `undo`: the rows send prices back, so a row to send "goes back" rather than "changes".
 */
export function BulkChangeTable({
  rows,
  results,
  nameOf,
  sentConfirmed,
  undo,
}: {
  rows: readonly PlannedChange[];
  /** By line, once the change is being applied; null before. */
  results: ReadonlyMap<number, AppliedRowResult> | null;
  nameOf: (sku: string) => string | null;
  /** While applying: the products whose held changes were confirmed, and so sent. */
  sentConfirmed: readonly string[];
  undo: boolean;
}) {
  const t = useTranslations("prices.products.bulk");
  const guardWords = useTranslations("prices.guard");
  const format = useDisplayFormat();
  const applying = results !== null;
  return (
    <div className={cardTable.frame}>
      <table className={cardTable.table} data-testid="bulk-change-preview">
        <caption className="sr-only">{undo ? t("undoCaption") : t("previewCaption")}</caption>
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
          {rows.map((row, index) => {
            const result = results?.get(lineOf(index));
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
                            : result.outcome === "skipped"
                              ? "text-zinc-700"
                              : "text-red-800"
                      }
                    >
                      {t(`outcomes.${result.outcome}`)}
                      {result.outcome !== "applied" ? `: ${result.message}` : null}
                    </span>
                  ) : row.kind === "invalid" ? (
                    <span className={undo ? "text-zinc-700" : "text-red-800"}>{t(`problems.${row.problem}`)}</span>
                  ) : row.held?.length && !(applying && sentConfirmed.includes(row.sku)) ? (
                    <span className="text-amber-900" data-testid="held-reasons">
                      {applying
                        ? t("heldNotSent")
                        : guardWords("heldBecause", { reasons: describeGuardReasons(row.held, guardWords, format) })}
                    </span>
                  ) : undo && row.kind === "changed" ? (
                    t("kinds.back")
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
  );
}
