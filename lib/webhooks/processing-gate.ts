import { performance } from "node:perf_hooks";
import type { EventLoopUtilization } from "node:perf_hooks";

// Acknowledging comes first (spec: Receiver guidance: respond quickly; a slow answer is a timeout
// the platform retries, which is more load). Processing shares the request thread with the
// receiver (WEBHOOK_PROCESSING=inline), so while that thread is saturated every batch processed
// is requests not answered. The gate makes processing wait for room: before each batch it looks
// at how busy the event loop was since the previous batch ended (processing itself idle, so what
// it sees is requests), and waits while that is above `saturated`. It never starves processing:
// a batch is let through at least every `maxWaitMs`, whatever the load. With no batch recently
// (a first event after a pause), or when the loop had room even while the last batch ran, it lets
// the batch through at once. See decision 0004.

export interface GateOptions {
  /** Event-loop utilization (0–1) at or above which processing waits. */
  saturated: number;
  /** How long a sample of the loop's utilization lasts. */
  sampleMs: number;
  /** Under saturation, a batch still goes at least this long after the previous one ended. */
  maxWaitMs: number;
}

export const DEFAULT_GATE_OPTIONS: GateOptions = { saturated: 0.8, sampleMs: 50, maxWaitMs: 500 };

/** What the gate reads: time, and how busy the event loop was since a mark. Tests give their own. */
export interface GateClock<Mark = unknown> {
  now(): number;
  mark(): Mark;
  /** The loop's utilization (0–1) from `since` until now. */
  utilizationSince(since: Mark): number;
  sleep(ms: number): Promise<void>;
}

const realClock: GateClock<EventLoopUtilization> = {
  now: () => performance.now(),
  mark: () => performance.eventLoopUtilization(),
  utilizationSince: (since) => performance.eventLoopUtilization(since).utilization,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export class ProcessingGate<Mark = unknown> {
  private lastBatchEndedAt: number | null = null;
  /** Where the batch in progress started. */
  private batch: Mark | null = null;
  private roomDuringLastBatch = false;
  /** The current sample of the loop's utilization started then. */
  private sample: { at: number; mark: Mark };
  /** Batches let through because the loop had room, and because they had waited long enough; samples that found it saturated. */
  readonly counts = { roomy: 0, overdue: 0, waits: 0 };

  constructor(
    private readonly options: GateOptions = DEFAULT_GATE_OPTIONS,
    private readonly clock: GateClock<Mark> = realClock as GateClock<Mark>,
  ) {
    this.sample = { at: clock.now(), mark: clock.mark() };
  }

  /**
   * Resolves when the next batch may start: "room" when the loop has room for it (or no batch ran
   * yet), "overdue" when it goes only because it waited `maxWaitMs` (keep it small: the loop is
   * still saturated). `stopped` ends the wait at once.
   */
  async room(stopped: () => boolean = () => false): Promise<"room" | "overdue"> {
    const reason = await this.waitForRoom(stopped);
    this.batch = this.clock.mark();
    return reason;
  }

  private async waitForRoom(stopped: () => boolean): Promise<"room" | "overdue"> {
    if (this.lastBatchEndedAt === null) return "room";
    // The loop had room even with the last batch's work in it: no need to sample it idle.
    if (this.roomDuringLastBatch) {
      this.counts.roomy++;
      return "room";
    }
    const deadline = this.lastBatchEndedAt + this.options.maxWaitMs;
    while (!stopped()) {
      const sampled = this.clock.now() - this.sample.at;
      if (sampled < this.options.sampleMs) {
        await this.clock.sleep(this.options.sampleMs - sampled);
        continue;
      }
      if (this.clock.utilizationSince(this.sample.mark) < this.options.saturated) {
        this.counts.roomy++;
        return "room";
      }
      if (this.clock.now() >= deadline) {
        this.counts.overdue++;
        return "overdue";
      }
      this.counts.waits++;
      this.startSample();
    }
    return "room";
  }

  /**
   * A batch ended. If the loop was below `saturated` while it ran, requests and processing
   * together, the next batch may go at once (a backlog drains without pauses); otherwise the next
   * sample starts now, processing idle, to see what the requests alone need.
   */
  batchEnded() {
    this.roomDuringLastBatch = this.batch !== null && this.clock.utilizationSince(this.batch) < this.options.saturated;
    this.batch = null;
    this.lastBatchEndedAt = this.clock.now();
    this.startSample();
  }

  private startSample() {
    this.sample = { at: this.clock.now(), mark: this.clock.mark() };
  }
}
