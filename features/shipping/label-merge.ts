// Merged in the list's order whatever order labels arrive in, each freed once copied. Fetching
// runs ahead by a bounded window, so a slow first label never makes the server hold all the others.
import { PDFDocument } from "@pdfme/pdf-lib";
import type { LabelJob } from "@/features/shipping/picking-list";
import type { LabelFetchOptions, LabelFetchResult } from "@/features/shipping/label-fetch.server";
import type { FailedLabel } from "@/features/shipping/labels-wire";

export const LABEL_CONCURRENCY = 6;

export interface LabelsRunLimits {
  /** Label bytes fetched over the whole run, whatever became of them. */
  maxBytes: number;
  /** Pages of the merged PDF. */
  maxPages: number;
}

// The largest selection (500 orders) at two 50 kB labels an order, and a run's peak stays bounded (decision 0013).
export const LABELS_RUN_LIMITS: Readonly<LabelsRunLimits> = { maxBytes: 50 * 1024 * 1024, maxPages: 1_000 };

/** The run would pass `LABELS_RUN_LIMITS`: it stopped, and kept nothing. */
export class LabelsTooLarge extends Error {
  constructor(readonly limit: keyof LabelsRunLimits) {
    super(`the labels pass the run's ${limit === "maxBytes" ? "bytes" : "pages"} cap`);
    this.name = "LabelsTooLarge";
  }
}

export interface MergeProgress {
  done: number;
  total: number;
  /** Since the last report. */
  failed: FailedLabel[];
}

export interface MergedLabels {
  /** Null when no label could be had. */
  pdf: Uint8Array | null;
  pages: number;
  failed: FailedLabel[];
}

export interface MergeOptions {
  concurrency?: number;
  /** Must not throw. */
  onProgress?: (progress: MergeProgress) => void;
  /** Stops fetching and rejects. */
  signal?: AbortSignal;
  title?: string;
  limits?: Partial<LabelsRunLimits>;
}

type Fetch = (url: string, options: LabelFetchOptions) => Promise<LabelFetchResult>;

const failure = (job: LabelJob, reason: FailedLabel["reason"], status?: number): FailedLabel => ({
  orderId: job.orderId,
  orderReference: job.orderReference,
  deliveryId: job.deliveryId,
  trackingNumber: job.trackingNumber,
  reason,
  ...(status === undefined ? {} : { status }),
});

/**
 * Rejects with `LabelsTooLarge` as soon as the run would pass a cap: before any fetch for more
 * labels than pages, else at the piece of a label that would pass the bytes, or the label that
 * would pass the pages. Either way, and when `signal` aborts, it settles only once every fetch
 * under way has stopped, holding nothing.
 */
export async function mergeLabels(jobs: readonly LabelJob[], fetchLabel: Fetch, options: MergeOptions = {}): Promise<MergedLabels> {
  const limits: LabelsRunLimits = { ...LABELS_RUN_LIMITS, ...options.limits };
  // Every label has a page at least.
  if (jobs.length > limits.maxPages) throw new LabelsTooLarge("maxPages");
  const concurrency = Math.max(1, options.concurrency ?? LABEL_CONCURRENCY);
  const window = concurrency * 4;
  const merged = await PDFDocument.create({ updateMetadata: false });
  if (options.title) merged.setTitle(options.title);

  const ready = new Map<number, LabelFetchResult>();
  const failed = new Map<number, FailedLabel>();
  let unreported: FailedLabel[] = [];
  let nextToMerge = 0;
  let nextToStart = 0;
  let done = 0;
  let fetchedBytes = 0;
  let waiting: (() => void)[] = [];
  let merging = Promise.resolve();

  const wakeWaiting = () => {
    const woken = waiting;
    waiting = [];
    for (const wake of woken) wake();
  };
  // One signal for the caller's abort, a cap, and a lane's unexpected error: the first reason wins.
  const stop = new AbortController();
  const halt = (reason: unknown) => {
    if (!stop.signal.aborted) stop.abort(reason);
  };
  const onCallerAbort = () => halt(options.signal?.reason);
  options.signal?.throwIfAborted();
  options.signal?.addEventListener("abort", onCallerAbort, { once: true });
  stop.signal.addEventListener(
    "abort",
    () => {
      ready.clear();
      wakeWaiting();
    },
    { once: true },
  );

  const claimBytes = (bytes: number): boolean => {
    if (stop.signal.aborted) return false;
    if (fetchedBytes + bytes > limits.maxBytes) {
      halt(new LabelsTooLarge("maxBytes"));
      return false;
    }
    fetchedBytes += bytes;
    return true;
  };

  const fail = (index: number, entry: FailedLabel) => {
    failed.set(index, entry);
    unreported.push(entry);
  };

  async function mergeReady() {
    for (let result = ready.get(nextToMerge); result !== undefined && !stop.signal.aborted; result = ready.get(nextToMerge)) {
      const index = nextToMerge;
      ready.delete(index);
      if (result.ok) {
        try {
          const label = await PDFDocument.load(result.bytes, { updateMetadata: false });
          if (merged.getPageCount() + label.getPageCount() > limits.maxPages) {
            halt(new LabelsTooLarge("maxPages"));
            return;
          }
          for (const page of await merged.copyPages(label, label.getPageIndices())) merged.addPage(page);
        } catch {
          fail(index, failure(jobs[index]!, "unreadable"));
        }
      }
      nextToMerge++;
    }
    wakeWaiting();
  }

  async function lane() {
    for (;;) {
      stop.signal.throwIfAborted();
      const index = nextToStart;
      if (index >= jobs.length) return;
      if (index >= nextToMerge + window) {
        await new Promise<void>((resolve) => waiting.push(resolve));
        continue;
      }
      nextToStart++;
      const job = jobs[index]!;
      const result = await fetchLabel(job.url, { signal: stop.signal, claimBytes });
      stop.signal.throwIfAborted();
      if (!result.ok) fail(index, failure(job, result.reason, result.status));
      ready.set(index, result.ok ? result : { ok: false, reason: result.reason });
      // One merge at a time: pdf-lib's document is not safe to copy into concurrently.
      merging = merging.then(mergeReady);
      await merging;
      stop.signal.throwIfAborted();
      done++;
      const report = unreported;
      unreported = [];
      options.onProgress?.({ done, total: jobs.length, failed: report });
    }
  }

  try {
    // Every lane, not the first to fail: nothing is still fetching once this settles.
    await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, () => lane().catch(halt)));
  } finally {
    options.signal?.removeEventListener("abort", onCallerAbort);
  }
  stop.signal.throwIfAborted();
  const pages = merged.getPageCount();
  return {
    pdf: pages === 0 ? null : await merged.save(),
    pages,
    failed: [...failed.entries()].sort(([a], [b]) => a - b).map(([, entry]) => entry),
  };
}
