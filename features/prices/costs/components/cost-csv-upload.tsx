"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { useShopId } from "@/components/shop-link";
import { useCostWords } from "@/features/prices/costs/components/cost-cell";
import { cardTable } from "@/components/ui/card-table";
import { applyCostCsvAction, previewCostCsvAction } from "@/features/prices/costs/actions";
import { COST_CSV_LIMITS, describeCostMessage } from "@/features/prices/costs/cost-csv";
import type { CostPreview } from "@/features/prices/costs/cost-csv";

type Notice = { tone: "error" | "success"; text: string };

/**
 * The cost CSV: the file is read and compared with the current costs first (nothing is saved),
 * each bad row with why; "Save" then records every new and changed cost at once.
 */
export function CostCsvUpload() {
  const t = useTranslations("prices.costs.upload");
  const messages = useTranslations("prices.costs.messages");
  const costWords = useCostWords();
  const router = useRouter();
  const shopId = useShopId() ?? "";
  const [preview, setPreview] = useState<CostPreview | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [saved, setSaved] = useState(false);
  const [reading, startReading] = useTransition();
  const [saving, startSaving] = useTransition();

  const toSave =
    preview?.rows.flatMap((row) => (row.kind === "new" || row.kind === "changed" ? [{ sku: row.sku, cost: row.cost }] : [])) ?? [];

  const read = (form: HTMLFormElement) => {
    const formData = new FormData(form);
    const file = formData.get("file");
    if (!(file instanceof File) || file.size === 0) {
      setNotice({ tone: "error", text: t("chooseFile") });
      return;
    }
    if (file.size > COST_CSV_LIMITS.maxFileBytes) {
      setNotice({ tone: "error", text: t("fileTooLarge") });
      return;
    }
    startReading(async () => {
      setSaved(false);
      try {
        const answer = await previewCostCsvAction(shopId, formData);
        if (answer.status === "success") {
          setPreview(answer.data);
          setNotice(null);
        } else {
          setPreview(null);
          setNotice({ tone: "error", text: answer.message });
        }
      } catch {
        setNotice({ tone: "error", text: t("unanswered") });
      }
    });
  };

  const save = () => {
    startSaving(async () => {
      try {
        const answer = await applyCostCsvAction(shopId, toSave);
        setNotice({ tone: answer.status === "success" ? "success" : "error", text: answer.message });
        if (answer.status === "success") {
          setSaved(true);
          router.refresh();
        }
      } catch {
        setNotice({ tone: "error", text: t("unanswered") });
      }
    });
  };

  return (
    <div className="space-y-6">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          read(event.currentTarget);
        }}
        className="flex flex-wrap items-end gap-3 rounded-lg border border-zinc-200 bg-white p-5"
      >
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium">{t("file")}</span>
          <input
            type="file"
            name="file"
            accept=".csv,text/csv"
            disabled={reading || saving}
            className="text-sm file:mr-3 file:rounded-md file:border file:border-zinc-300 file:bg-white file:px-3 file:py-1.5 file:text-sm"
          />
        </label>
        <button
          type="submit"
          disabled={reading || saving}
          className="min-h-11 rounded-md border border-zinc-300 bg-white px-4 py-2 text-sm font-medium hover:bg-zinc-50 disabled:opacity-50 md:min-h-0"
        >
          {reading ? t("reading") : t("preview")}
        </button>
        <p className="w-full text-xs text-zinc-600">{t("limits", { maxRows: COST_CSV_LIMITS.maxRows })}</p>
      </form>

      {notice ? (
        <p
          role={notice.tone === "error" ? "alert" : "status"}
          data-testid="cost-notice"
          className={`rounded-md border px-4 py-3 text-sm ${notice.tone === "error" ? "border-red-200 bg-red-50 text-red-900" : "border-green-200 bg-green-50 text-green-900"}`}
        >
          {notice.text}
        </p>
      ) : null}

      {preview ? (
        <section aria-label={t("previewLabel")} className="space-y-4">
          <ul className="flex flex-wrap gap-2 text-sm" data-testid="cost-counts">
            {(["new", "changed", "unchanged", "invalid"] as const).map((kind) => (
              <li
                key={kind}
                className={`rounded-md px-3 py-1 ${kind === "invalid" ? "bg-red-50 text-red-900" : kind === "unchanged" ? "bg-zinc-100 text-zinc-700" : "bg-brand-50 text-brand-900"}`}
                data-testid={`cost-count-${kind}`}
              >
                {t(`counts.${kind}`, { count: preview.counts[kind] })}
              </li>
            ))}
          </ul>
          <button
            type="button"
            onClick={save}
            disabled={toSave.length === 0 || saving || saved}
            className="min-h-11 w-full rounded-md bg-brand-700 px-4 py-2 text-sm font-medium text-white hover:bg-brand-900 disabled:opacity-50 md:min-h-0 md:w-auto"
          >
            {saving ? t("saving") : t("save", { count: toSave.length })}
          </button>
          <div className={`max-h-[32rem] overflow-y-auto ${cardTable.frame} md:overflow-auto`}>
            <table className={cardTable.table}>
              <caption className="sr-only">{t("caption")}</caption>
              <thead className={`${cardTable.head} sticky top-0`}>
                <tr>
                  {(["line", "sku", "change", "status"] as const).map((column) => (
                    <th key={column} scope="col" className={cardTable.headCell}>
                      {t(`columns.${column}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className={cardTable.body}>
                {preview.rows.map((row) => {
                  const name = row.sku ? preview.names[row.sku] : undefined;
                  return (
                    <tr key={row.line} data-line={row.line} data-kind={row.kind} className={cardTable.row}>
                      <td className={`${cardTable.cell} ${cardTable.pad} tabular-nums text-zinc-600`}>{row.line}</td>
                      <td className={`${cardTable.cell} ${cardTable.pad}`}>
                        <span className="font-mono wrap-anywhere">
                          {row.sku || <span className="text-zinc-600">{t("emptyCell")}</span>}
                        </span>
                        {name ? <span className="block text-xs text-zinc-600">{name}</span> : null}
                      </td>
                      <td className={`${cardTable.labelled} ${cardTable.pad} tabular-nums`} data-label={t("columns.change")}>
                        {row.kind === "invalid" ? (
                          <span className="text-zinc-600">{row.cost}</span>
                        ) : row.kind === "new" ? (
                          <span>
                            <span className="text-zinc-600">{t("noCost")}</span> → {costWords(row.cost)}
                          </span>
                        ) : (
                          <span>
                            {costWords(row.current)} → {costWords(row.cost)}
                          </span>
                        )}
                      </td>
                      <td className={`${cardTable.labelled} ${cardTable.pad}`} data-label={t("columns.status")}>
                        {row.kind === "invalid" ? (
                          <span className="text-red-800">{t("invalidBecause", { reason: describeCostMessage(row.reason, messages) })}</span>
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
        </section>
      ) : null}
    </div>
  );
}
