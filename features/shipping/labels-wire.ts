// The labels stream's contract, imported by both sides: JSON lines, then the merged PDF's bytes.
import { z } from "zod";

export const LABEL_FAILURE_REASONS = [
  "no_url",
  /** Not http(s), or with a user name or password in it. */
  "invalid_url",
  /** Plain http to an origin other than the platform's. */
  "insecure",
  "private_address",
  /** A redirect went somewhere not allowed, or there were too many. */
  "redirect",
  "unreachable",
  "http_error",
  "too_large",
  "timeout",
  "not_pdf",
  /** A PDF that could not be read or copied. */
  "unreadable",
] as const;
export type LabelFailureReason = (typeof LABEL_FAILURE_REASONS)[number];

const failedLabelSchema = z.object({
  orderId: z.string(),
  /** The order's short reference (decision 0018). */
  orderReference: z.number().int().nullable(),
  deliveryId: z.string(),
  trackingNumber: z.string(),
  reason: z.enum(LABEL_FAILURE_REASONS),
  /** Of an http_error. */
  status: z.number().int().optional(),
});
export type FailedLabel = z.infer<typeof failedLabelSchema>;

const skippedOrderSchema = z.object({
  id: z.string(),
  reference: z.number().int().nullable(),
  reason: z.enum(["not_found", "not_approved", "nothing_to_ship"]),
  status: z.string().optional(),
});

export const labelsEventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("start"), total: z.number().int().min(0), skipped: z.array(skippedOrderSchema), truncated: z.boolean() }),
  /** `failed` holds the new failures only. */
  z.object({
    type: z.literal("progress"),
    done: z.number().int().min(0),
    total: z.number().int().min(0),
    failed: z.array(failedLabelSchema),
  }),
  /** The PDF's `pdfBytes` bytes follow this line (0: no PDF). */
  z.object({
    type: z.literal("done"),
    total: z.number().int().min(0),
    pages: z.number().int().min(0),
    failed: z.array(failedLabelSchema),
    pdfBytes: z.number().int().min(0),
  }),
  /**
   * The run stopped without a PDF. `too_large`: its labels would pass the run's caps (the seller is
   * to select fewer); `failed`: anything else. `message` is a sentence in the reader's language.
   */
  z.object({ type: z.literal("error"), reason: z.enum(["failed", "too_large"]), message: z.string() }),
]);
export type LabelsEvent = z.infer<typeof labelsEventSchema>;

const encoder = new TextEncoder();

export function encodeLabelsEvent(event: LabelsEvent): Uint8Array {
  return encoder.encode(`${JSON.stringify(event)}\n`);
}

/** Not named NDJSON: binary follows the `done` line. */
export const LABELS_STREAM_TYPE = "application/vnd.seller-dashboard.labels+jsonl";

/** However the network cuts the chunks; a line that does not match the contract throws. */
export class LabelsStreamReader {
  private pending = new Uint8Array(0);
  private readonly decoder = new TextDecoder();
  private expected: number | null = null;
  private parts: Uint8Array[] = [];
  private received = 0;

  push(chunk: Uint8Array): LabelsEvent[] {
    if (this.expected !== null) {
      this.takeBinary(chunk);
      return [];
    }
    const data = this.pending.length === 0 ? chunk : concat([this.pending, chunk]);
    const events: LabelsEvent[] = [];
    let start = 0;
    for (;;) {
      const end = data.indexOf(10, start);
      if (end === -1) break;
      const event = labelsEventSchema.parse(JSON.parse(this.decoder.decode(data.subarray(start, end))));
      events.push(event);
      start = end + 1;
      if (event.type === "done") {
        this.expected = event.pdfBytes;
        this.takeBinary(data.subarray(start));
        this.pending = new Uint8Array(0);
        return events;
      }
    }
    this.pending = data.slice(start);
    return events;
  }

  /** Null until all its bytes came, or when the run made none. */
  pdf(): Uint8Array | null {
    if (this.expected === null || this.expected === 0 || this.received < this.expected) return null;
    if (this.parts.length !== 1) this.parts = [concat(this.parts)];
    return this.parts[0]!;
  }

  private takeBinary(bytes: Uint8Array) {
    if (bytes.length === 0) return;
    this.parts.push(bytes.slice());
    this.received += bytes.length;
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const size = parts.reduce((sum, part) => sum + part.length, 0);
  const whole = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    whole.set(part, offset);
    offset += part.length;
  }
  return whole;
}
