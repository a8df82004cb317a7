import "server-only";
import { createLabelFetcher } from "@/features/shipping/label-fetch.server";
import type { LabelFetcher, LabelFetcherOptions } from "@/features/shipping/label-fetch.server";
import { LABELS_RUN_LIMITS, LabelsTooLarge, mergeLabels } from "@/features/shipping/label-merge";
import type { LabelsRunLimits } from "@/features/shipping/label-merge";
import { tryLockLabelsRun } from "@/features/shipping/labels-lock.server";
import { encodeLabelsEvent, LABELS_STREAM_TYPE } from "@/features/shipping/labels-wire";
import type { LabelsEvent } from "@/features/shipping/labels-wire";
import type { LabelJob, SkippedOrder } from "@/features/shipping/picking-list";

// The PDF travels in the same response, so the server keeps nothing and any instance can serve a
// run (decision 0013). A browser that goes away stops the run.

export interface LabelsRun {
  jobs: readonly LabelJob[];
  skipped: readonly SkippedOrder[];
  truncated: boolean;
  fetcher: Pick<LabelFetcherOptions, "platformBaseUrl" | "accessToken" | "limits" | "lookup">;
  title: string;
  /** LABELS_RUN_LIMITS unless lowered (tests). */
  limits?: Partial<LabelsRunLimits>;
  /** Shown when the run stops on an unexpected error, which goes to `onError` (must not throw). */
  failureMessage: string;
  /** Shown when the labels would pass the run's caps: the seller is to select fewer orders. */
  tooLargeMessage: string;
  onError: (error: unknown) => void;
  /** Awaited before the stream ends, however the run ends (the browser leaving included); must not throw. */
  onEnd?: () => Promise<void>;
}

/** Cancelling it resolves once the run has stopped and `onEnd` is done. */
export function labelsRunStream(run: LabelsRun): ReadableStream<Uint8Array> {
  const stop = new AbortController();
  let ended = Promise.resolve();
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
      ended = (async () => {
        let fetcher: LabelFetcher | null = null;
        try {
          fetcher = createLabelFetcher(run.fetcher);
          emit({ type: "start", total: run.jobs.length, skipped: [...run.skipped], truncated: run.truncated });
          const merged = await mergeLabels(run.jobs, fetcher.fetch, {
            signal: stop.signal,
            title: run.title,
            limits: run.limits,
            onProgress: ({ done, total, failed }) => emit({ type: "progress", done, total, failed }),
          });
          emit(
            { type: "done", total: run.jobs.length, pages: merged.pages, failed: merged.failed, pdfBytes: merged.pdf?.length ?? 0 },
            merged.pdf ?? undefined,
          );
        } catch (error) {
          if (error instanceof LabelsTooLarge) emit({ type: "error", reason: "too_large", message: run.tooLargeMessage });
          else if (!stop.signal.aborted) {
            run.onError(error);
            emit({ type: "error", reason: "failed", message: run.failureMessage });
          }
        } finally {
          fetcher?.close();
          await run.onEnd?.();
          close();
        }
      })();
    },
    cancel(reason) {
      stop.abort(reason instanceof Error ? reason : new Error("the browser stopped reading the labels"));
      return ended;
    },
  });
}

export interface LabelsRunRequest extends Omit<LabelsRun, "onEnd"> {
  shopId: string;
  /** Answered with 409 while another run of the shop goes on. */
  busyMessage: string;
}

const STREAM_HEADERS = {
  "content-type": LABELS_STREAM_TYPE,
  "cache-control": "private, no-store, no-transform",
  // Progress lines must reach the browser as they are written, not when a proxy's buffer fills.
  "x-accel-buffering": "no",
};

/**
 * The route's answer: 422 for more labels than the merged PDF may have pages (before anything is
 * fetched), 409 while another run of the shop goes on, else the run's stream, holding the shop's
 * lock until it ends. Refusals carry the seller's sentence as `error`.
 */
export async function labelsRunResponse(request: LabelsRunRequest): Promise<Response> {
  const { shopId, busyMessage, ...run } = request;
  const maxPages = run.limits?.maxPages ?? LABELS_RUN_LIMITS.maxPages;
  // Every label has a page at least.
  if (run.jobs.length > maxPages) return Response.json({ error: run.tooLargeMessage }, { status: 422 });
  const lock = await tryLockLabelsRun(shopId);
  if (!lock) return Response.json({ error: busyMessage }, { status: 409 });
  return new Response(labelsRunStream({ ...run, onEnd: lock.release }), { headers: STREAM_HEADERS });
}
