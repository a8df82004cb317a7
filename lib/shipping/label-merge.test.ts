import { PDFDocument } from "@pdfme/pdf-lib";
import { describe, expect, it } from "vitest";
import type { LabelFetchResult } from "./label-fetch.server";
import { mergeLabels } from "./label-merge";
import type { MergeProgress } from "./label-merge";
import type { LabelJob } from "./picking-list";

/** A label of `pages` pages, each `width` points wide, so the merged document shows whose page is where. */
async function labelPdf(width: number, pages = 1): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  for (let page = 0; page < pages; page++) document.addPage([width, 425]);
  return document.save();
}

const jobs = (count: number): LabelJob[] =>
  Array.from({ length: count }, (_, index) => ({
    orderId: `order-${index}`,
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
      { orderId: "order-1", deliveryId: "delivery-1", trackingNumber: "AA1BR", reason: "http_error", status: 503 },
      { orderId: "order-2", deliveryId: "delivery-2", trackingNumber: "AA2BR", reason: "unreadable" },
      { orderId: "order-4", deliveryId: "delivery-4", trackingNumber: "AA4BR", reason: "not_pdf" },
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
    const fetchLabel = async (_url: string, signal?: AbortSignal): Promise<LabelFetchResult> => {
      await pause(5);
      if (signal?.aborted) throw signal.reason;
      return { ok: false, reason: "timeout" };
    };
    setTimeout(() => controller.abort(new Error("gone")), 12);
    await expect(mergeLabels(jobs(50), fetchLabel, { concurrency: 2, signal: controller.signal })).rejects.toThrow("gone");
  });
});
