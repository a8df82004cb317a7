"use client";

import { useCallback, useEffect, useReducer, useRef } from "react";
import { applyPriceBatchAction, previewBulkPricesAction } from "@/lib/actions/bulk-prices";
import type { PreviewBulkPricesState } from "@/lib/actions/bulk-prices";
import { buildResultsCsv } from "@/lib/prices/bulk-csv";
import { bulkUploadReducer, initialBulkUploadState, refuseUploadFile, resultLines } from "@/lib/prices/bulk-upload-state";

/**
 * A bulk price upload on the page: the state of lib/prices/bulk-upload-state.ts, and the requests
 * and timers its current step asks for. Each step is a batch to send through
 * `applyPriceBatchAction` or a wait to count down; the step's outcome goes back to the reducer,
 * which decides the next one. An answer arriving after the upload moved on (a newer file, or the
 * page left) is dropped, so a run ends with the page that shows it.
 */
export function useBulkApply() {
  const [state, dispatch] = useReducer(bulkUploadReducer, initialBulkUploadState);
  const phase = state.upload?.phase;
  const step = phase?.name === "applying" ? phase.step : null;
  const sendStep = step?.kind === "send" ? step : null;
  const waitStep = step?.kind === "wait" ? step : null;

  // An effect can run again for a step it has already performed (Fast Refresh re-runs effects in
  // development, and so would a hidden tree shown again); sending the batch twice would repeat
  // its requests to the platform.
  const lastSentStep = useRef(0);
  useEffect(() => {
    if (!sendStep || lastSentStep.current === sendStep.id) return;
    lastSentStep.current = sendStep.id;
    const { id, batch, backoff } = sendStep;
    applyPriceBatchAction(batch, { backoff }).then(
      (answer) => dispatch({ type: "batch_answered", stepId: id, answer, now: Date.now() }),
      () => dispatch({ type: "batch_unanswered", stepId: id, now: Date.now() }),
    );
  }, [sendStep]);

  useEffect(() => {
    if (!waitStep) return;
    const timer = setTimeout(() => dispatch({ type: "wait_ended", stepId: waitStep.id }), Math.max(0, waitStep.until - Date.now()));
    return () => clearTimeout(timer);
  }, [waitStep]);

  /** Previews the file of the upload form; nothing is sent to the marketplace's create endpoint. */
  const loadFile = useCallback(async (formData: FormData) => {
    const refusal = refuseUploadFile(formData.get("file"));
    if (refusal !== null) {
      dispatch({ type: "file_refused", message: refusal });
      return;
    }
    dispatch({ type: "preview_requested" });
    let answer: PreviewBulkPricesState;
    try {
      answer = await previewBulkPricesAction(formData);
    } catch {
      dispatch({ type: "preview_unanswered" });
      return;
    }
    dispatch(answer.status === "success" ? { type: "preview_loaded", preview: answer.data } : { type: "preview_failed", message: answer.message, problem: answer.problem });
  }, []);

  /** Apply, or Resume after a pause: sends the rows still without an outcome. */
  const start = useCallback(() => dispatch({ type: "apply_started" }), []);
  /** Ends the current rate-limit wait early ("Send now"): the seller may know the limit is over. */
  const sendNow = useCallback(() => dispatch({ type: "wait_skipped" }), []);

  const upload = state.upload;
  const downloadResults = useCallback(() => {
    if (!upload) return;
    const csv = buildResultsCsv(resultLines(upload));
    // The BOM makes spreadsheet programs read the file as UTF-8 ("ç", "ã" in SKU codes and messages).
    const url = URL.createObjectURL(new Blob(["\uFEFF", csv], { type: "text/csv;charset=utf-8" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = "bulk-price-results.csv";
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }, [upload]);

  return { state, loadFile, start, sendNow, downloadResults };
}
