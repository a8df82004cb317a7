"use client";

import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { previewBulkPricesAction } from "@/features/prices/bulk/actions";
import type { PreviewBulkPricesState } from "@/features/prices/bulk/actions";
import { UploadNoticeAlert } from "@/features/prices/bulk/components/bulk-apply-progress";
import type { UploadNotice } from "@/features/prices/bulk/bulk-upload-state";
import { verbatim } from "@/features/prices/bulk/bulk-messages";
import type { BulkPreview } from "@/features/prices/bulk/bulk-preview-rows";

/**
 * "Undo" under a finished bulk change: asks the server what undoing it would send (each price back
 * to what it was, or why it stays) and hands that preview to the page, which sends it only when
 * the seller says so. Asking twice is harmless: nothing is sent here.
 */
export function BulkUndoButton({ shopId, runId, onPreview }: { shopId: string; runId: string; onPreview: (preview: BulkPreview) => void }) {
  const t = useTranslations("prices.products.bulk");
  const [pending, startTransition] = useTransition();
  const [notice, setNotice] = useState<UploadNotice | null>(null);

  const ask = () =>
    startTransition(async () => {
      const form = new FormData();
      form.set("undo", runId);
      let answer: PreviewBulkPricesState;
      try {
        answer = await previewBulkPricesAction(shopId, form);
      } catch {
        setNotice({ message: verbatim(t("undoUnanswered")) });
        return;
      }
      if (answer.status === "success") {
        setNotice(null);
        onPreview(answer.data);
      } else setNotice({ message: verbatim(answer.message), problem: answer.problem });
    });

  return (
    <>
      <button
        type="button"
        onClick={ask}
        disabled={pending}
        className="min-h-11 rounded-md border border-zinc-300 bg-white px-4 py-2 font-medium hover:bg-zinc-50 disabled:opacity-50"
      >
        {pending ? t("undoPreparing") : t("undo")}
      </button>
      {notice ? (
        <div className="w-full">
          <UploadNoticeAlert notice={notice} feature="yourCurrentPrices" />
        </div>
      ) : null}
    </>
  );
}
