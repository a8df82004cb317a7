import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { PDFDocument } from "@pdfme/pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { labelsRunResponse, labelsRunStream } from "./labels-run.server";
import type { LabelsRun } from "./labels-run.server";
import { LabelsStreamReader } from "./labels-wire";
import type { LabelsEvent } from "./labels-wire";
import type { LabelJob } from "./picking-list";

// A labels run as the browser reads it, against a local label host standing for the platform's
// origin: the events, the PDF after them, and a browser that leaves stopping the fetching.

let server: Server;
let origin: string;
let requests = 0;
let label: Uint8Array;
/** A label of about 40 kB, as one with a picture weighs. */
let heavyLabel: Uint8Array;

const TOO_LARGE = "These labels are too large to merge into one PDF. Select fewer orders and try again.";

beforeAll(async () => {
  const document = await PDFDocument.create();
  const page = document.addPage([283, 425]);
  label = await document.save();
  // A content stream of one comment: bytes a merge carries along, drawing nothing.
  page.node.addContentStream(document.context.register(document.context.stream(new Uint8Array(40_000).fill(0x25))));
  heavyLabel = await document.save();
  server = createServer((request, response) => {
    requests++;
    setTimeout(() => {
      if (request.url === "/broken") response.writeHead(500).end();
      else response.writeHead(200, { "content-type": "application/pdf" }).end(request.url?.startsWith("/heavy") ? heavyLabel : label);
    }, 20);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const jobs = (count: number, broken: number[] = [], kind = "label"): LabelJob[] =>
  Array.from({ length: count }, (_, index) => ({
    orderId: `o${index}`,
    orderReference: 1001 + index,
    deliveryId: `d${index}`,
    trackingNumber: `AA${index}BR`,
    url: `${origin}/${broken.includes(index) ? "broken" : `${kind}-${index}`}`,
  }));

const runOf = (list: LabelJob[], errors: unknown[] = [], more: Partial<LabelsRun> = {}): LabelsRun => ({
  jobs: list,
  skipped: [{ id: "o-gone", reference: null, reason: "not_found" }],
  truncated: false,
  fetcher: { platformBaseUrl: origin, accessToken: null },
  title: "Etiquetas",
  failureMessage: "failed",
  tooLargeMessage: TOO_LARGE,
  onError: (error) => errors.push(error),
  ...more,
});

const run = (list: LabelJob[], errors: unknown[] = [], more: Partial<LabelsRun> = {}) => labelsRunStream(runOf(list, errors, more));

/** Every event of the stream, and the PDF after them, as the browser reads them. */
async function readAll(stream: ReadableStream<Uint8Array>) {
  const reader = new LabelsStreamReader();
  const events: LabelsEvent[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) events.push(...reader.push(chunk));
  return { events, pdf: reader.pdf() };
}

describe("a labels run", () => {
  it("streams its start, a line per label, the end with every failure, then the PDF", async () => {
    const errors: unknown[] = [];
    const reader = new LabelsStreamReader();
    const events: LabelsEvent[] = [];
    for await (const chunk of run(jobs(12, [5]), errors) as unknown as AsyncIterable<Uint8Array>) events.push(...reader.push(chunk));
    expect(errors).toEqual([]);
    expect(events[0]).toEqual({
      type: "start",
      total: 12,
      skipped: [{ id: "o-gone", reference: null, reason: "not_found" }],
      truncated: false,
    });
    expect(events.filter((event) => event.type === "progress")).toHaveLength(12);
    expect(events.at(-1)).toEqual({
      type: "done",
      total: 12,
      pages: 11,
      failed: [{ orderId: "o5", orderReference: 1006, deliveryId: "d5", trackingNumber: "AA5BR", reason: "http_error", status: 500 }],
      pdfBytes: reader.pdf()!.length,
    });
    const merged = await PDFDocument.load(reader.pdf()!);
    expect(merged.getPageCount()).toBe(11);
    expect(merged.getTitle()).toBe("Etiquetas");
  });

  it("stops fetching when the browser stops reading", async () => {
    requests = 0;
    const stream = run(jobs(200)).getReader();
    const reader = new LabelsStreamReader();
    for (;;) {
      const { value } = await stream.read();
      if (value && reader.push(value).some((event) => event.type === "progress")) break;
    }
    await stream.cancel();
    const atCancel = requests;
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The fetches under way when it stopped, at most: nothing new was asked for.
    expect(requests - atCancel).toBeLessThanOrEqual(6);
    expect(requests).toBeLessThan(40);
  });

  it("stops at the run's bytes cap: fetches no further, and ends with the seller's sentence instead of a PDF", async () => {
    requests = 0;
    const errors: unknown[] = [];
    // About five 40 kB labels' worth, out of 200.
    const { events, pdf } = await readAll(run(jobs(200, [], "heavy"), errors, { limits: { maxBytes: 200_000 } }));
    expect(events.at(-1)).toEqual({ type: "error", reason: "too_large", message: TOO_LARGE });
    expect(events.some((event) => event.type === "done")).toBe(false);
    expect(pdf).toBeNull();
    expect(errors).toEqual([]);
    // The labels within the cap and the fetches under way when it was reached (six at a time).
    expect(requests).toBeLessThanOrEqual(5 + 6);
  });

  it("ends the run (onEnd) before the stream ends, whether it finished, passed a cap, or the browser left", async () => {
    let ended = 0;
    const onEnd = async () => {
      ended++;
    };
    await readAll(run(jobs(3), [], { onEnd }));
    expect(ended).toBe(1);
    await readAll(run(jobs(20, [], "heavy"), [], { onEnd, limits: { maxBytes: 100_000 } }));
    expect(ended).toBe(2);

    const stream = run(jobs(200), [], { onEnd }).getReader();
    await stream.read();
    await stream.cancel();
    expect(ended).toBe(3);
  });
});

describe("the labels route's answer", () => {
  it("refuses more labels than the PDF may have pages before fetching any, with the seller's sentence", async () => {
    requests = 0;
    const response = await labelsRunResponse({ ...runOf(jobs(11)), limits: { maxPages: 10 }, shopId: "shop", busyMessage: "busy" });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ error: TOO_LARGE });
    expect(requests).toBe(0);
  });
});
