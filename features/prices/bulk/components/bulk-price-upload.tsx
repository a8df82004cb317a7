"use client";

import { useTranslations } from "next-intl";
import { BulkApplyProgress, UploadNoticeAlert } from "@/features/prices/bulk/components/bulk-apply-progress";
import { BulkPreviewTable } from "@/features/prices/bulk/components/bulk-preview-table";
import { BulkUndoButton } from "@/features/prices/bulk/components/bulk-undo-button";
import { HeldChanges } from "@/features/prices/guard/components/held-changes";
import { useBulkApply } from "@/features/prices/bulk/components/use-bulk-apply";
import { BULK_LIMITS } from "@/features/prices/bulk/bulk-csv";
import { isHeld } from "@/features/prices/bulk/bulk-preview-rows";
import type { BulkPreview } from "@/features/prices/bulk/bulk-preview-rows";
import { heldProducts } from "@/features/prices/bulk/bulk-upload-state";

/** `seller`: who the page is shown to; an upload belongs to the seller who started it. */
export function BulkPriceUpload({ shopId: shop }: { shopId: string }) {
  const { state, loadFile, loadUndo, start, sendNow, confirm, downloadResults } = useBulkApply(shop);
  const t = useTranslations("prices.bulk");
  const { previewing, uploadError, upload } = state;
  const phase = upload?.phase.name ?? "preview";
  const undoing = upload?.preview.source === "undo";
  const runId = upload?.preview.runId;
  // An undo is not undone in turn: a new file does that.
  const undoable =
    phase === "done" && !undoing && runId && [...(upload?.results.values() ?? [])].some((result) => result.outcome === "applied");

  function onFileSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void loadFile(new FormData(event.currentTarget));
  }

  return (
    <div className="space-y-6">
      <form onSubmit={onFileSubmit} className="flex flex-wrap items-end gap-3 rounded-lg border border-zinc-200 bg-white p-5">
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium">{t("upload.file")}</span>
          <input
            type="file"
            name="file"
            accept=".csv,text/csv"
            disabled={phase === "applying" || previewing}
            className="text-sm file:mr-3 file:rounded-md file:border file:border-zinc-300 file:bg-white file:px-3 file:py-1.5 file:text-sm"
          />
        </label>
        <button
          type="submit"
          disabled={phase === "applying" || previewing}
          className="rounded-md border border-zinc-300 bg-white px-4 py-2 text-sm font-medium hover:bg-zinc-50 disabled:opacity-50"
        >
          {previewing ? t("upload.reading") : t("upload.preview")}
        </button>
        <p className="w-full text-xs text-zinc-600">{t("upload.limits", { maxRows: BULK_LIMITS.maxRows })}</p>
      </form>

      {uploadError ? <UploadNoticeAlert notice={uploadError} feature="yourCurrentPrices" /> : null}

      {upload ? (
        <section aria-label={t("preview.label")} className="space-y-4">
          {undoing ? <p className="text-sm font-medium">{t("preview.undoHelp")}</p> : null}
          <ul className="flex flex-wrap gap-2 text-sm" data-testid="preview-counts">
            {undoing ? (
              <>
                <CountBadge kind="changed" counts={upload.preview.counts} tone="brand" words="undoCounts.back" />
                <CountBadge kind="invalid" counts={upload.preview.counts} tone="zinc" words="undoCounts.kept" />
              </>
            ) : (
              <>
                <CountBadge kind="changed" counts={upload.preview.counts} tone="brand" />
                <CountBadge kind="new" counts={upload.preview.counts} tone="brand" />
                <CountBadge kind="unchanged" counts={upload.preview.counts} tone="zinc" />
                <CountBadge kind="invalid" counts={upload.preview.counts} tone="red" />
              </>
            )}
          </ul>
          {upload.preview.rows.some(isHeld) ? (
            <p className="text-sm" data-testid="count-held">
              {t.rich("preview.held", {
                count: upload.preview.rows.filter(isHeld).length,
                b: (chunks) => <span className="font-semibold">{chunks}</span>,
              })}
            </p>
          ) : null}
          {!upload.preview.complete ? (
            <p role="status" className="text-sm text-amber-900">
              {t("preview.incomplete", { count: upload.preview.pricesSeen })}
            </p>
          ) : null}

          <HeldChanges
            products={heldProducts(upload.preview).map(({ sku, rows }) => ({
              sku,
              name: upload.preview.names[sku] ?? null,
              reasons: rows.flatMap((row) => (row.kind === "invalid" ? [] : (row.held ?? []))),
            }))}
            confirmed={upload.confirmed}
            onChange={confirm}
            disabled={phase !== "preview"}
          />

          <div className="flex flex-wrap items-center gap-3">
            {phase === "preview" ? (
              <button
                type="button"
                onClick={start}
                disabled={upload.total === 0}
                className="rounded-md bg-brand-700 px-4 py-2 text-sm font-medium text-white hover:bg-brand-900 disabled:opacity-50"
              >
                {undoing ? t("preview.undoApply", { count: upload.total }) : t("preview.apply", { count: upload.total })}
              </button>
            ) : null}
            {phase === "paused" ? (
              <button
                type="button"
                onClick={start}
                className="rounded-md bg-brand-700 px-4 py-2 text-sm font-medium text-white hover:bg-brand-900"
              >
                {t("preview.resume", { count: upload.total - upload.results.size })}
              </button>
            ) : null}
            {phase === "done" || phase === "paused" ? (
              <button
                type="button"
                onClick={downloadResults}
                className="rounded-md border border-zinc-300 bg-white px-4 py-2 text-sm font-medium hover:bg-zinc-50"
              >
                {t("preview.download")}
              </button>
            ) : null}
            {undoable ? <BulkUndoButton shopId={shop} runId={runId} onPreview={loadUndo} /> : null}
          </div>

          {phase !== "preview" ? <BulkApplyProgress upload={upload} onSendNow={sendNow} /> : null}

          <BulkPreviewTable
            rows={upload.preview.rows}
            names={upload.preview.names}
            results={upload.results}
            applying={phase !== "preview"}
            confirmed={upload.confirmed}
            undo={undoing}
          />
        </section>
      ) : null}
    </div>
  );
}

// The test ids keep the English words they always had (count-new-price), whatever the language.
const COUNT_TEST_IDS: Record<keyof BulkPreview["counts"], string> = {
  changed: "count-changed",
  new: "count-new-price",
  unchanged: "count-unchanged",
  invalid: "count-invalid",
};

/** `words`: an undo's own words for the count (an undo's "invalid" rows are prices kept as they are). */
function CountBadge({
  kind,
  counts,
  tone,
  words = `counts.${kind}`,
}: {
  kind: keyof BulkPreview["counts"];
  counts: BulkPreview["counts"];
  tone: "brand" | "zinc" | "red";
  words?: `counts.${keyof BulkPreview["counts"]}` | "undoCounts.back" | "undoCounts.kept";
}) {
  const t = useTranslations("prices.bulk.preview");
  const colors = { brand: "bg-brand-50 text-brand-900", zinc: "bg-zinc-100 text-zinc-700", red: "bg-red-50 text-red-900" }[tone];
  return (
    <li className={`rounded-md px-3 py-1 ${colors}`} data-testid={COUNT_TEST_IDS[kind]}>
      {t.rich(words, { count: counts[kind], b: (chunks) => <span className="font-semibold">{chunks}</span> })}
    </li>
  );
}
