"use client";

import { useEffect, useRef, useState, useTransition } from "react";
import { ProblemNotice } from "@/components/platform/problem-notice";
import { applyPriceBatchAction, previewBulkPricesAction } from "@/lib/actions/bulk-prices";
import type { AppliedRowResult, ApplyPriceRow, PreviewBulkPricesState } from "@/lib/actions/bulk-prices";
import type { PlatformProblem } from "@/lib/data/platform";
import { formatMoney } from "@/lib/money";
import type { BackoffState } from "@/lib/prices/bulk-apply";
import { BULK_LIMITS, buildResultsCsv } from "@/lib/prices/bulk-csv";
import type { BulkResultLine } from "@/lib/prices/bulk-csv";
import type { BulkPreview, PreviewRow } from "@/lib/prices/bulk-preview";
import { formatCount } from "@/lib/format";

type Phase = "preview" | "applying" | "paused" | "done";

interface SlowDown {
  /** Epoch ms when sending resumes; null while a batch is in flight after a slow-down. */
  until: number | null;
  reason: "rate_limited" | "connection";
}

/** After this many failed calls in a row (network, server restart) the page pauses and asks. */
const MAX_CALL_FAILURES = 5;

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function toApply(row: PreviewRow): ApplyPriceRow | null {
  if (row.kind !== "changed" && row.kind !== "new") return null;
  return { line: row.line, sku: row.sku, type: row.type, value: row.value, currency: row.currency, normalizer: row.normalizer, amount: row.amount };
}

function money(value: number, currency: string, normalizer: number): string {
  try {
    return formatMoney({ value, currency, normalizer });
  } catch {
    return `${value}/${normalizer} ${currency}`;
  }
}

/** One line of the results file per row of the upload, whatever happened to it. */
function resultLine(row: PreviewRow, result: AppliedRowResult | undefined): BulkResultLine {
  if (row.kind === "invalid") {
    return { line: row.line, sku: row.sku, type: row.type, value: row.value, currency: row.currency, outcome: "invalid", message: row.reason, priceId: null };
  }
  const base = { line: row.line, sku: row.sku, type: row.type, value: row.amount, currency: row.currency };
  if (row.kind === "unchanged") return { ...base, outcome: "unchanged", message: "Same as the current price; not sent", priceId: row.current.id };
  if (!result) return { ...base, outcome: "not_sent", message: "Not sent: the update was stopped before this row", priceId: null };
  return { ...base, outcome: result.outcome, message: result.message, priceId: result.priceId };
}

export function BulkPriceUpload() {
  const [preview, setPreview] = useState<BulkPreview | null>(null);
  const [uploadError, setUploadError] = useState<{ message: string; problem?: PlatformProblem } | null>(null);
  const [previewing, startPreview] = useTransition();
  const [phase, setPhase] = useState<Phase>("preview");
  const [results, setResults] = useState<ReadonlyMap<number, AppliedRowResult>>(new Map());
  const [slowDown, setSlowDown] = useState<SlowDown | null>(null);
  // Ends the current rate-limit wait early ("Send now"): the seller may know the limit is over.
  const skipWait = useRef<(() => void) | null>(null);
  const waitOrSkip = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        skipWait.current = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      skipWait.current = done;
    });
  const [slowDownCount, setSlowDownCount] = useState(0);
  const [pauseReason, setPauseReason] = useState<{ message: string; problem?: PlatformProblem } | null>(null);
  // Rows not yet finished, in file order: what "Resume" sends. Kept in a ref because the loop
  // below reads and replaces it between awaits.
  const queue = useRef<ApplyPriceRow[]>([]);
  const backoff = useRef<BackoffState>({ rateLimitStreak: 0 });
  const running = useRef(false);

  const rowsToApply = preview ? preview.rows.flatMap((row) => toApply(row) ?? []) : [];
  const total = rowsToApply.length;
  const done = results.size;

  function onFileSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formData = new FormData(event.currentTarget);
    const file = formData.get("file");
    if (!(file instanceof File) || file.size === 0) {
      setUploadError({ message: "Choose a CSV file." });
      return;
    }
    // Checked here too, so a large file is refused before it is uploaded.
    if (file.size > BULK_LIMITS.maxFileBytes) {
      setUploadError({ message: "The file is larger than 1 MB; split it into smaller files." });
      return;
    }
    startPreview(async () => {
      let state: PreviewBulkPricesState;
      try {
        state = await previewBulkPricesAction(formData);
      } catch {
        state = { status: "error", message: "The preview could not be made: the dashboard did not answer. Try again." };
      }
      if (state.status === "error") {
        setPreview(null);
        setUploadError({ message: state.message, problem: state.problem });
        return;
      }
      setUploadError(null);
      setPreview(state.preview);
      setResults(new Map());
      setPhase("preview");
      setSlowDown(null);
      setSlowDownCount(0);
      setPauseReason(null);
      queue.current = state.preview.rows.flatMap((row) => toApply(row) ?? []);
      backoff.current = { rateLimitStreak: 0 };
    });
  }

  async function run() {
    if (running.current) return;
    running.current = true;
    setPhase("applying");
    setPauseReason(null);
    let failures = 0;
    try {
      while (queue.current.length > 0) {
        const batch = queue.current.slice(0, BULK_LIMITS.maxBatchRows);
        const rest = queue.current.slice(batch.length);
        let state: Awaited<ReturnType<typeof applyPriceBatchAction>>;
        try {
          state = await applyPriceBatchAction(batch, { backoff: backoff.current });
          failures = 0;
        } catch {
          // The request itself failed (network, deploy, server restart): the batch is sent
          // again; its rows may have been applied already, which sets the same price again.
          failures++;
          if (failures >= MAX_CALL_FAILURES) {
            setSlowDown(null);
            setPauseReason({ message: "The dashboard stopped answering. Your remaining rows are kept: resume when it is back." });
            setPhase("paused");
            return;
          }
          const delay = 1000 * 2 ** failures;
          setSlowDown({ until: Date.now() + delay, reason: "connection" });
          await wait(delay);
          continue;
        }

        // Never lose a row: whatever the answer, a row of the batch without an outcome is
        // sent again, ahead of the rest.
        const finished = new Set(state.results.map((result) => result.line));
        const pendingLines = new Set(state.pending.map((row) => row.line));
        const pending = [
          ...state.pending.filter((row) => !finished.has(row.line)),
          ...batch.filter((row) => !finished.has(row.line) && !pendingLines.has(row.line)),
        ].sort((a, b) => a.line - b.line);
        if (state.results.length > 0) {
          setResults((previous) => {
            const next = new Map(previous);
            for (const result of state.results) next.set(result.line, result);
            return next;
          });
        }
        queue.current = [...pending, ...rest];

        if (state.status === "error") {
          setSlowDown(null);
          setPauseReason({ message: state.message, problem: state.problem });
          setPhase("paused");
          return;
        }
        backoff.current = state.backoff;
        if (state.slowDowns > 0) setSlowDownCount((count) => count + state.slowDowns);
        if (state.resumeAfterMs > 0) {
          setSlowDown({ until: Date.now() + state.resumeAfterMs, reason: "rate_limited" });
          await waitOrSkip(state.resumeAfterMs);
          setSlowDown({ until: null, reason: "rate_limited" });
        } else if (state.slowDowns > 0) {
          setSlowDown({ until: null, reason: "rate_limited" });
        } else {
          setSlowDown(null);
        }
      }
      setSlowDown(null);
      setPhase("done");
    } finally {
      running.current = false;
    }
  }

  function downloadResults() {
    if (!preview) return;
    const csv = buildResultsCsv(preview.rows.map((row) => resultLine(row, results.get(row.line))));
    // The BOM makes spreadsheet programs read the file as UTF-8 ("ç", "ã" in SKU codes and messages).
    const url = URL.createObjectURL(new Blob(["\uFEFF", csv], { type: "text/csv;charset=utf-8" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = "bulk-price-results.csv";
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  const outcomeCounts = { applied: 0, rejected: 0, failed: 0 };
  for (const result of results.values()) outcomeCounts[result.outcome]++;

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

      {preview ? (
        <section aria-label="Preview" className="space-y-4">
          <ul className="flex flex-wrap gap-2 text-sm" data-testid="preview-counts">
            <CountBadge label="changed" count={preview.counts.changed} tone="brand" />
            <CountBadge label="new price" count={preview.counts.new} tone="brand" />
            <CountBadge label="unchanged" count={preview.counts.unchanged} tone="zinc" />
            <CountBadge label="invalid" count={preview.counts.invalid} tone="red" />
          </ul>
          {!preview.complete ? (
            <p role="status" className="text-sm text-amber-800">
              You have more prices than the preview reads ({formatCount(preview.pricesSeen)} read): some rows shown as
              &quot;new price&quot; may already have one. Applying sets them either way.
            </p>
          ) : null}

          <div className="flex flex-wrap items-center gap-3">
            {phase === "preview" ? (
              <button
                type="button"
                onClick={run}
                disabled={total === 0}
                className="rounded-md bg-brand-700 px-4 py-2 text-sm font-medium text-white hover:bg-brand-900 disabled:opacity-50"
              >
                Apply {formatCount(total)} {total === 1 ? "change" : "changes"}
              </button>
            ) : null}
            {phase === "paused" ? (
              <button type="button" onClick={run} className="rounded-md bg-brand-700 px-4 py-2 text-sm font-medium text-white hover:bg-brand-900">
                Resume ({formatCount(total - done)} rows left)
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
            <Progress
              done={done}
              total={total}
              phase={phase}
              counts={outcomeCounts}
              invalid={preview.counts.invalid}
              unchanged={preview.counts.unchanged}
              slowDown={slowDown}
              slowDownCount={slowDownCount}
              onSendNow={() => skipWait.current?.()}
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

          <PreviewTable rows={preview.rows} results={results} applying={phase !== "preview"} />
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

function Progress(props: {
  done: number;
  total: number;
  phase: Phase;
  counts: { applied: number; rejected: number; failed: number };
  invalid: number;
  unchanged: number;
  slowDown: SlowDown | null;
  slowDownCount: number;
  onSendNow: () => void;
}) {
  const { done, total, phase, counts, slowDown } = props;
  const percent = total === 0 ? 100 : Math.round((done / total) * 100);
  return (
    <div className="space-y-2 rounded-lg border border-zinc-200 bg-white p-4">
      <div className="flex justify-between text-sm">
        <span className="font-medium" data-testid="apply-status">
          {phase === "done" ? "Done" : phase === "paused" ? "Paused" : "Applying…"} {formatCount(done)} of {formatCount(total)}
        </span>
        <span className="text-zinc-500">{percent}%</span>
      </div>
      <div
        role="progressbar"
        aria-label="Rows applied"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-valuetext={`${done} of ${total} rows`}
        className="h-2 overflow-hidden rounded-full bg-zinc-100"
      >
        <div className="h-full bg-brand-600 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-sm text-zinc-700" data-testid="outcome-counts">
        <span data-testid="applied-count">{counts.applied}</span> applied, <span data-testid="rejected-count">{counts.rejected}</span> rejected,{" "}
        <span data-testid="failed-count">{counts.failed}</span> failed, <span data-testid="invalid-count">{props.invalid}</span> invalid,{" "}
        {props.unchanged} unchanged (not sent)
      </p>
      {slowDown && phase === "applying" ? <SlowDownNotice slowDown={slowDown} onSendNow={props.onSendNow} /> : null}
      {props.slowDownCount > 0 ? (
        <p className="text-xs text-zinc-500" data-testid="slowdown-count">
          Slowed down {props.slowDownCount} {props.slowDownCount === 1 ? "time" : "times"} because the marketplace limited requests.
        </p>
      ) : null}
    </div>
  );
}

function SlowDownNotice({ slowDown, onSendNow }: { slowDown: SlowDown; onSendNow: () => void }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (slowDown.until === null) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [slowDown.until]);
  const seconds = slowDown.until === null ? 0 : Math.max(0, Math.ceil((slowDown.until - now) / 1000));
  const why =
    slowDown.reason === "rate_limited"
      ? "Slowing down: the marketplace is limiting how fast prices can be sent (rate limit)."
      : "Slowing down: the dashboard did not answer.";
  return (
    <p role="status" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="slowdown">
      {why} {seconds > 0 ? `Sending again in ${seconds} s.` : "Retrying."} No row is skipped.{" "}
      {seconds > 0 && slowDown.reason === "rate_limited" ? (
        <button type="button" onClick={onSendNow} className="ml-1 rounded border border-amber-300 bg-white px-2 py-0.5 text-xs font-medium hover:bg-amber-100">
          Send now
        </button>
      ) : null}
    </p>
  );
}

const OUTCOME_STYLE: Record<AppliedRowResult["outcome"], string> = {
  applied: "text-brand-700",
  rejected: "text-red-700",
  failed: "text-red-700",
};

function PreviewTable({ rows, results, applying }: { rows: PreviewRow[]; results: ReadonlyMap<number, AppliedRowResult>; applying: boolean }) {
  return (
    <div className="max-h-[32rem] overflow-auto rounded-lg border border-zinc-200 bg-white">
      <table className="w-full text-sm">
        <caption className="sr-only">Rows of the uploaded file</caption>
        <thead className="sticky top-0 bg-zinc-50 text-left text-zinc-500">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">Line</th>
            <th scope="col" className="px-3 py-2 font-medium">SKU</th>
            <th scope="col" className="px-3 py-2 font-medium">Type</th>
            <th scope="col" className="px-3 py-2 font-medium">Change</th>
            <th scope="col" className="px-3 py-2 font-medium">Preview</th>
            {applying ? <th scope="col" className="px-3 py-2 font-medium">Result</th> : null}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {rows.map((row) => {
            const result = results.get(row.line);
            return (
              <tr key={row.line} data-line={row.line} data-kind={row.kind}>
                <td className="px-3 py-1.5 tabular-nums text-zinc-500">{row.line}</td>
                <td className="px-3 py-1.5 font-mono">{row.sku || <span className="text-zinc-400">(empty)</span>}</td>
                <td className="px-3 py-1.5">{row.type}</td>
                <td className="px-3 py-1.5 tabular-nums">
                  {row.kind === "invalid" ? (
                    <span className="text-zinc-500">
                      {row.value} {row.currency}
                    </span>
                  ) : row.kind === "new" ? (
                    <>
                      <span className="text-zinc-500">new price</span> → {money(row.value, row.currency, row.normalizer)}
                    </>
                  ) : row.kind === "changed" ? (
                    <>
                      {money(row.current.value, row.current.currency, row.current.normalizer)} → {money(row.value, row.currency, row.normalizer)}
                    </>
                  ) : (
                    money(row.value, row.currency, row.normalizer)
                  )}
                </td>
                <td className="px-3 py-1.5">
                  {row.kind === "invalid" ? <span className="text-red-700">invalid: {row.reason}</span> : row.kind === "new" ? "new price" : row.kind}
                </td>
                {applying ? (
                  <td className="px-3 py-1.5" data-testid="row-result">
                    {row.kind === "invalid" ? (
                      <span className="text-red-700">invalid</span>
                    ) : row.kind === "unchanged" ? (
                      <span className="text-zinc-500">not sent</span>
                    ) : result ? (
                      <span className={OUTCOME_STYLE[result.outcome]} title={result.message}>
                        {result.outcome}
                        {result.outcome !== "applied" ? `: ${result.message}` : ""}
                      </span>
                    ) : (
                      <span className="text-zinc-400">pending</span>
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
