import { describe, expect, it } from "vitest";
import { encodeLabelsEvent, LabelsStreamReader } from "./labels-wire";
import type { LabelsEvent } from "./labels-wire";

const EVENTS: LabelsEvent[] = [
  { type: "start", total: 3, skipped: [{ id: "o-9", reference: 1009, reason: "not_approved", status: "cancelled" }], truncated: false },
  { type: "progress", done: 1, total: 3, failed: [] },
  {
    type: "progress",
    done: 2,
    total: 3,
    failed: [{ orderId: "o-2", orderReference: 1002, deliveryId: "d-2", trackingNumber: "AA2BR", reason: "http_error", status: 503 }],
  },
  { type: "progress", done: 3, total: 3, failed: [] },
];
// Bytes that hold newlines and braces, as a PDF does.
const PDF = new TextEncoder().encode('%PDF-1.7\n{"type":"start"}\n\u00e7\n%%EOF\n');
const DONE: LabelsEvent = {
  type: "done",
  total: 3,
  pages: 2,
  failed: [{ orderId: "o-2", orderReference: 1002, deliveryId: "d-2", trackingNumber: "AA2BR", reason: "http_error", status: 503 }],
  pdfBytes: PDF.length,
};

function wire(events: LabelsEvent[], tail: Uint8Array = new Uint8Array(0)): Uint8Array {
  const parts = [...events.map(encodeLabelsEvent), tail];
  const whole = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    whole.set(part, offset);
    offset += part.length;
  }
  return whole;
}

/** Reads `bytes` cut into chunks of `size` (the network may cut anywhere, even inside a character). */
function read(bytes: Uint8Array, size: number) {
  const reader = new LabelsStreamReader();
  const events: LabelsEvent[] = [];
  for (let offset = 0; offset < bytes.length; offset += size) events.push(...reader.push(bytes.subarray(offset, offset + size)));
  return { events, pdf: reader.pdf() };
}

describe("the labels stream", () => {
  it.each([1, 2, 7, 64, 100_000])("reads the events and the PDF after them, in chunks of %i bytes", (size) => {
    const { events, pdf } = read(wire([...EVENTS, DONE], PDF), size);
    expect(events).toEqual([...EVENTS, DONE]);
    expect(pdf && [...pdf]).toEqual([...PDF]);
  });

  it("has no PDF before all of its bytes came, nor when the run made none", () => {
    expect(read(wire([...EVENTS, DONE], PDF.subarray(0, 10)), 5).pdf).toBeNull();
    expect(read(wire([{ ...DONE, pages: 0, pdfBytes: 0 }]), 3).pdf).toBeNull();
  });

  it("reads a run that stopped short: why, in a code and in the seller's words, and no PDF", () => {
    const stopped: LabelsEvent = { type: "error", reason: "too_large", message: "Select fewer orders and try again." };
    expect(read(wire([EVENTS[0]!, EVENTS[1]!, stopped]), 7)).toEqual({ events: [EVENTS[0], EVENTS[1], stopped], pdf: null });
  });

  it("refuses a line that breaks the contract", () => {
    const reader = new LabelsStreamReader();
    expect(() => reader.push(new TextEncoder().encode('{"type":"progress","done":"many"}\n'))).toThrow();
  });
});
