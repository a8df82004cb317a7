"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { ProblemNotice } from "@/components/platform/problem-notice";
import { describeBulkMessage } from "@/features/prices/bulk/bulk-messages";
import { outcomeCounts, slowDownOf } from "@/features/prices/bulk/bulk-upload-state";
import type { SlowDown, Upload, UploadNotice } from "@/features/prices/bulk/bulk-upload-state";
import type { ProblemFeature } from "@/lib/platform-problem";

/**
 * The progress of applying a bulk change (a CSV upload or a change of prices by product): rows
 * done, outcomes so far, any slow-down, and why it paused.
 */
export function BulkApplyProgress({ upload, onSendNow }: { upload: Upload; onSendNow: () => void }) {
  const t = useTranslations("prices.bulk.progress");
  const phase = upload.phase.name;
  const done = upload.results.size;
  const total = upload.total;
  const counts = outcomeCounts(upload.results);
  // An undo's rows that stay as they are were previewed as such: they are kept, not invalid.
  const undoing = upload.preview.source === "undo";
  const kept = counts.skipped + (undoing ? upload.preview.counts.invalid : 0);
  const slowDown = slowDownOf(upload.phase);
  const pauseReason = upload.phase.name === "paused" ? upload.phase.reason : null;
  const percent = total === 0 ? 100 : Math.round((done / total) * 100);
  return (
    <>
      <div className="space-y-2 rounded-lg border border-zinc-200 bg-white p-4">
        <div className="flex justify-between text-sm">
          <span className="font-medium" data-testid="apply-status">
            {t("status", { phase, done, total })}
          </span>
          <span className="text-zinc-600">{percent}%</span>
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
            invalid: undoing ? 0 : upload.preview.counts.invalid,
            unchanged: upload.preview.counts.unchanged,
            appliedCount: (chunks) => <span data-testid="applied-count">{chunks}</span>,
            rejectedCount: (chunks) => <span data-testid="rejected-count">{chunks}</span>,
            failedCount: (chunks) => <span data-testid="failed-count">{chunks}</span>,
            invalidCount: (chunks) => <span data-testid="invalid-count">{chunks}</span>,
          })}
        </p>
        {counts.held > 0 ? (
          <p className="text-sm text-amber-900" data-testid="held-count">
            {t("heldOnSend", { count: counts.held })}
          </p>
        ) : null}
        {kept > 0 ? (
          <p className="text-sm text-zinc-700" data-testid="skipped-count">
            {t("skippedOnSend", { count: kept })}
          </p>
        ) : null}
        {slowDown && phase === "applying" ? <SlowDownNotice slowDown={slowDown} onSendNow={onSendNow} /> : null}
        {upload.slowDownCount > 0 ? (
          <p className="text-xs text-zinc-600" data-testid="slowdown-count">
            {t("slowedDown", { count: upload.slowDownCount })}
          </p>
        ) : null}
      </div>
      {pauseReason ? <UploadNoticeAlert notice={pauseReason} feature="priceUpdates" /> : null}
    </>
  );
}

/**
 * Why a bulk change stopped or could not start: the platform's problem explained with what fixes
 * it, or the bulk module's own message in the seller's language.
 */
export function UploadNoticeAlert({ notice, feature }: { notice: UploadNotice; feature: ProblemFeature }) {
  const messageWords = useTranslations("prices.bulk.messages");
  if (notice.problem && notice.problem.kind !== "error") return <ProblemNotice problem={notice.problem} feature={feature} />;
  return (
    <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900">
      {describeBulkMessage(notice.message, messageWords)}
    </p>
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
        <button
          type="button"
          onClick={onSendNow}
          className="ml-1 rounded border border-amber-300 bg-white px-2 py-0.5 text-xs font-medium hover:bg-amber-100"
        >
          {t("sendNow")}
        </button>
      ) : null}
    </p>
  );
}
