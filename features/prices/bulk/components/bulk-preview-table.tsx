import { useTranslations } from "next-intl";
import { cardTable } from "@/components/ui/card-table";
import type { AppliedRowResult } from "@/features/prices/bulk/actions";
import { useDisplayFormat } from "@/lib/format";
import type { DisplayFormat } from "@/lib/format";
import { describeBulkMessage } from "@/features/prices/bulk/bulk-messages";
import { isHeld } from "@/features/prices/bulk/bulk-preview-rows";
import type { PreviewRow } from "@/features/prices/bulk/bulk-preview-rows";
import { describeGuardReasons } from "@/features/prices/guard/guard-words";

function money(format: DisplayFormat, value: number, currency: string, normalizer: number): string {
  try {
    return format.money({ value, currency, normalizer });
  } catch {
    return `${value}/${normalizer} ${currency}`;
  }
}

const OUTCOME_STYLE: Record<AppliedRowResult["outcome"], string> = {
  applied: "text-brand-700",
  rejected: "text-red-800",
  failed: "text-red-800",
  held: "text-amber-900",
  skipped: "text-zinc-700",
};

/**
 * Every row of the uploaded file with its preview and, once applying, its result; on a phone each
 * row is a card (components/ui/card-table.ts). SKU, type and invalid cells are shown as the
 * file has them (the CSV's own words), with the product's name under a known SKU; a row's result
 * message comes from the server action, already in the seller's language, or from the platform.
 */
export function BulkPreviewTable({
  rows,
  names,
  results,
  applying,
  confirmed,
  undo = false,
}: {
  rows: PreviewRow[];
  names: Readonly<Record<string, string>>;
  results: ReadonlyMap<number, AppliedRowResult>;
  applying: boolean;
  /** Products whose held rows the seller confirmed: the price guard's other held rows are not sent. */
  confirmed: ReadonlySet<string>;
  /** The rows undo a bulk change: one not sent keeps its price, for the reason it gives. */
  undo?: boolean;
}) {
  const t = useTranslations("prices.bulk.table");
  const messageWords = useTranslations("prices.bulk.messages");
  const guardWords = useTranslations("prices.guard");
  const format = useDisplayFormat();
  return (
    <div className={`max-h-[32rem] overflow-y-auto ${cardTable.frame} md:overflow-auto`}>
      <table className={cardTable.table}>
        <caption className="sr-only">{t("caption")}</caption>
        <thead className={`${cardTable.head} sticky top-0`}>
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              {t("line")}
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              {t("sku")}
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              {t("type")}
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              {t("change")}
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              {t("preview")}
            </th>
            {applying ? (
              <th scope="col" className="px-3 py-2 font-medium">
                {t("result")}
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody className={cardTable.body}>
          {rows.map((row) => {
            const result = results.get(row.line);
            const name = row.sku ? names[row.sku] : undefined;
            const held = isHeld(row) && row.kind !== "invalid" ? row.held! : null;
            return (
              <tr key={row.line} data-line={row.line} data-kind={row.kind} data-held={held ? "true" : undefined} className={cardTable.row}>
                <td className={`${cell} tabular-nums text-zinc-600`}>{row.line}</td>
                <td className={cell}>
                  <span className="font-mono wrap-anywhere">{row.sku || <span className="text-zinc-600">{t("emptyCell")}</span>}</span>
                  {name ? (
                    <span className="block text-xs text-zinc-600" data-testid="product-name">
                      {name}
                    </span>
                  ) : null}
                </td>
                <td className={labelled} data-label={t("type")}>
                  {row.type}
                </td>
                <td className={`${labelled} tabular-nums`} data-label={t("change")}>
                  {/* One line on a phone, its own label on the left. */}
                  <span>
                    {row.kind === "invalid" && row.kept ? (
                      money(format, row.kept.value, row.kept.currency, row.kept.normalizer)
                    ) : row.kind === "invalid" ? (
                      <span className="text-zinc-600">
                        {row.value} {row.currency}
                      </span>
                    ) : row.kind === "new" ? (
                      <>
                        <span className="text-zinc-600">{t("newPrice")}</span> → {money(format, row.value, row.currency, row.normalizer)}
                      </>
                    ) : row.kind === "changed" ? (
                      <>
                        {money(format, row.current.value, row.current.currency, row.current.normalizer)} →{" "}
                        {money(format, row.value, row.currency, row.normalizer)}
                      </>
                    ) : (
                      money(format, row.value, row.currency, row.normalizer)
                    )}
                  </span>
                </td>
                <td className={labelled} data-label={t("preview")}>
                  {row.kind === "invalid" && undo ? (
                    <span className="text-zinc-700">{describeBulkMessage(row.reason, messageWords)}</span>
                  ) : row.kind === "invalid" ? (
                    <span className="text-red-800">{t("invalidBecause", { reason: describeBulkMessage(row.reason, messageWords) })}</span>
                  ) : held ? (
                    <span className="text-amber-900" data-testid="held-reasons">
                      {t("heldKind", { kind: t(`kinds.${row.kind}`), reasons: describeGuardReasons(held, guardWords, format) })}
                    </span>
                  ) : (
                    t(`kinds.${row.kind}`)
                  )}
                </td>
                {applying ? (
                  <td className={labelled} data-label={t("result")} data-testid="row-result">
                    {row.kind === "invalid" && undo ? (
                      <span className="text-zinc-700">{t("outcomes.skipped")}</span>
                    ) : row.kind === "invalid" ? (
                      <span className="text-red-800">{t("invalid")}</span>
                    ) : row.kind === "unchanged" ? (
                      <span className="text-zinc-600">{t("notSent")}</span>
                    ) : held && !confirmed.has(row.sku) && !result ? (
                      <span className="text-amber-900">{t("heldNotSent")}</span>
                    ) : result ? (
                      <span className={OUTCOME_STYLE[result.outcome]} title={result.message}>
                        {result.outcome === "applied"
                          ? t("outcomes.applied")
                          : t("outcomeWithMessage", { outcome: t(`outcomes.${result.outcome}`), message: result.message })}
                      </span>
                    ) : (
                      <span className="text-zinc-600">{t("pending")}</span>
                    )}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

// Denser than the other prices tables from `md` up: a file can have thousands of rows.
const cell = `${cardTable.cell} md:px-3 md:py-1.5`;
const labelled = `${cardTable.labelled} md:px-3 md:py-1.5`;
