import { describe, expect, it } from "vitest";
import type { Order } from "@marketplace/api/schemas/order";
import { createSandbox } from "../app";
import { SEED_USER_IDS } from "./apps-and-users";
import { RHYTHM_DAYS } from "./rhythm";
import { DAY, localWeekday, SEED_BASE_TIME, startOfLocalDay } from "./time";

// Issue 40, point 11: on a fresh start the demo shop looks like a shop that is running: orders on
// every day of the last 90 days of its clock (in São Paulo, where its days are), busier Mondays, a
// handful late, some to ship today, a few cancelled, and statuses that follow each order's age.
// The ship-by rule is the dashboard's (lib/orders/ship-by.ts), written out again: the sandbox
// imports nothing from the app.

/** Bases of different kinds: the fixed one (a Sunday morning there), a Monday evening, just after midnight, a Saturday's last minute. */
const BASES = ["2026-11-01T12:00:00.000Z", "2026-11-23T22:30:00.000Z", "2026-11-25T03:00:05.000Z", "2026-11-29T02:59:00.000Z"].map(
  Date.parse,
);

function demoShop(base: number, config: { seed?: number; seedOrders?: number } = {}): Order[] {
  const sandbox = createSandbox({ config: { seedBase: base, ...config }, startDelivery: false });
  return sandbox.store.sellerOrders(SEED_USER_IDS.seller).items;
}

const OPEN_DELIVERIES = new Set(["created", "received"]);

/** The earliest handling limit of an open order's deliveries still to post; null when nothing is left to ship. */
function shipBy(order: Order): number | null {
  if (order.status !== "new" && order.status !== "approved") return null;
  const limits = order.deliveries
    .filter((delivery) => OPEN_DELIVERIES.has(delivery.status))
    .map((delivery) => Date.parse(delivery.shipping.handling_time.limit_date));
  return limits.length === 0 ? null : Math.min(...limits);
}

const late = (orders: Order[], now: number) => orders.filter((order) => (shipBy(order) ?? Number.POSITIVE_INFINITY) < now);
const dueToday = (orders: Order[], now: number) =>
  orders.filter((order) => {
    const limit = shipBy(order);
    return limit !== null && limit >= now && limit < startOfLocalDay(now, 1);
  });

describe.each(BASES.map((base) => [new Date(base).toISOString(), base] as const))("the demo shop seeded up to %s", (_name, base) => {
  const orders = demoShop(base);
  const dayOf = (order: Order) => startOfLocalDay(Date.parse(order.created_at));

  it("has orders on each of the last 90 days, today included, and none after the base", () => {
    const days = new Set(orders.map(dayOf));
    const expected = Array.from({ length: RHYTHM_DAYS }, (_, index) => startOfLocalDay(base, index - (RHYTHM_DAYS - 1)));
    expect([...days].sort((a, b) => a - b)).toEqual(expected);
    expect(orders.every((order) => Date.parse(order.updated_at) <= base)).toBe(true);
    // Oldest first, as the store keeps them.
    expect(orders.every((order, index) => index === 0 || orders[index - 1]!.created_at <= order.created_at)).toBe(true);
  });

  it("is busier on Mondays than on any other weekday", () => {
    const perWeekday = Array.from({ length: 7 }, () => ({ orders: 0, days: new Set<number>() }));
    for (const order of orders) {
      const day = dayOf(order);
      // Today is not over: left out of the averages.
      if (day === startOfLocalDay(base)) continue;
      const entry = perWeekday[localWeekday(day)]!;
      entry.orders++;
      entry.days.add(day);
    }
    const average = perWeekday.map((entry) => entry.orders / entry.days.size);
    const monday = average[1]!;
    for (const [weekday, value] of average.entries()) if (weekday !== 1) expect(monday, `weekday ${weekday}`).toBeGreaterThan(value * 1.2);
  });

  it("has a handful of late orders: approved, their handling limit past, not posted", () => {
    const overdue = late(orders, base);
    expect(overdue.length).toBeGreaterThanOrEqual(3);
    expect(overdue.length).toBeLessThanOrEqual(6);
    for (const order of overdue) {
      expect(order.status).toBe("approved");
      expect(order.deliveries.every((delivery) => delivery.shipping.posting_date === null)).toBe(true);
      // Late by days, not months.
      expect(base - shipBy(order)!).toBeLessThan(5 * DAY);
    }
  });

  it("has approved orders to ship today, by tonight in São Paulo", () => {
    const due = dueToday(orders, base).filter((order) => order.status === "approved");
    expect(due.length).toBeGreaterThanOrEqual(3);
    for (const order of due) expect(startOfLocalDay(shipBy(order)!)).toBe(startOfLocalDay(base));
  });

  it("has a few cancelled orders, and some new ones among the latest", () => {
    const cancelled = orders.filter((order) => order.status === "cancelled");
    expect(cancelled.length).toBeGreaterThanOrEqual(2);
    expect(cancelled.length / orders.length).toBeLessThan(0.1);
    const fresh = orders.filter((order) => order.status === "new");
    expect(fresh.length).toBeGreaterThanOrEqual(2);
    for (const order of fresh) expect(base - Date.parse(order.created_at)).toBeLessThan(3 * DAY);
  });

  it("gives each order the status its age implies: old ones finished, recent ones new or on their way", () => {
    const age = (order: Order) => base - Date.parse(order.created_at);
    const old = orders.filter((order) => age(order) > 30 * DAY);
    expect(old.every((order) => order.status === "finished" || order.status === "cancelled")).toBe(true);
    expect(old.filter((order) => order.status === "finished").length / old.length).toBeGreaterThan(0.9);
    const lastDay = orders.filter((order) => age(order) < DAY);
    expect(lastDay.some((order) => order.status === "finished")).toBe(false);
    // Enough open orders for a page and more of the dashboard's table (25 a page).
    expect(orders.filter((order) => order.status === "new" || order.status === "approved").length).toBeGreaterThan(25);
    for (const order of orders.filter((candidate) => candidate.status === "finished")) {
      for (const delivery of order.deliveries) expect(Date.parse(delivery.shipping.delivery_date ?? "")).toBeLessThanOrEqual(base);
    }
  });
});

describe("the seed's base time", () => {
  it("the same seed and base give the same shop; another base moves it, another seed changes it", () => {
    const json = (orders: Order[]) => JSON.stringify(orders);
    const first = demoShop(SEED_BASE_TIME);
    expect(json(demoShop(SEED_BASE_TIME))).toBe(json(first));
    const later = demoShop(SEED_BASE_TIME + 7 * DAY);
    expect(later.at(-1)!.created_at > first.at(-1)!.created_at).toBe(true);
    expect(json(demoShop(SEED_BASE_TIME, { seed: 7 }))).not.toBe(json(first));
  });

  it("is the sandbox clock when it seeds, to the second, unless pinned; a reset seeds up to the clock again", () => {
    const before = Math.floor(Date.now() / 1000) * 1000;
    const sandbox = createSandbox({ config: { seedOrders: 100 }, startDelivery: false });
    const after = Date.now();
    const base = sandbox.context.seedBaseTime;
    expect(base).toBeGreaterThanOrEqual(before);
    expect(base).toBeLessThanOrEqual(after);
    expect(base % 1000).toBe(0);
    const orders = sandbox.store.sellerOrders(SEED_USER_IDS.seller).items;
    expect(startOfLocalDay(Date.parse(orders.at(-1)!.created_at))).toBe(startOfLocalDay(base));

    sandbox.clock.advance(3 * 86_400);
    sandbox.reset();
    expect(sandbox.context.seedBaseTime).toBeGreaterThanOrEqual(before);
    expect(sandbox.context.seedBaseTime).toBeLessThanOrEqual(Date.now());
    const pinned = createSandbox({ config: { seedOrders: 100, seedBase: SEED_BASE_TIME }, startDelivery: false });
    const seeded = JSON.stringify(pinned.store.sellerOrders(SEED_USER_IDS.seller).items);
    pinned.reset();
    expect(pinned.context.seedBaseTime).toBe(SEED_BASE_TIME);
    expect(JSON.stringify(pinned.store.sellerOrders(SEED_USER_IDS.seller).items)).toBe(seeded);
  });

  it("with fewer orders than days, spreads them over the 90 days", () => {
    const orders = demoShop(SEED_BASE_TIME, { seedOrders: 30 });
    expect(orders).toHaveLength(30);
    expect(Date.parse(orders[0]!.created_at)).toBeLessThan(SEED_BASE_TIME - 60 * DAY);
  });
});
