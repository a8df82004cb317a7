import "server-only";
import { createLabelFetcher } from "@/lib/shipping/label-fetch";
import type { LabelFetcherOptions } from "@/lib/shipping/label-fetch";
import { mergeLabels } from "@/lib/shipping/label-merge";
import { encodeLabelsEvent } from "@/lib/shipping/labels-wire";
import type { LabelsEvent } from "@/lib/shipping/labels-wire";
import type { LabelJob, SkippedOrder } from "@/lib/shipping/picking-list";

// One "labels PDF" run as the response the browser reads (lib/shipping/labels-wire.ts): a line
// when it starts, one per label fetched, then the last line and the merged PDF right after it. The
// PDF travels in the same response, so nothing is kept on the server once it is sent, and any
// instance behind the load balancer can serve a run from start to end (decision 0013). A browser
// that goes away stops the run: no label is fetched for nobody.

export interface LabelsRun {
  jobs: readonly LabelJob[];
  skipped: readonly SkippedOrder[];
  truncated: boolean;
  fetcher: Pick<LabelFetcherOptions, "platformBaseUrl" | "accessToken" | "limits" | "lookup">;
  /** The merged PDF's title, in the reader's language. */
  title: string;
  /** What the browser shows when the run stops on an unexpected error (the log gets the error). */
  failureMessage: string;
  /** Told of that error; must not throw. */
  onError: (error: unknown) => void;
}

export function labelsRunStream(run: LabelsRun): ReadableStream<Uint8Array> {
  const stop = new AbortController();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      // Never throws: a stream the browser already left stops the run instead.
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
            emit({ type: "done", total: run.jobs.length, pages: merged.pages, failed: merged.failed, pdfBytes: merged.pdf?.length ?? 0 }, merged.pdf ?? undefined);
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
