import { describe, expect, it } from "vitest";
import { deadlineOf, shipByOf } from "./ship-by";

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
