"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
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
  const t = useTranslations("prices.bulk.progress");
  const percent = total === 0 ? 100 : Math.round((done / total) * 100);
  return (
    <div className="space-y-2 rounded-lg border border-zinc-200 bg-white p-4">
      <div className="flex justify-between text-sm">
        <span className="font-medium" data-testid="apply-status">
          {t("status", { phase, done, total })}
        </span>
        <span className="text-zinc-500">{percent}%</span>
      </div>
      <div
        role="progressbar"
        aria-label={t("label")}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-valuetext={t("valueText", { done, total })}
        className="h-2 overflow-hidden rounded-full bg-zinc-100"
      >
        <div className="h-full bg-brand-600 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-sm text-zinc-700" data-testid="outcome-counts">
        {t.rich("outcomes", {
          applied: counts.applied,
          rejected: counts.rejected,
          failed: counts.failed,
          invalid: props.invalid,
          unchanged: props.unchanged,
          appliedCount: (chunks) => <span data-testid="applied-count">{chunks}</span>,
          rejectedCount: (chunks) => <span data-testid="rejected-count">{chunks}</span>,
          failedCount: (chunks) => <span data-testid="failed-count">{chunks}</span>,
          invalidCount: (chunks) => <span data-testid="invalid-count">{chunks}</span>,
        })}
      </p>
      {slowDown && phase === "applying" ? <SlowDownNotice slowDown={slowDown} onSendNow={props.onSendNow} /> : null}
      {props.slowDownCount > 0 ? (
        <p className="text-xs text-zinc-500" data-testid="slowdown-count">
          {t("slowedDown", { count: props.slowDownCount })}
        </p>
      ) : null}
    </div>
  );
}

function SlowDownNotice({ slowDown, onSendNow }: { slowDown: SlowDown; onSendNow: () => void }) {
  const t = useTranslations("prices.bulk.progress");
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (slowDown.until === null) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [slowDown.until]);
  const seconds = slowDown.until === null ? 0 : Math.max(0, Math.ceil((slowDown.until - now) / 1000));
  const why = slowDown.reason === "rate_limited" ? t("slowRateLimited") : t("slowConnection");
  return (
    <p role="status" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="slowdown">
      {why} {seconds > 0 ? t("sendingIn", { seconds }) : t("retrying")} {t("noRowSkipped")}{" "}
      {seconds > 0 && slowDown.reason === "rate_limited" ? (
        <button type="button" onClick={onSendNow} className="ml-1 rounded border border-amber-300 bg-white px-2 py-0.5 text-xs font-medium hover:bg-amber-100">
          {t("sendNow")}
        </button>
      ) : null}
    </p>
  );
}
