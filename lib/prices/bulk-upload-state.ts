// The bulk price page's state machine: a file previewed against the current prices, then its
// changed and new rows applied in batches through `applyPriceBatchAction` (which runs the engine
// of ./bulk-apply.ts on the server), with the waits the platform's rate limit asks for and a pause
// when the dashboard or the platform stops the run. Pure: no React, no clock, no requests. The
// hook (components/prices/use-bulk-apply.ts) performs the current `ApplyStep` and reports how it
// went with an action, passing the time, so every transition can be tested here.
import type { AppliedRowResult, ApplyPriceBatchState, ApplyPriceRow } from "@/lib/actions/bulk-prices";
import type { PlatformProblem } from "@/lib/data/platform";
import { doublingDelayMs } from "./bulk-apply";
import type { BackoffState } from "./bulk-apply";
import { BULK_LIMITS } from "./bulk-csv";
import type { BulkResultLine } from "./bulk-csv";
import { verbatim } from "./bulk-messages";
import type { BulkMessage } from "./bulk-messages";
import { isHeld } from "./bulk-preview-rows";
import type { BulkPreview, PreviewRow } from "./bulk-preview-rows";
import type { GuardReason } from "./price-guard";

/**
 * A message for the seller, with the platform problem behind it when there is one. A code when
 * this module says it; the server action's sentence (already in the seller's language) verbatim.
 */
export interface UploadNotice {
  message: BulkMessage;
  problem?: PlatformProblem;
}

export interface SlowDown {
  /** Epoch ms when sending resumes; null while a batch is in flight after a slow-down. */
  until: number | null;
  reason: "rate_limited" | "connection";
}

/**
 * What the hook does next while applying. Each step has a new `id`, so an answer or a timer
 * meant for an earlier step (one a newer file has replaced) is recognised and dropped.
 */
export type ApplyStep =
  | {
      kind: "send";
      id: number;
      /** The first rows of the queue, at most `BULK_LIMITS.maxBatchRows`. */
      batch: ApplyPriceRow[];
      /** Where the engine resumes its rate-limit backoff (the previous answer's). */
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
      /** Calls in a row that got no answer at all (network, deploy, server restart). */
      callFailures: number;
    }
  | { name: "paused"; reason: UploadNotice }
  | { name: "done" };

/** One previewed file and what applying it has done so far. */
export interface Upload {
  preview: BulkPreview;
  /**
   * Products (SKU codes) whose held rows the seller confirmed (the price guard): their rows are
   * sent, and the server is told so; a held row of any other product is not sent.
   */
  confirmed: ReadonlySet<string>;
  /** Rows Apply sends: the changed and new prices, held ones only when confirmed. */
  total: number;
  /** Rows without an outcome yet, in file order: what Apply and Resume send. */
  queue: ApplyPriceRow[];
  backoff: BackoffState;
  /** Outcomes by file line. */
  results: ReadonlyMap<number, AppliedRowResult>;
  /** Times the run slowed down because the marketplace limited requests. */
  slowDownCount: number;
  phase: ApplyPhase;
}

export interface BulkUploadState {
  /** A preview request is in flight. */
  previewing: boolean;
  uploadError: UploadNotice | null;
  /** The file last previewed; null before the first and after a failed preview. */
  upload: Upload | null;
  /** The id of the last step handed out. */
  lastStepId: number;
}

export type BulkUploadAction =
  /** The browser refused the chosen file before uploading it (see `refuseUploadFile`). */
  | { type: "file_refused"; message: BulkMessage }
  | { type: "preview_requested" }
  | { type: "preview_loaded"; preview: BulkPreview }
  /** The seller confirms (or no longer confirms) the held changes of these products, before applying. */
  | { type: "confirmation_changed"; skus: string[]; confirmed: boolean }
  | { type: "preview_failed"; message: string; problem?: PlatformProblem }
  /** The preview request itself failed: the dashboard did not answer. */
  | { type: "preview_unanswered" }
  /** Apply, or Resume after a pause. */
  | { type: "apply_started" }
  | { type: "batch_answered"; stepId: number; answer: ApplyPriceBatchState; now: number }
  /** The batch request itself failed; its rows may or may not have been applied. */
  | { type: "batch_unanswered"; stepId: number; now: number }
  | { type: "wait_ended"; stepId: number }
  /** "Send now": the seller ends a rate-limit wait early, knowing the limit may be over. */
  | { type: "wait_skipped" };

/** After this many failed calls in a row (network, server restart) the page pauses and asks. */
export const MAX_CALL_FAILURES = 5;
/** The first wait after a failed call; doubles with each failure in a row (2, 4, 8, 16 s). */
const CALL_RETRY_BASE_MS = 2_000;

export const initialBulkUploadState: BulkUploadState = { previewing: false, uploadError: null, upload: null, lastStepId: 0 };

/** Why the browser refuses `file` before uploading it, or null to upload it. */
export function refuseUploadFile(file: FormDataEntryValue | null): BulkMessage | null {
  if (!(file instanceof File) || file.size === 0) return { code: "chooseFile" };
  // The server action checks again; checked here too, so a large file is refused before it is uploaded.
  if (file.size > BULK_LIMITS.maxFileBytes) return { code: "fileTooLarge" };
  return null;
}

/** The row to send for a preview row; null for rows that are not sent (unchanged, invalid, held and not confirmed). */
function toApplyRow(row: PreviewRow, confirmed: ReadonlySet<string>): ApplyPriceRow | null {
  if (row.kind !== "changed" && row.kind !== "new") return null;
  if (isHeld(row) && !confirmed.has(row.sku)) return null;
  return { line: row.line, sku: row.sku, type: row.type, value: row.value, currency: row.currency, normalizer: row.normalizer, amount: row.amount };
}

function newUpload(preview: BulkPreview, confirmed: ReadonlySet<string> = new Set(preview.confirmed ?? [])): Upload {
  const queue = preview.rows.flatMap((row) => toApplyRow(row, confirmed) ?? []);
  return { preview, confirmed, total: queue.length, queue, backoff: { rateLimitStreak: 0 }, results: new Map(), slowDownCount: 0, phase: { name: "preview" } };
}

/** The products whose rows the price guard holds, each once, in file order. */
export function heldProducts(preview: BulkPreview): { sku: string; rows: PreviewRow[] }[] {
  const products = new Map<string, PreviewRow[]>();
  for (const row of preview.rows) if (isHeld(row)) products.set(row.sku, [...(products.get(row.sku) ?? []), row]);
  return [...products].map(([sku, rows]) => ({ sku, rows }));
}

/**
 * Records a batch's answer. Never loses a row: whatever the answer, a row of the batch without
 * an outcome goes back to the queue, ahead of the rest (the engine's `pending` rows as it
 * returned them, with their transient failures so far).
 */
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

/** Sends the next batch of the queue, or finishes when no row is left. */
function sendNext(state: BulkUploadState, upload: Upload, slowDown: SlowDown | null, callFailures: number): BulkUploadState {
  if (upload.queue.length === 0) return withPhase(state, upload, { name: "done" });
  const id = state.lastStepId + 1;
  const batch = upload.queue.slice(0, BULK_LIMITS.maxBatchRows);
  return withPhase(state, upload, { name: "applying", step: { kind: "send", id, batch, backoff: upload.backoff, slowDown }, callFailures }, id);
}

function waitUntil(state: BulkUploadState, upload: Upload, until: number, reason: SlowDown["reason"], callFailures: number): BulkUploadState {
  const id = state.lastStepId + 1;
  return withPhase(state, upload, { name: "applying", step: { kind: "wait", id, until, reason }, callFailures }, id);
}

function endWait(state: BulkUploadState, upload: Upload, step: Extract<ApplyStep, { kind: "wait" }>, callFailures: number): BulkUploadState {
  // While the next batch is in flight the notice says "Retrying."; after a connection failure it
  // keeps the (past) time it counted down to, as the page always has.
  const slowDown: SlowDown = { until: step.reason === "rate_limited" ? null : step.until, reason: step.reason };
  return sendNext(state, upload, slowDown, callFailures);
}

/** The run in progress; null when there is none or its current step is not `stepId` (a stale answer or timer). */
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
      // A new file replaces the previous one, and any run of it: answers still on their way for
      // it no longer match the current step and are dropped.
      return { ...state, previewing: false, uploadError: null, upload: newUpload(action.preview) };

    case "confirmation_changed": {
      const upload = state.upload;
      // What is sent is settled once applying starts.
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
      // The engine hands long rate-limit waits back (spec: Limits): the page counts them down.
      if (resumeAfterMs > 0) return waitUntil(state, next, action.now + resumeAfterMs, "rate_limited", 0);
      return sendNext(state, next, slowDowns > 0 ? { until: null, reason: "rate_limited" } : null, 0);
    }

    case "batch_unanswered": {
      const current = currentRun(state, action.stepId);
      if (current?.step.kind !== "send") return state;
      // The same batch is sent again: rows it may have applied already get the same price again.
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
      // Only a rate-limit wait can be cut short; a connection retry waits for the dashboard.
      if (current?.step.kind !== "wait" || current.step.reason !== "rate_limited") return state;
      return endWait(state, current.upload, current.step, current.callFailures);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Views of the state

/** The slow-down notice of the progress panel: a wait's countdown, or the batch sent after one. */
export function slowDownOf(phase: ApplyPhase): SlowDown | null {
  if (phase.name !== "applying") return null;
  const { step } = phase;
  return step.kind === "wait" ? { until: step.until, reason: step.reason } : step.slowDown;
}

export function outcomeCounts(results: ReadonlyMap<number, AppliedRowResult>): Record<AppliedRowResult["outcome"], number> {
  const counts = { applied: 0, rejected: 0, failed: 0, held: 0 };
  for (const result of results.values()) counts[result.outcome]++;
  return counts;
}

/**
 * One line of the results file per row of the upload, whatever happened to it. `describe` words
 * this module's codes and `describeHeld` the price guard's reasons (the page passes the seller's
 * language); a row's result already is words.
 */
function resultLine(
  row: PreviewRow,
  result: AppliedRowResult | undefined,
  describe: (message: BulkMessage) => string,
  describeHeld: (reasons: GuardReason[]) => string,
  confirmed: ReadonlySet<string>,
): BulkResultLine {
  if (row.kind === "invalid") {
    return { line: row.line, sku: row.sku, type: row.type, value: row.value, currency: row.currency, outcome: "invalid", message: describe(row.reason), priceId: null };
  }
  const base = { line: row.line, sku: row.sku, type: row.type, value: row.amount, currency: row.currency };
  if (row.kind === "unchanged") return { ...base, outcome: "unchanged", message: describe({ code: "unchanged" }), priceId: row.current.id };
  if (!result && isHeld(row) && !confirmed.has(row.sku)) {
    return { ...base, outcome: "held", message: describe({ code: "heldNotConfirmed", reasons: describeHeld(row.held ?? []) }), priceId: null };
  }
  if (!result) return { ...base, outcome: "not_sent", message: describe({ code: "notSent" }), priceId: null };
  return { ...base, outcome: result.outcome, message: result.message, priceId: result.priceId };
}

/** The results file's lines: every row of the file, in file order. */
export function resultLines(upload: Upload, describe: (message: BulkMessage) => string, describeHeld: (reasons: GuardReason[]) => string = () => ""): BulkResultLine[] {
  return upload.preview.rows.map((row) => resultLine(row, upload.results.get(row.line), describe, describeHeld, upload.confirmed));
}
