import { describe, expect, it } from "vitest";
import { deadlineOf, deadlineRange, shipByOf, startOfNextDay } from "./ship-by";

const delivery = (status: string, limit: string) => ({ status, shipping: { handling_time: { limit_date: limit } } });

describe("ship by", () => {
  it("is the earliest limit among the deliveries still to post", () => {
    const order = {
      status: "approved",
      deliveries: [delivery("created", "2026-11-25T15:00:00.000Z"), delivery("posted", "2026-11-20T15:00:00.000Z"), delivery("received", "2026-11-23T15:00:00.000Z")],
    };
    expect(shipByOf(order)).toBe("2026-11-23T15:00:00.000Z");
  });

  it("is none once every delivery is posted, or the order is cancelled or finished", () => {
    expect(shipByOf({ status: "approved", deliveries: [delivery("posted", "2026-11-20T15:00:00.000Z"), delivery("delivered", "2026-11-19T15:00:00.000Z")] })).toBeNull();
    expect(shipByOf({ status: "cancelled", deliveries: [delivery("created", "2026-11-20T15:00:00.000Z")] })).toBeNull();
    expect(shipByOf({ status: "finished", deliveries: [delivery("created", "2026-11-20T15:00:00.000Z")] })).toBeNull();
  });
});

describe("deadline", () => {
  // 22 Nov 2026, 10:00 in São Paulo (UTC-3).
  const now = new Date("2026-11-22T13:00:00.000Z");

  it("is late once the limit has passed", () => {
    expect(deadlineOf("2026-11-22T12:59:59.000Z", now)).toBe("late");
    expect(deadlineOf("2026-11-01T00:00:00.000Z", now)).toBe("late");
  });

  it("is today until the end of the seller's day in São Paulo, not UTC's", () => {
    expect(deadlineOf("2026-11-22T20:00:00.000Z", now)).toBe("today");
    // 23:30 in São Paulo is 02:30 UTC the next day: still today for the seller.
    expect(deadlineOf("2026-11-23T02:30:00.000Z", now)).toBe("today");
    // 00:30 on the 23rd in São Paulo.
    expect(deadlineOf("2026-11-23T03:30:00.000Z", now)).toBeNull();
  });

  it("is nothing when there is nothing to ship", () => {
    expect(deadlineOf(null, now)).toBeNull();
  });
});

describe("the seller's day", () => {
  it("starts at midnight in São Paulo, whatever the machine's zone", () => {
    // 22 Nov, 23:30 in São Paulo (02:30 UTC on the 23rd): the next day starts half an hour later.
    expect(startOfNextDay(new Date("2026-11-23T02:30:00.000Z")).toISOString()).toBe("2026-11-23T03:00:00.000Z");
    expect(startOfNextDay(new Date("2026-11-22T13:00:00.000Z")).toISOString()).toBe("2026-11-23T03:00:00.000Z");
    // 00:10 on the 23rd there.
    expect(startOfNextDay(new Date("2026-11-23T03:10:00.000Z")).toISOString()).toBe("2026-11-24T03:00:00.000Z");
  });

  it("gives the ranges the deadline filters mean", () => {
    const now = new Date("2026-11-22T13:00:00.000Z");
    expect(deadlineRange("late", now)).toEqual({ from: null, before: now });
    expect(deadlineRange("today", now)).toEqual({ from: now, before: new Date("2026-11-23T03:00:00.000Z") });
  });

  it("agrees with the badges: an order in the today range is badged today, one before now late", () => {
    const now = new Date("2026-11-22T13:00:00.000Z");
    const { from, before } = deadlineRange("today", now);
    expect(deadlineOf(from!.toISOString(), now)).toBe("today");
    expect(deadlineOf(new Date(before.getTime() - 1).toISOString(), now)).toBe("today");
    expect(deadlineOf(before.toISOString(), now)).toBeNull();
  });
});
