import "server-only";
import { createLabelFetcher } from "@/lib/shipping/label-fetch.server";
import type { LabelFetcherOptions } from "@/lib/shipping/label-fetch.server";
import { mergeLabels } from "@/lib/shipping/label-merge";
import { encodeLabelsEvent } from "@/lib/shipping/labels-wire";
import type { LabelsEvent } from "@/lib/shipping/labels-wire";
import type { LabelJob, SkippedOrder } from "@/lib/shipping/picking-list";

// The PDF travels in the same response, so the server keeps nothing and any instance can serve a
// run (decision 0013). A browser that goes away stops the run.

export interface LabelsRun {
  jobs: readonly LabelJob[];
  skipped: readonly SkippedOrder[];
  truncated: boolean;
  fetcher: Pick<LabelFetcherOptions, "platformBaseUrl" | "accessToken" | "limits" | "lookup">;
  title: string;
  /** Shown when the run stops on an unexpected error, which goes to `onError` (must not throw). */
  failureMessage: string;
  onError: (error: unknown) => void;
}

export function labelsRunStream(run: LabelsRun): ReadableStream<Uint8Array> {
  const stop = new AbortController();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      // A stream the browser already left stops the run instead of throwing.
      const emit = (event: LabelsEvent, bytes?: Uint8Array) => {
        if (stop.signal.aborted) return;
        try {
          controller.enqueue(encodeLabelsEvent(event));
          if (bytes) controller.enqueue(bytes);
        } catch (error) {
          stop.abort(error);
        }
      };
      const close = () => {
        if (stop.signal.aborted) return;
        try {
          controller.close();
        } catch {
          // Already closed by the other side.
        }
      };
      const fetcher = createLabelFetcher(run.fetcher);
      emit({ type: "start", total: run.jobs.length, skipped: [...run.skipped], truncated: run.truncated });
      void mergeLabels(run.jobs, fetcher.fetch, {
        signal: stop.signal,
        title: run.title,
        onProgress: ({ done, total, failed }) => emit({ type: "progress", done, total, failed }),
      })
        .then(
          (merged) => {
            emit(
              { type: "done", total: run.jobs.length, pages: merged.pages, failed: merged.failed, pdfBytes: merged.pdf?.length ?? 0 },
              merged.pdf ?? undefined,
            );
            close();
          },
          (error: unknown) => {
            if (stop.signal.aborted) return;
            run.onError(error);
            emit({ type: "error", message: run.failureMessage });
            close();
          },
        )
        .finally(() => fetcher.close());
    },
    cancel(reason) {
      stop.abort(reason instanceof Error ? reason : new Error("the browser stopped reading the labels"));
    },
  });
}
