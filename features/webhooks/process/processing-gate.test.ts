import { describe, expect, it } from "vitest";
import { ProcessingGate } from "@/features/webhooks/process/processing-gate";
import type { GateClock, GateOptions } from "@/features/webhooks/process/processing-gate";

const options: GateOptions = { saturated: 0.9, sampleMs: 50, maxWaitMs: 1_000 };

/**
 * A clock whose time moves only when the gate sleeps, and an event loop whose utilization over
 * any span is the mean of `load` over it (sampled each millisecond).
 */
function fakeClock(load: (at: number) => number) {
  let now = 0;
  const slept: number[] = [];
  const clock: GateClock<number> = {
    now: () => now,
    mark: () => now,
    utilizationSince: (from) => {
      let sum = 0;
      for (let at = from; at < now; at++) sum += load(at);
      return now > from ? sum / (now - from) : 0;
    },
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  };
  return { clock, slept, advance: (ms: number) => (now += ms), now: () => now };
}

describe("the processing gate", () => {
  it("lets the first batch through at once", async () => {
    const { clock, slept } = fakeClock(() => 1);
    const gate = new ProcessingGate(options, clock);
    expect(await gate.room()).toBe("room");
    expect(slept).toEqual([]);
  });

  it("after a batch, lets the next through after one sample when the loop has room", async () => {
    const time = fakeClock(() => 0.3);
    const gate = new ProcessingGate(options, time.clock);
    gate.batchEnded();
    expect(await gate.room()).toBe("room");
    expect(time.now()).toBe(options.sampleMs);
    expect(gate.counts).toEqual({ roomy: 1, overdue: 0, waits: 0 });
  });

  it("does not wait when the loop had room since the last batch, long ago", async () => {
    const time = fakeClock(() => 0.1);
    const gate = new ProcessingGate(options, time.clock);
    gate.batchEnded();
    time.advance(5_000);
    await gate.room();
    expect(time.slept).toEqual([]);
  });

  it("holds the next batch while the loop is saturated, and never longer than maxWaitMs after the last one", async () => {
    const time = fakeClock(() => 0.97);
    const gate = new ProcessingGate(options, time.clock);
    gate.batchEnded();
    expect(await gate.room()).toBe("overdue");
    expect(time.now()).toBeGreaterThanOrEqual(options.maxWaitMs);
    expect(time.now()).toBeLessThan(options.maxWaitMs + options.sampleMs);
    expect(gate.counts.overdue).toBe(1);
    expect(gate.counts.roomy).toBe(0);
  });

  it("lets the batch through at the first sample after the saturation ends", async () => {
    const time = fakeClock((at) => (at < 300 ? 0.99 : 0.2));
    const gate = new ProcessingGate(options, time.clock);
    gate.batchEnded();
    expect(await gate.room()).toBe("room");
    // Samples of 50 ms: [0, 300) saturated, the sample [300, 350) has room.
    expect(time.now()).toBe(350);
    expect(gate.counts).toEqual({ roomy: 1, overdue: 0, waits: 6 });
  });

  it("judges each sample on its own: saturation before the wait began does not hold a batch", async () => {
    // Saturated while the batch ran and just after it; the gate samples from the batch's end.
    const time = fakeClock((at) => (at < 1_000 ? 1 : 0.1));
    const gate = new ProcessingGate(options, time.clock);
    time.advance(1_000);
    gate.batchEnded();
    await gate.room();
    expect(time.now()).toBe(1_000 + options.sampleMs);
    expect(gate.counts.roomy).toBe(1);
  });

  it("lets the next batch through at once when the loop had room even while the last one ran", async () => {
    const time = fakeClock(() => 0.6);
    const gate = new ProcessingGate(options, time.clock);
    await gate.room();
    time.advance(200); // the batch, processing and requests together at 60 %
    gate.batchEnded();
    const slept = time.slept.length;
    expect(await gate.room()).toBe("room");
    expect(time.slept.length).toBe(slept);
  });

  it("samples the loop without processing after a batch during which it was saturated", async () => {
    // Saturated while the batch ran (processing's own work included), room once it ended.
    const time = fakeClock((at) => (at < 200 ? 0.95 : 0.3));
    const gate = new ProcessingGate(options, time.clock);
    await gate.room();
    time.advance(200);
    gate.batchEnded();
    expect(await gate.room()).toBe("room");
    expect(time.now()).toBe(200 + options.sampleMs);
  });

  it("stops waiting when processing stops", async () => {
    const time = fakeClock(() => 1);
    const gate = new ProcessingGate(options, time.clock);
    gate.batchEnded();
    let stopped = false;
    const waiting = gate.room(() => stopped);
    stopped = true;
    await waiting;
    expect(time.now()).toBeLessThanOrEqual(options.sampleMs);
  });
});
