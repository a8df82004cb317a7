import { PDFDocument } from "@pdfme/pdf-lib";
import { describe, expect, it } from "vitest";
import type { LabelFetchOptions, LabelFetchResult } from "./label-fetch.server";
import { LABELS_RUN_LIMITS, LabelsTooLarge, mergeLabels } from "./label-merge";
import type { MergeProgress } from "./label-merge";
import type { LabelJob } from "./picking-list";
import { MAX_SELECTION_ORDERS } from "./shipping-params";

/** A label of `pages` pages, each `width` points wide, so the merged document shows whose page is where. */
async function labelPdf(width: number, pages = 1): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  for (let page = 0; page < pages; page++) document.addPage([width, 425]);
  return document.save();
}

const jobs = (count: number): LabelJob[] =>
  Array.from({ length: count }, (_, index) => ({
    orderId: `order-${index}`,
    orderReference: 1001 + index,
    deliveryId: `delivery-${index}`,
    trackingNumber: `AA${index}BR`,
    url: `label-${index}`,
  }));

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function widthsOf(pdf: Uint8Array | null): Promise<number[]> {
  if (!pdf) return [];
  const document = await PDFDocument.load(pdf);
  return document.getPages().map((page) => Math.round(page.getWidth()));
}

describe("merging labels", () => {
  it("puts every label's pages in the list's order, whatever order they arrive in", async () => {
    const labels = await Promise.all(Array.from({ length: 20 }, (_, index) => labelPdf(200 + index, index === 3 ? 2 : 1)));
    const fetchLabel = async (url: string): Promise<LabelFetchResult> => {
      const index = Number(url.split("-")[1]);
      // Earlier labels come later.
      await pause(((20 - index) % 7) * 3);
      return { ok: true, bytes: labels[index]! };
    };
    const merged = await mergeLabels(jobs(20), fetchLabel, { concurrency: 5 });
    expect(merged.pages).toBe(21);
    expect(merged.failed).toEqual([]);
    const expected = Array.from({ length: 20 }, (_, index) => (index === 3 ? [203, 203] : [200 + index])).flat();
    expect(await widthsOf(merged.pdf)).toEqual(expected);
  });

  it("leaves out the labels it could not have, says why in the list's order, and reports progress up to the total", async () => {
    const good = await labelPdf(300);
    const fetchLabel = async (url: string): Promise<LabelFetchResult> => {
      const index = Number(url.split("-")[1]);
      await pause(index === 1 ? 20 : 1);
      if (index === 1) return { ok: false, reason: "http_error", status: 503 };
      if (index === 4) return { ok: false, reason: "not_pdf" };
      // A PDF header and nothing a reader can use.
      if (index === 2) return { ok: true, bytes: new TextEncoder().encode("%PDF-1.7\nthis is not a document") };
      return { ok: true, bytes: good };
    };
    const progress: MergeProgress[] = [];
    const merged = await mergeLabels(jobs(6), fetchLabel, { concurrency: 3, onProgress: (step) => progress.push(step) });
    expect(merged.pages).toBe(3);
    expect(merged.failed).toEqual([
      { orderId: "order-1", orderReference: 1002, deliveryId: "delivery-1", trackingNumber: "AA1BR", reason: "http_error", status: 503 },
      { orderId: "order-2", orderReference: 1003, deliveryId: "delivery-2", trackingNumber: "AA2BR", reason: "unreadable" },
      { orderId: "order-4", orderReference: 1005, deliveryId: "delivery-4", trackingNumber: "AA4BR", reason: "not_pdf" },
    ]);
    expect(progress.map((step) => step.done)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(progress.every((step) => step.total === 6)).toBe(true);
    // Each failure is reported once, on the way.
    expect(
      progress
        .flatMap((step) => step.failed)
        .map((entry) => entry.deliveryId)
        .sort(),
    ).toEqual(["delivery-1", "delivery-2", "delivery-4"]);
  });

  it("makes no document when no label could be had, and nothing at all for no labels", async () => {
    const merged = await mergeLabels(jobs(2), async () => ({ ok: false, reason: "timeout" }));
    expect(merged).toMatchObject({ pdf: null, pages: 0 });
    expect(merged.failed.map((entry) => entry.reason)).toEqual(["timeout", "timeout"]);
    expect(await mergeLabels([], async () => ({ ok: false, reason: "timeout" }))).toEqual({ pdf: null, pages: 0, failed: [] });
  });

  it("fetches at most `concurrency` at once, and runs ahead of a slow first label by a bounded window only", async () => {
    const good = await labelPdf(300);
    let inFlight = 0;
    let most = 0;
    let started = 0;
    let releaseFirst: () => void = () => {};
    const first = new Promise<void>((resolve) => (releaseFirst = resolve));
    const fetchLabel = async (url: string): Promise<LabelFetchResult> => {
      started++;
      inFlight++;
      most = Math.max(most, inFlight);
      if (url === "label-0") await first;
      else await pause(1);
      inFlight--;
      return { ok: true, bytes: good };
    };
    const run = mergeLabels(jobs(100), fetchLabel, { concurrency: 4 });
    await pause(200);
    // Label 0 holds everything after it: fetching stopped at the window (4 × 4) past it.
    expect(started).toBe(16);
    releaseFirst();
    const merged = await run;
    expect(merged.pages).toBe(100);
    expect(most).toBe(4);
  });

  it("stops when the caller gives up", async () => {
    const controller = new AbortController();
    const fetchLabel = async (_url: string, { signal }: LabelFetchOptions): Promise<LabelFetchResult> => {
      await pause(5);
      if (signal?.aborted) throw signal.reason;
      return { ok: false, reason: "timeout" };
    };
    setTimeout(() => controller.abort(new Error("gone")), 12);
    await expect(mergeLabels(jobs(50), fetchLabel, { concurrency: 2, signal: controller.signal })).rejects.toThrow("gone");
  });
});

describe("a run's caps", () => {
  /**
   * Labels of `size` bytes read in pieces of 10 kB, each claimed from the run as the real fetcher
   * does; `log` counts fetches started, pieces read, and fetches stopped by the run.
   */
  function pieceByPiece(label: Uint8Array, size: number) {
    const log = { started: 0, pieces: 0, stopped: 0, inFlight: 0 };
    const fetchLabel = async (_url: string, { signal, claimBytes }: LabelFetchOptions): Promise<LabelFetchResult> => {
      log.started++;
      log.inFlight++;
      try {
        for (let read = 0; read < size; read += 10_000) {
          await pause(1);
          if (claimBytes && !claimBytes(Math.min(10_000, size - read))) {
            log.stopped++;
            if (signal?.aborted) throw signal.reason;
            return { ok: false, reason: "too_large" };
          }
          log.pieces++;
        }
        return { ok: true, bytes: label };
      } finally {
        log.inFlight--;
      }
    };
    return { log, fetchLabel };
  }

  it("stop at the piece that would pass the run's bytes: no further fetch, none still under way, no progress after", async () => {
    const label = await labelPdf(300);
    const { log, fetchLabel } = pieceByPiece(label, 50_000);
    const progress: MergeProgress[] = [];
    const run = mergeLabels(jobs(100), fetchLabel, {
      concurrency: 4,
      limits: { maxBytes: 500_000 },
      onProgress: (step) => progress.push(step),
    });
    await expect(run).rejects.toEqual(new LabelsTooLarge("maxBytes"));
    // 500 kB is ten labels' worth of pieces; the fetches under way then were stopped, not finished.
    expect(log.pieces).toBe(50);
    expect(log.started).toBeLessThanOrEqual(10 + 4);
    expect(log.stopped).toBeGreaterThanOrEqual(1);
    expect(log.inFlight).toBe(0);
    expect(progress.at(-1)?.done ?? 0).toBeLessThan(11);
  });

  it("stop before the label that would pass the pages, and refuse more labels than pages before fetching any", async () => {
    const threePages = await labelPdf(300, 3);
    let fetched = 0;
    const fetchLabel = async (): Promise<LabelFetchResult> => {
      fetched++;
      await pause(1);
      return { ok: true, bytes: threePages };
    };
    await expect(mergeLabels(jobs(30), fetchLabel, { concurrency: 2, limits: { maxPages: 30 } })).rejects.toEqual(
      new LabelsTooLarge("maxPages"),
    );
    // The 11th label would pass: fetching had run ahead of it by the window (2 × 4) at most.
    expect(fetched).toBeLessThanOrEqual(11 + 8);

    fetched = 0;
    await expect(mergeLabels(jobs(11), fetchLabel, { limits: { maxPages: 10 } })).rejects.toEqual(new LabelsTooLarge("maxPages"));
    expect(fetched).toBe(0);
  });

  it("hold a run that reaches them exactly", async () => {
    const label = await labelPdf(300);
    const { log, fetchLabel } = pieceByPiece(label, 20_000);
    const merged = await mergeLabels(jobs(5), fetchLabel, { limits: { maxBytes: 100_000, maxPages: 5 } });
    expect(merged.pages).toBe(5);
    expect(log.stopped).toBe(0);
  });

  it("hold the largest selection by default: every order with two parcels of 50 kB", () => {
    expect(LABELS_RUN_LIMITS.maxPages).toBeGreaterThanOrEqual(MAX_SELECTION_ORDERS * 2);
    expect(LABELS_RUN_LIMITS.maxBytes).toBeGreaterThanOrEqual(MAX_SELECTION_ORDERS * 2 * 50_000);
  });
});
