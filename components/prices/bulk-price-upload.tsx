"use client";

import { BulkApplyProgress } from "@/components/prices/bulk-apply-progress";
import { BulkPreviewTable } from "@/components/prices/bulk-preview-table";
import { useBulkApply } from "@/components/prices/use-bulk-apply";
import { ProblemNotice } from "@/components/platform/problem-notice";
import { formatCount } from "@/lib/format";
import { BULK_LIMITS } from "@/lib/prices/bulk-csv";
import { outcomeCounts, slowDownOf } from "@/lib/prices/bulk-upload-state";

/** `seller`: who the page is shown to; an upload belongs to the seller who started it. */
export function BulkPriceUpload({ seller }: { seller: string }) {
  const { state, loadFile, start, sendNow, downloadResults } = useBulkApply(seller);
  const { previewing, uploadError, upload } = state;
  const phase = upload?.phase.name ?? "preview";
  const pauseReason = upload?.phase.name === "paused" ? upload.phase.reason : null;

  function onFileSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void loadFile(new FormData(event.currentTarget));
  }

  return (
    <div className="space-y-6">
      <form onSubmit={onFileSubmit} className="flex flex-wrap items-end gap-3 rounded-lg border border-zinc-200 bg-white p-5">
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium">CSV file</span>
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
          {previewing ? "Reading…" : "Preview"}
        </button>
        <p className="w-full text-xs text-zinc-500">
          Up to {formatCount(BULK_LIMITS.maxRows)} rows and 1 MB. Nothing is sent to the marketplace until you apply.
        </p>
      </form>

      {uploadError ? (
        uploadError.problem && uploadError.problem.kind !== "error" ? (
          <ProblemNotice problem={uploadError.problem} feature="your current prices" />
        ) : (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
            {uploadError.message}
          </p>
        )
      ) : null}

      {upload ? (
        <section aria-label="Preview" className="space-y-4">
          <ul className="flex flex-wrap gap-2 text-sm" data-testid="preview-counts">
            <CountBadge label="changed" count={upload.preview.counts.changed} tone="brand" />
            <CountBadge label="new price" count={upload.preview.counts.new} tone="brand" />
            <CountBadge label="unchanged" count={upload.preview.counts.unchanged} tone="zinc" />
            <CountBadge label="invalid" count={upload.preview.counts.invalid} tone="red" />
          </ul>
          {!upload.preview.complete ? (
            <p role="status" className="text-sm text-amber-800">
              You have more prices than the preview reads ({formatCount(upload.preview.pricesSeen)} read): some rows shown as
              &quot;new price&quot; may already have one. Applying sets them either way.
            </p>
          ) : null}

          <div className="flex flex-wrap items-center gap-3">
            {phase === "preview" ? (
              <button
                type="button"
                onClick={start}
                disabled={upload.total === 0}
                className="rounded-md bg-brand-700 px-4 py-2 text-sm font-medium text-white hover:bg-brand-900 disabled:opacity-50"
              >
                Apply {formatCount(upload.total)} {upload.total === 1 ? "change" : "changes"}
              </button>
            ) : null}
            {phase === "paused" ? (
              <button type="button" onClick={start} className="rounded-md bg-brand-700 px-4 py-2 text-sm font-medium text-white hover:bg-brand-900">
                Resume ({formatCount(upload.total - upload.results.size)} rows left)
              </button>
            ) : null}
            {phase === "done" || phase === "paused" ? (
              <button
                type="button"
                onClick={downloadResults}
                className="rounded-md border border-zinc-300 bg-white px-4 py-2 text-sm font-medium hover:bg-zinc-50"
              >
                Download results (CSV)
              </button>
            ) : null}
          </div>

          {phase !== "preview" ? (
            <BulkApplyProgress
              done={upload.results.size}
              total={upload.total}
              phase={phase}
              counts={outcomeCounts(upload.results)}
              invalid={upload.preview.counts.invalid}
              unchanged={upload.preview.counts.unchanged}
              slowDown={slowDownOf(upload.phase)}
              slowDownCount={upload.slowDownCount}
              onSendNow={sendNow}
            />
          ) : null}
          {pauseReason ? (
            pauseReason.problem && pauseReason.problem.kind !== "error" ? (
              <ProblemNotice problem={pauseReason.problem} feature="price updates" />
            ) : (
              <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
                {pauseReason.message}
              </p>
            )
          ) : null}

          <BulkPreviewTable rows={upload.preview.rows} results={upload.results} applying={phase !== "preview"} />
        </section>
      ) : null}
    </div>
  );
}

function CountBadge({ label, count, tone }: { label: string; count: number; tone: "brand" | "zinc" | "red" }) {
  const colors = { brand: "bg-brand-50 text-brand-900", zinc: "bg-zinc-100 text-zinc-700", red: "bg-red-50 text-red-800" }[tone];
  return (
    <li className={`rounded-md px-3 py-1 ${colors}`} data-testid={`count-${label.replace(" ", "-")}`}>
      <span className="font-semibold">{formatCount(count)}</span> {label}
    </li>
  );
}
