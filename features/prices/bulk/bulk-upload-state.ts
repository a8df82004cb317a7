// The bulk page's state machine, pure (no React, clock or requests): the hook performs the current
// `ApplyStep` and reports back with the time, so every transition is tested here.
import type { AppliedRowResult, ApplyPriceBatchState, ApplyPriceRow } from "@/features/prices/bulk/actions";
import type { PlatformProblem } from "@/lib/platform-problem";
import { doublingDelayMs } from "./bulk-apply";
import type { BackoffState } from "./bulk-apply";
import { BULK_LIMITS } from "./bulk-csv";
import type { BulkResultLine } from "@/features/prices/bulk/results-csv";
import { verbatim } from "./bulk-messages";
import type { BulkMessage } from "./bulk-messages";
import { isHeld } from "./bulk-preview-rows";
import type { BulkPreview, PreviewRow } from "./bulk-preview-rows";
import type { GuardReason } from "../guard/price-guard";

export interface UploadNotice {
  message: BulkMessage;
  problem?: PlatformProblem;
}

export interface SlowDown {
  /** Epoch ms; null while a batch is in flight after a slow-down. */
  until: number | null;
  reason: "rate_limited" | "connection";
}

/** Each step has a new `id`, so an answer or timer meant for an earlier step is dropped. */
export type ApplyStep =
  | {
      kind: "send";
      id: number;
      batch: ApplyPriceRow[];
      backoff: BackoffState;
      /** Shown while this batch is in flight, when it follows a slow-down. */
      slowDown: SlowDown | null;
    }
  | { kind: "wait"; id: number; until: number; reason: SlowDown["reason"] };

export type ApplyPhase =
  | { name: "preview" }
  | {
      name: "applying";
      step: ApplyStep;
      /** Calls in a row that got no answer at all. */
      callFailures: number;
    }
  | { name: "paused"; reason: UploadNotice }
  | { name: "done" };

export interface Upload {
  preview: BulkPreview;
  /** SKU codes whose held rows are sent; a held row of any other product is not. */
  confirmed: ReadonlySet<string>;
  total: number;
  /** Rows without an outcome yet, in file order. */
  queue: ApplyPriceRow[];
  backoff: BackoffState;
  /** By file line. */
  results: ReadonlyMap<number, AppliedRowResult>;
  slowDownCount: number;
  phase: ApplyPhase;
}

export interface BulkUploadState {
  previewing: boolean;
  uploadError: UploadNotice | null;
  upload: Upload | null;
  lastStepId: number;
}

export type BulkUploadAction =
  | { type: "file_refused"; message: BulkMessage }
  | { type: "preview_requested" }
  | { type: "preview_loaded"; preview: BulkPreview }
  | { type: "confirmation_changed"; skus: string[]; confirmed: boolean }
  | { type: "preview_failed"; message: string; problem?: PlatformProblem }
  /** The dashboard did not answer. */
  | { type: "preview_unanswered" }
  /** Apply, or Resume after a pause. */
  | { type: "apply_started" }
  | { type: "batch_answered"; stepId: number; answer: ApplyPriceBatchState; now: number }
  /** Its rows may or may not have been applied. */
  | { type: "batch_unanswered"; stepId: number; now: number }
  | { type: "wait_ended"; stepId: number }
  /** "Send now": the seller ends a rate-limit wait early. */
  | { type: "wait_skipped" };

/** Then the page pauses and asks. */
export const MAX_CALL_FAILURES = 5;
/** Doubles with each failure in a row. */
const CALL_RETRY_BASE_MS = 2_000;

export const initialBulkUploadState: BulkUploadState = { previewing: false, uploadError: null, upload: null, lastStepId: 0 };

/** Null to upload it. The server checks again; this refuses a large file before it is sent. */
export function refuseUploadFile(file: FormDataEntryValue | null): BulkMessage | null {
  if (!(file instanceof File) || file.size === 0) return { code: "chooseFile" };
  if (file.size > BULK_LIMITS.maxFileBytes) return { code: "fileTooLarge" };
  return null;
}

function toApplyRow(row: PreviewRow, confirmed: ReadonlySet<string>): ApplyPriceRow | null {
  if (row.kind !== "changed" && row.kind !== "new") return null;
  if (isHeld(row) && !confirmed.has(row.sku)) return null;
  return {
    line: row.line,
    sku: row.sku,
    type: row.type,
    value: row.value,
    currency: row.currency,
    normalizer: row.normalizer,
    amount: row.amount,
  };
}

function newUpload(preview: BulkPreview, confirmed: ReadonlySet<string> = new Set(preview.confirmed ?? [])): Upload {
  const queue = preview.rows.flatMap((row) => toApplyRow(row, confirmed) ?? []);
  return {
    preview,
    confirmed,
    total: queue.length,
    queue,
    backoff: { rateLimitStreak: 0 },
    results: new Map(),
    slowDownCount: 0,
    phase: { name: "preview" },
  };
}

export function heldProducts(preview: BulkPreview): { sku: string; rows: PreviewRow[] }[] {
  const products = new Map<string, PreviewRow[]>();
  for (const row of preview.rows) if (isHeld(row)) products.set(row.sku, [...(products.get(row.sku) ?? []), row]);
  return [...products].map(([sku, rows]) => ({ sku, rows }));
}

/** Never loses a row: whatever the answer, a row without an outcome goes back to the head of the queue. */
function settleBatch(upload: Upload, batch: readonly ApplyPriceRow[], answer: ApplyPriceBatchState): Upload {
  const { results: outcomes, pending: returned } = answer.data ?? { results: [], pending: [] };
  const finished = new Set(outcomes.map((result) => result.line));
  const pendingLines = new Set(returned.map((row) => row.line));
  const pending = [
    ...returned.filter((row) => !finished.has(row.line)),
    ...batch.filter((row) => !finished.has(row.line) && !pendingLines.has(row.line)),
  ].sort((a, b) => a.line - b.line);
  let results = upload.results;
  if (outcomes.length > 0) {
    const next = new Map(results);
    for (const result of outcomes) next.set(result.line, result);
    results = next;
  }
  return { ...upload, results, queue: [...pending, ...upload.queue.slice(batch.length)] };
}

function withPhase(state: BulkUploadState, upload: Upload, phase: ApplyPhase, lastStepId = state.lastStepId): BulkUploadState {
  return { ...state, lastStepId, upload: { ...upload, phase } };
}

function sendNext(state: BulkUploadState, upload: Upload, slowDown: SlowDown | null, callFailures: number): BulkUploadState {
  if (upload.queue.length === 0) return withPhase(state, upload, { name: "done" });
  const id = state.lastStepId + 1;
  const batch = upload.queue.slice(0, BULK_LIMITS.maxBatchRows);
  return withPhase(
    state,
    upload,
    { name: "applying", step: { kind: "send", id, batch, backoff: upload.backoff, slowDown }, callFailures },
    id,
  );
}

function waitUntil(
  state: BulkUploadState,
  upload: Upload,
  until: number,
  reason: SlowDown["reason"],
  callFailures: number,
): BulkUploadState {
  const id = state.lastStepId + 1;
  return withPhase(state, upload, { name: "applying", step: { kind: "wait", id, until, reason }, callFailures }, id);
}

function endWait(
  state: BulkUploadState,
  upload: Upload,
  step: Extract<ApplyStep, { kind: "wait" }>,
  callFailures: number,
): BulkUploadState {
  const slowDown: SlowDown = { until: step.reason === "rate_limited" ? null : step.until, reason: step.reason };
  return sendNext(state, upload, slowDown, callFailures);
}

/** Null when there is none or its current step is not `stepId` (a stale answer or timer). */
function currentRun(state: BulkUploadState, stepId?: number) {
  const upload = state.upload;
  if (upload?.phase.name !== "applying") return null;
  if (stepId !== undefined && upload.phase.step.id !== stepId) return null;
  return { upload, step: upload.phase.step, callFailures: upload.phase.callFailures };
}

export function bulkUploadReducer(state: BulkUploadState, action: BulkUploadAction): BulkUploadState {
  switch (action.type) {
    case "file_refused":
      return { ...state, uploadError: { message: action.message } };
    case "preview_requested":
      return { ...state, previewing: true };
    case "preview_failed":
      return { ...state, previewing: false, upload: null, uploadError: { message: verbatim(action.message), problem: action.problem } };
    case "preview_unanswered":
      return {
        ...state,
        previewing: false,
        upload: null,
        uploadError: { message: { code: "previewUnanswered" } },
      };
    case "preview_loaded":
      // Answers still on their way for the previous file no longer match a step and are dropped.
      return { ...state, previewing: false, uploadError: null, upload: newUpload(action.preview) };

    case "confirmation_changed": {
      const upload = state.upload;
      if (upload?.phase.name !== "preview") return state;
      const confirmed = new Set(upload.confirmed);
      for (const sku of action.skus) {
        if (action.confirmed) confirmed.add(sku);
        else confirmed.delete(sku);
      }
      return { ...state, upload: newUpload(upload.preview, confirmed) };
    }

    case "apply_started": {
      const upload = state.upload;
      if (upload?.phase.name !== "preview" && upload?.phase.name !== "paused") return state;
      return sendNext(state, upload, null, 0);
    }

    case "batch_answered": {
      const current = currentRun(state, action.stepId);
      if (current?.step.kind !== "send") return state;
      const { answer } = action;
      const settled = settleBatch(current.upload, current.step.batch, answer);
      if (answer.status === "error") {
        return withPhase(state, settled, { name: "paused", reason: { message: verbatim(answer.message), problem: answer.problem } });
      }
      const { backoff, slowDowns, resumeAfterMs } = answer.data;
      const next = { ...settled, backoff, slowDownCount: settled.slowDownCount + slowDowns };
      // Long rate-limit waits are handed back for the page to count down.
      if (resumeAfterMs > 0) return waitUntil(state, next, action.now + resumeAfterMs, "rate_limited", 0);
      return sendNext(state, next, slowDowns > 0 ? { until: null, reason: "rate_limited" } : null, 0);
    }

    case "batch_unanswered": {
      const current = currentRun(state, action.stepId);
      if (current?.step.kind !== "send") return state;
      // Resending sets an applied row's price again, which is harmless.
      const callFailures = current.callFailures + 1;
      if (callFailures >= MAX_CALL_FAILURES) {
        return withPhase(state, current.upload, {
          name: "paused",
          reason: { message: { code: "stoppedAnswering" } },
        });
      }
      return waitUntil(state, current.upload, action.now + doublingDelayMs(callFailures, CALL_RETRY_BASE_MS), "connection", callFailures);
    }

    case "wait_ended": {
      const current = currentRun(state, action.stepId);
      if (current?.step.kind !== "wait") return state;
      return endWait(state, current.upload, current.step, current.callFailures);
    }

    case "wait_skipped": {
      const current = currentRun(state);
      if (current?.step.kind !== "wait" || current.step.reason !== "rate_limited") return state;
      return endWait(state, current.upload, current.step, current.callFailures);
    }
  }
}

export function slowDownOf(phase: ApplyPhase): SlowDown | null {
  if (phase.name !== "applying") return null;
  const { step } = phase;
  return step.kind === "wait" ? { until: step.until, reason: step.reason } : step.slowDown;
}

export function outcomeCounts(results: ReadonlyMap<number, AppliedRowResult>): Record<AppliedRowResult["outcome"], number> {
  const counts = { applied: 0, rejected: 0, failed: 0, held: 0, skipped: 0 };
  for (const result of results.values()) counts[result.outcome]++;
  return counts;
}

function resultLine(
  row: PreviewRow,
  result: AppliedRowResult | undefined,
  describe: (message: BulkMessage) => string,
  describeHeld: (reasons: GuardReason[]) => string,
  confirmed: ReadonlySet<string>,
): BulkResultLine {
  if (row.kind === "invalid") {
    return {
      line: row.line,
      sku: row.sku,
      type: row.type,
      value: row.value,
      currency: row.currency,
      outcome: "invalid",
      message: describe(row.reason),
      priceId: null,
    };
  }
  const base = { line: row.line, sku: row.sku, type: row.type, value: row.amount, currency: row.currency };
  if (row.kind === "unchanged") return { ...base, outcome: "unchanged", message: describe({ code: "unchanged" }), priceId: row.current.id };
  if (!result && isHeld(row) && !confirmed.has(row.sku)) {
    return {
      ...base,
      outcome: "held",
      message: describe({ code: "heldNotConfirmed", reasons: describeHeld(row.held ?? []) }),
      priceId: null,
    };
  }
  if (!result) return { ...base, outcome: "not_sent", message: describe({ code: "notSent" }), priceId: null };
  return { ...base, outcome: result.outcome, message: result.message, priceId: result.priceId };
}

/** Every row of the file, whatever happened to it, in file order. */
export function resultLines(
  upload: Upload,
  describe: (message: BulkMessage) => string,
  describeHeld: (reasons: GuardReason[]) => string = () => "",
): BulkResultLine[] {
  return upload.preview.rows.map((row) => resultLine(row, upload.results.get(row.line), describe, describeHeld, upload.confirmed));
}
