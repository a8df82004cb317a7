"use client";

import { useEffect, useState } from "react";
import { formatCount } from "@/lib/format";
import type { ApplyPhase, SlowDown } from "@/lib/prices/bulk-upload-state";

/** The progress of applying a bulk upload: rows done, outcomes so far, and any slow-down. */
export function BulkApplyProgress(props: {
  done: number;
  total: number;
  phase: ApplyPhase["name"];
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
