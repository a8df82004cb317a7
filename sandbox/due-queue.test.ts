import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DueQueue } from "./due-queue";

describe("DueQueue", () => {
  it("pops by due time, equal times in insertion order (a stable sort)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 200 }), (dueTimes) => {
        const queue = new DueQueue<number>();
        dueTimes.forEach((at, index) => queue.push(at, index));
        const popped: number[] = [];
        for (let index = queue.popDue(Number.POSITIVE_INFINITY); index !== undefined; index = queue.popDue(Number.POSITIVE_INFINITY))
          popped.push(index);
        const expected = dueTimes
          .map((at, index) => ({ at, index }))
          .sort((a, b) => a.at - b.at || a.index - b.index)
          .map((entry) => entry.index);
        expect(popped).toEqual(expected);
        expect(queue.peekAt()).toBeUndefined();
      }),
    );
  });

  it("pops only what is due; peekAt gives the soonest due time", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 1, maxLength: 100 }),
        fc.integer({ min: 0, max: 1000 }),
        (dueTimes, now) => {
          const queue = new DueQueue<number>();
          for (const at of dueTimes) queue.push(at, at);
          expect(queue.peekAt()).toBe(Math.min(...dueTimes));
          const popped: number[] = [];
          for (let at = queue.popDue(now); at !== undefined; at = queue.popDue(now)) popped.push(at);
          expect(popped).toEqual(dueTimes.filter((at) => at <= now).sort((a, b) => a - b));
          const later = dueTimes.filter((at) => at > now);
          expect(queue.peekAt()).toBe(later.length > 0 ? Math.min(...later) : undefined);
        },
      ),
    );
  });
});
