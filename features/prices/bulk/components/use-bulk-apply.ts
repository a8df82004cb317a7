"use client";

import { useTranslations } from "next-intl";
import { useCallback, useSyncExternalStore } from "react";
import {
  claimBulkUpload,
  dispatchBulkUpload,
  getBulkUploadState,
  getServerBulkUploadState,
  subscribeToBulkUpload,
} from "@/features/prices/bulk/components/bulk-upload-store";
import { previewBulkPricesAction } from "@/features/prices/bulk/actions";
import type { PreviewBulkPricesState } from "@/features/prices/bulk/actions";
import type { BulkPreview } from "@/features/prices/bulk/bulk-preview-rows";
import { buildResultsCsv } from "@/features/prices/bulk/results-csv";
import { useDisplayFormat } from "@/lib/format";
import { describeBulkMessage } from "@/features/prices/bulk/bulk-messages";
import { describeGuardReasons } from "@/features/prices/guard/guard-words";
import { refuseUploadFile, resultLines } from "@/features/prices/bulk/bulk-upload-state";

/**
 * The tab's bulk price upload for the page that shows it: its state (bulk-upload-store.ts, which
 * keeps a run going while the seller is on another page) and the seller's commands. An answer
 * arriving after the upload moved on (a newer file) is dropped by the reducer.
 */
export function useBulkApply(shop: string) {
  claimBulkUpload(shop);
  const state = useSyncExternalStore(subscribeToBulkUpload, getBulkUploadState, getServerBulkUploadState);
  const messageWords = useTranslations("prices.bulk.messages");
  const guardWords = useTranslations("prices.guard");
  const format = useDisplayFormat();

  /** Previews the file of the upload form; nothing is sent to the marketplace's create endpoint. */
  const loadFile = useCallback(
    async (formData: FormData) => {
      const refusal = refuseUploadFile(formData.get("file"));
      if (refusal !== null) {
        dispatchBulkUpload({ type: "file_refused", message: refusal });
        return;
      }
      dispatchBulkUpload({ type: "preview_requested" });
      let answer: PreviewBulkPricesState;
      try {
        answer = await previewBulkPricesAction(shop, formData);
      } catch {
        dispatchBulkUpload({ type: "preview_unanswered" });
        return;
      }
      dispatchBulkUpload(
        answer.status === "success"
          ? { type: "preview_loaded", preview: { ...answer.data, runId: crypto.randomUUID() } }
          : { type: "preview_failed", message: answer.message, problem: answer.problem },
      );
    },
    [shop],
  );

  /** An undo's preview (BulkUndoButton) takes the place of the finished run, to be applied like a file. */
  const loadUndo = useCallback(
    (preview: BulkPreview) => dispatchBulkUpload({ type: "preview_loaded", preview: { ...preview, runId: crypto.randomUUID() } }),
    [],
  );

  /** Apply, or Resume after a pause: sends the rows still without an outcome. */
  const start = useCallback(() => dispatchBulkUpload({ type: "apply_started" }), []);
  /** Ends the current rate-limit wait early ("Send now"): the seller may know the limit is over. */
  const sendNow = useCallback(() => dispatchBulkUpload({ type: "wait_skipped" }), []);
  /** The seller confirms (or not) the held changes of a product, before applying. */
  const confirm = useCallback(
    (sku: string, confirmed: boolean) => dispatchBulkUpload({ type: "confirmation_changed", skus: [sku], confirmed }),
    [],
  );

  const upload = state.upload;
  const downloadResults = useCallback(() => {
    if (!upload) return;
    // The columns and outcomes stay the file's fixed English words (a program may read them); the
    // messages are for the seller, in the page's language.
    const csv = buildResultsCsv(
      resultLines(
        upload,
        (message) => describeBulkMessage(message, messageWords),
        (reasons) => describeGuardReasons(reasons, guardWords, format),
      ),
    );
    // The BOM makes spreadsheet programs read the file as UTF-8 ("ç", "ã" in SKU codes and messages).
    const url = URL.createObjectURL(new Blob(["\uFEFF", csv], { type: "text/csv;charset=utf-8" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = "bulk-price-results.csv";
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }, [upload, messageWords, guardWords, format]);

  return { state, loadFile, loadUndo, start, sendNow, confirm, downloadResults };
}
