import { performance } from "node:perf_hooks";
import type { EventLoopUtilization } from "node:perf_hooks";

// Acknowledging comes first (spec: Receiver guidance): inline processing shares the request thread,
// so a pass of processing waits while requests saturate the loop, but never longer than `maxWaitMs`
// after the previous pass ended (decision 0004).

export interface GateOptions {
  /** Event-loop utilization (0–1) at or above which processing waits. */
  saturated: number;
  sampleMs: number;
  /** Under saturation, a pass still goes at least this long after the previous one ended. */
  maxWaitMs: number;
}

/**
 * Five seconds: a flood that saturates the instance for a few seconds is acknowledged at the
 * thread's full rate and processed right after it; a longer one is processed every five seconds,
 * each pass catching up on everything waiting (decision 0004).
 */
export const DEFAULT_GATE_OPTIONS: GateOptions = { saturated: 0.8, sampleMs: 50, maxWaitMs: 5_000 };

/** What the gate reads; tests give their own. */
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
  private batch: Mark | null = null;
  private roomDuringLastBatch = false;
  private sample: { at: number; mark: Mark };
  /** `waits`: samples that found the loop saturated. */
  readonly counts = { roomy: 0, overdue: 0, waits: 0 };

  constructor(
    private readonly options: GateOptions = DEFAULT_GATE_OPTIONS,
    private readonly clock: GateClock<Mark> = realClock as GateClock<Mark>,
  ) {
    this.sample = { at: clock.now(), mark: clock.mark() };
  }

  /** "overdue": it goes only because it waited `maxWaitMs`, the loop still saturated. `stopped` ends the wait. */
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

  /** If the loop had room even while the batch ran, the next goes at once, so a backlog drains without pauses. */
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
