import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { PDFDocument } from "@pdfme/pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { labelsRunStream } from "./labels-run.server";
import { LabelsStreamReader } from "./labels-wire";
import type { LabelsEvent } from "./labels-wire";
import type { LabelJob } from "./picking-list";

// A labels run as the browser reads it, against a local label host standing for the platform's
// origin: the events, the PDF after them, and a browser that leaves stopping the fetching.

let server: Server;
let origin: string;
let requests = 0;
let label: Uint8Array;

beforeAll(async () => {
  const document = await PDFDocument.create();
  document.addPage([283, 425]);
  label = await document.save();
  server = createServer((request, response) => {
    requests++;
    setTimeout(() => {
      if (request.url === "/broken") response.writeHead(500).end();
      else response.writeHead(200, { "content-type": "application/pdf" }).end(label);
    }, 20);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const jobs = (count: number, broken: number[] = []): LabelJob[] =>
  Array.from({ length: count }, (_, index) => ({
    orderId: `o${index}`,
    deliveryId: `d${index}`,
    trackingNumber: `AA${index}BR`,
    url: `${origin}/${broken.includes(index) ? "broken" : `label-${index}`}`,
  }));

function run(list: LabelJob[], errors: unknown[] = []) {
  return labelsRunStream({
    jobs: list,
    skipped: [{ id: "o-gone", reason: "not_found" }],
    truncated: false,
    fetcher: { platformBaseUrl: origin, accessToken: null },
    title: "Etiquetas",
    failureMessage: "failed",
    onError: (error) => errors.push(error),
  });
}

describe("a labels run", () => {
  it("streams its start, a line per label, the end with every failure, then the PDF", async () => {
    const errors: unknown[] = [];
    const reader = new LabelsStreamReader();
    const events: LabelsEvent[] = [];
    for await (const chunk of run(jobs(12, [5]), errors) as unknown as AsyncIterable<Uint8Array>) events.push(...reader.push(chunk));
    expect(errors).toEqual([]);
    expect(events[0]).toEqual({ type: "start", total: 12, skipped: [{ id: "o-gone", reason: "not_found" }], truncated: false });
    expect(events.filter((event) => event.type === "progress")).toHaveLength(12);
    expect(events.at(-1)).toEqual({
      type: "done",
      total: 12,
      pages: 11,
      failed: [{ orderId: "o5", deliveryId: "d5", trackingNumber: "AA5BR", reason: "http_error", status: 500 }],
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
});
