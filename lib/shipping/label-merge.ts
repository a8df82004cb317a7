// Merged in the list's order whatever order labels arrive in, each freed once copied. Fetching
// runs ahead by a bounded window, so a slow first label never makes the server hold all the others.
import { PDFDocument } from "@pdfme/pdf-lib";
import type { LabelJob } from "@/lib/shipping/picking-list";
import type { LabelFetchResult } from "@/lib/shipping/label-fetch.server";
import type { FailedLabel } from "@/lib/shipping/labels-wire";

export const LABEL_CONCURRENCY = 6;

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
}

type Fetch = (url: string, signal?: AbortSignal) => Promise<LabelFetchResult>;

const failure = (job: LabelJob, reason: FailedLabel["reason"], status?: number): FailedLabel => ({
  orderId: job.orderId,
  deliveryId: job.deliveryId,
  trackingNumber: job.trackingNumber,
  reason,
  ...(status === undefined ? {} : { status }),
});

export async function mergeLabels(jobs: readonly LabelJob[], fetchLabel: Fetch, options: MergeOptions = {}): Promise<MergedLabels> {
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
  let waiting: (() => void)[] = [];
  let merging = Promise.resolve();

  const fail = (index: number, entry: FailedLabel) => {
    failed.set(index, entry);
    unreported.push(entry);
  };

  async function mergeReady() {
    for (let result = ready.get(nextToMerge); result !== undefined; result = ready.get(nextToMerge)) {
      const index = nextToMerge;
      ready.delete(index);
      if (result.ok) {
        try {
          const label = await PDFDocument.load(result.bytes, { updateMetadata: false });
          for (const page of await merged.copyPages(label, label.getPageIndices())) merged.addPage(page);
        } catch {
          fail(index, failure(jobs[index]!, "unreadable"));
        }
      }
      nextToMerge++;
    }
    const woken = waiting;
    waiting = [];
    for (const wake of woken) wake();
  }

  async function lane() {
    for (;;) {
      if (options.signal?.aborted) throw options.signal.reason;
      const index = nextToStart;
      if (index >= jobs.length) return;
      if (index >= nextToMerge + window) {
        await new Promise<void>((resolve) => waiting.push(resolve));
        continue;
      }
      nextToStart++;
      const job = jobs[index]!;
      const result = await fetchLabel(job.url, options.signal);
      if (!result.ok) fail(index, failure(job, result.reason, result.status));
      ready.set(index, result.ok ? result : { ok: false, reason: result.reason });
      // One merge at a time: pdf-lib's document is not safe to copy into concurrently.
      merging = merging.then(mergeReady);
      await merging;
      done++;
      const report = unreported;
      unreported = [];
      options.onProgress?.({ done, total: jobs.length, failed: report });
    }
  }

  await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, lane));
  const pages = merged.getPageCount();
  return {
    pdf: pages === 0 ? null : await merged.save(),
    pages,
    failed: [...failed.entries()].sort(([a], [b]) => a - b).map(([, entry]) => entry),
  };
}
