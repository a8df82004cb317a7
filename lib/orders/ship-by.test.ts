import { describe, expect, it } from "vitest";
import { deadlineOf, deadlineRange, shipByOf, startOfDay, startOfNextDay } from "./ship-by";

const delivery = (status: string, limit: string) => ({ status, shipping: { handling_time: { limit_date: limit } } });

const SAO_PAULO = "America/Sao_Paulo";
/** UTC−4 all year: an hour behind São Paulo. */
const MANAUS = "America/Manaus";

describe("ship by", () => {
  it("is the earliest limit among the deliveries still to post", () => {
    const order = {
      status: "approved",
      deliveries: [
        delivery("created", "2026-11-25T15:00:00.000Z"),
        delivery("posted", "2026-11-20T15:00:00.000Z"),
        delivery("received", "2026-11-23T15:00:00.000Z"),
      ],
    };
    expect(shipByOf(order)).toBe("2026-11-23T15:00:00.000Z");
  });

  it("is none once every delivery is posted, or the order is cancelled or finished", () => {
    expect(
      shipByOf({
        status: "approved",
        deliveries: [delivery("posted", "2026-11-20T15:00:00.000Z"), delivery("delivered", "2026-11-19T15:00:00.000Z")],
      }),
    ).toBeNull();
    expect(shipByOf({ status: "cancelled", deliveries: [delivery("created", "2026-11-20T15:00:00.000Z")] })).toBeNull();
    expect(shipByOf({ status: "finished", deliveries: [delivery("created", "2026-11-20T15:00:00.000Z")] })).toBeNull();
  });
});

describe("deadline", () => {
  // 22 Nov 2026, 10:00 in São Paulo (UTC-3).
  const now = new Date("2026-11-22T13:00:00.000Z");

  it("is late once the limit has passed", () => {
    expect(deadlineOf("2026-11-22T12:59:59.000Z", now, SAO_PAULO)).toBe("late");
    expect(deadlineOf("2026-11-01T00:00:00.000Z", now, SAO_PAULO)).toBe("late");
  });

  it("is today until the end of the seller's day in São Paulo, not UTC's", () => {
    expect(deadlineOf("2026-11-22T20:00:00.000Z", now, SAO_PAULO)).toBe("today");
    // 23:30 in São Paulo is 02:30 UTC the next day: still today for the seller.
    expect(deadlineOf("2026-11-23T02:30:00.000Z", now, SAO_PAULO)).toBe("today");
    // 00:30 on the 23rd in São Paulo.
    expect(deadlineOf("2026-11-23T03:30:00.000Z", now, SAO_PAULO)).toBeNull();
  });

  it("is today by the seller's own zone: 00:30 on the 23rd in São Paulo is still the 22nd in Manaus", () => {
    // 23:30 on the 22nd in Manaus (UTC-4).
    expect(deadlineOf("2026-11-23T03:30:00.000Z", now, MANAUS)).toBe("today");
    // 00:30 on the 23rd in Manaus.
    expect(deadlineOf("2026-11-23T04:30:00.000Z", now, MANAUS)).toBeNull();
  });

  it("is nothing when there is nothing to ship", () => {
    expect(deadlineOf(null, now, SAO_PAULO)).toBeNull();
  });
});

describe("the seller's day", () => {
  it("starts at midnight in São Paulo, whatever the machine's zone", () => {
    // 22 Nov, 23:30 in São Paulo (02:30 UTC on the 23rd): the next day starts half an hour later.
    expect(startOfNextDay(new Date("2026-11-23T02:30:00.000Z"), SAO_PAULO).toISOString()).toBe("2026-11-23T03:00:00.000Z");
    expect(startOfNextDay(new Date("2026-11-22T13:00:00.000Z"), SAO_PAULO).toISOString()).toBe("2026-11-23T03:00:00.000Z");
    // 00:10 on the 23rd there.
    expect(startOfNextDay(new Date("2026-11-23T03:10:00.000Z"), SAO_PAULO).toISOString()).toBe("2026-11-24T03:00:00.000Z");
  });

  it("starts at midnight in the seller's zone: another zone has another today", () => {
    // 03:10 UTC on the 23rd is 00:10 on the 23rd in São Paulo but 23:10 on the 22nd in Manaus.
    const now = new Date("2026-11-23T03:10:00.000Z");
    expect(startOfDay(now, SAO_PAULO).toISOString()).toBe("2026-11-23T03:00:00.000Z");
    expect(startOfDay(now, MANAUS).toISOString()).toBe("2026-11-22T04:00:00.000Z");
    expect(startOfNextDay(now, MANAUS).toISOString()).toBe("2026-11-23T04:00:00.000Z");
    expect(startOfDay(now, MANAUS, -6).toISOString()).toBe("2026-11-16T04:00:00.000Z");
  });

  it("gives the ranges the deadline filters mean", () => {
    const now = new Date("2026-11-22T13:00:00.000Z");
    expect(deadlineRange("late", now, SAO_PAULO)).toEqual({ from: null, before: now });
    expect(deadlineRange("today", now, SAO_PAULO)).toEqual({ from: now, before: new Date("2026-11-23T03:00:00.000Z") });
    expect(deadlineRange("today", now, MANAUS)).toEqual({ from: now, before: new Date("2026-11-23T04:00:00.000Z") });
  });

  it("agrees with the badges: an order in the today range is badged today, one before now late", () => {
    const now = new Date("2026-11-22T13:00:00.000Z");
    for (const timeZone of [SAO_PAULO, MANAUS]) {
      const { from, before } = deadlineRange("today", now, timeZone);
      expect(deadlineOf(from!.toISOString(), now, timeZone)).toBe("today");
      expect(deadlineOf(new Date(before.getTime() - 1).toISOString(), now, timeZone)).toBe("today");
      expect(deadlineOf(before.toISOString(), now, timeZone)).toBeNull();
    }
  });
});
