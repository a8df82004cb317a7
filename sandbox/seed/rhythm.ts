// The demo shops' order history, planned relative to the seed's base time: orders on every day of
// the last 90 days in the shop's time zone, more on Mondays and in the evenings, more lately than
// long ago; each order's steps (approval, label, posting, delivery) follow from its age, so old
// orders are delivered and recent ones new or on their way. A handful are late (approved, their
// handling limit past, not posted), a few are due to ship today, a few were cancelled. What a
// seller sees on the first start is a shop that is running (sandbox/README.md, "The demo shops").
import type { DeliveryStatus, OrderStatus } from "@marketplace/api/schemas/order";
import type { SeededRandom } from "../random";
import { DAY, HOUR, localWeekday, MINUTE, startOfLocalDay } from "./time";

/** When each step of an order happened, as the rhythm planned it (null: not yet, as of the base time). */
export interface OrderSteps {
  approvedAt: number | null;
  cancelledAt: number | null;
  /** The stage of the platform's deliveries; a seller-arranged one maps to it (posted → shipped). */
  deliveryStatus: DeliveryStatus;
  labelRequestedAt: number;
  labelGeneratedAt: number;
  postedAt: number | null;
  deliveredAt: number | null;
  handlingDays: number;
  /** `handling_time.limit_date`: the last second of the day the parcel must be posted by, in the shop's zone. */
  handlingLimitAt: number;
}

export interface OrderTimeline {
  createdAt: number;
  status: OrderStatus;
  /** Set by the rhythm; without it, generateOrder (orders.ts) draws the steps from the status. */
  steps?: OrderSteps;
}

/** Days of history, today included: every one has orders when there are at least this many. */
export const RHYTHM_DAYS = 90;
/** Open orders made late on purpose (approved, limit past, not posted): "a handful". */
export const LATE_ORDERS = 4;
/** Approved orders due to be posted today, at least: the shipping morning has work. */
export const DUE_TODAY_ORDERS = 4;
/** New (not yet approved) orders among the latest, at least. */
export const NEW_ORDERS = 3;

/** Sunday … Saturday. Monday is the busy day (weekend browsing turns into orders); weekends are quiet. */
const WEEKDAY_WEIGHTS = [0.8, 1.8, 1.1, 1.05, 1, 0.95, 0.75] as const;
/** By hour of the local day: quiet nights, a lunch peak, and the evening's, the biggest. */
const HOUR_WEIGHTS = [
  0.3, 0.2, 0.1, 0.1, 0.1, 0.2, 0.4, 0.7, 1, 1.2, 1.3, 1.4, 1.6, 1.4, 1.2, 1.1, 1.1, 1.2, 1.4, 1.7, 1.9, 1.8, 1.3, 0.7,
] as const;
const CANCELLED_SHARE = 0.04;
/** The oldest day's weight against today's: a shop that grew over the quarter. */
const OLDEST_DAY_WEIGHT = 0.45;

/**
 * Local day starts around the base, so that each order's day is a binary search rather than a
 * time zone lookup (100,000 orders seed in a few seconds).
 */
class LocalDays {
  /** starts[i] is midnight of day `i - before` from the base's day. */
  private readonly starts: number[];
  constructor(
    base: number,
    private readonly before: number,
    after: number,
  ) {
    this.starts = Array.from({ length: before + after + 1 }, (_, index) => startOfLocalDay(base, index - before));
  }
  /** Midnight of day `offset` (0 = the base's day, −1 = the day before). */
  start(offset: number): number {
    const value = this.starts[offset + this.before];
    if (value === undefined) throw new Error(`day ${offset} is outside the planned range`);
    return value;
  }
  /** The offset of the day holding `instant`. */
  offsetOf(instant: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.starts[middle] ?? 0) <= instant) low = middle;
      else high = middle - 1;
    }
    return low - this.before;
  }
  /** The last second of day `offset`. */
  lastSecond(offset: number): number {
    return this.start(offset + 1) - 1000;
  }
}

/** `total` split over `weights`, each part at least `minimum`, the rest by largest remainder. */
function apportion(total: number, weights: readonly number[], minimum: number): number[] {
  const counts = weights.map(() => minimum);
  const left = total - minimum * weights.length;
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((weight) => (sum === 0 ? 0 : (left * weight) / sum));
  exact.forEach((share, index) => (counts[index] = (counts[index] ?? 0) + Math.floor(share)));
  const given = counts.reduce((a, b) => a + b, 0);
  const byRemainder = exact
    .map((share, index) => ({ index, rest: share - Math.floor(share) }))
    .sort((a, b) => b.rest - a.rest || a.index - b.index);
  for (let i = 0; i < total - given; i++) {
    const target = byRemainder[i % byRemainder.length];
    if (target) counts[target.index] = (counts[target.index] ?? 0) + 1;
  }
  return counts;
}

function weightedIndex(random: SeededRandom, weights: readonly number[]): number {
  const sum = weights.reduce((a, b) => a + b, 0);
  let roll = random.next() * sum;
  for (let index = 0; index < weights.length; index++) {
    roll -= weights[index] ?? 0;
    if (roll < 0) return index;
  }
  return weights.length - 1;
}

/** An order as planned, before it is read as of the base time. Times after the base have not happened yet. */
interface Plan {
  createdAt: number;
  approvalAt: number;
  cancelAt: number | null;
  labelRequestedAt: number;
  labelGeneratedAt: number;
  postedAt: number;
  deliveredAt: number;
  handlingDays: number;
  handlingLimitAt: number;
  /** The carrier has the parcel's label (platform `received`) while it is still to post. */
  received: boolean;
  late: boolean;
}

/**
 * `count` orders' timelines, oldest first, all at or before `base`. Deterministic for a given
 * generator state and base.
 */
export function planShopOrders(count: number, base: number, random: SeededRandom): OrderTimeline[] {
  if (count <= 0) return [];
  // Day 0 is the base's: at midnight it has no past yet, and its one order is made at the base itself.
  const days = new LocalDays(base, RHYTHM_DAYS + 2, 12);
  const firstDay = -(RHYTHM_DAYS - 1);

  // How many orders each day: weekday × growth × a day's luck; today only for the hours gone by.
  const weights = Array.from({ length: RHYTHM_DAYS }, (_, index) => {
    const offset = firstDay + index;
    const start = days.start(offset);
    const growth = OLDEST_DAY_WEIGHT + (1 - OLDEST_DAY_WEIGHT) * (index / (RHYTHM_DAYS - 1));
    const elapsed = offset === 0 ? (base - start) / (days.start(1) - start) : 1;
    return (WEEKDAY_WEIGHTS[localWeekday(start)] ?? 1) * growth * (0.8 + 0.4 * random.next()) * elapsed;
  });
  const perDay = apportion(count, weights, count >= RHYTHM_DAYS ? 1 : 0);

  const created: number[] = [];
  perDay.forEach((orders, index) => {
    const start = days.start(firstDay + index);
    const end = Math.min(days.start(firstDay + index + 1), base);
    const times: number[] = [];
    for (let i = 0; i < orders; i++) {
      const hour = weightedIndex(random, HOUR_WEIGHTS);
      let at = start + hour * HOUR + Math.floor(random.next() * HOUR);
      if (at >= end) at = start + Math.floor(random.next() * (end - start));
      times.push(at);
    }
    created.push(...times.sort((a, b) => a - b));
  });

  const limitAfter = (approvalAt: number, handlingDays: number) => days.lastSecond(days.offsetOf(approvalAt) + handlingDays);
  const plans = created.map((createdAt): Plan => {
    // Card payments are approved within minutes; Pix and boleto can take hours or a day or more.
    const approvalAt =
      createdAt + (random.chance(0.7) ? random.int(5, 90) * MINUTE : random.int(2, 40) * HOUR + random.int(0, 59) * MINUTE);
    const handlingDays = random.int(1, 3);
    const handlingLimitAt = limitAfter(approvalAt, handlingDays);
    const labelRequestedAt = approvalAt + random.int(10, 240) * MINUTE;
    const labelGeneratedAt = labelRequestedAt + random.int(1, 10) * MINUTE;
    // Posted on time, somewhere between the label and the handling limit; delivered 3 to 14 days later.
    const postedAt = labelGeneratedAt + Math.floor(random.next() * Math.max(0, handlingLimitAt - labelGeneratedAt - HOUR));
    const deliveredAt = postedAt + random.int(3, 14) * DAY + random.int(0, 12) * HOUR;
    const cancelAt = random.chance(CANCELLED_SHARE) ? Math.min(createdAt + random.int(20, 24 * 60) * MINUTE, postedAt - 5 * MINUTE) : null;
    return {
      createdAt,
      approvalAt,
      cancelAt,
      labelRequestedAt,
      labelGeneratedAt,
      postedAt,
      deliveredAt,
      handlingDays,
      handlingLimitAt,
      received: random.chance(0.5),
      late: false,
    };
  });

  const today = days.start(0);
  const cancelled = (plan: Plan) => plan.cancelAt !== null && plan.cancelAt <= base;
  const isNew = (plan: Plan) => !cancelled(plan) && plan.approvalAt > base;
  const isOpenApproved = (plan: Plan) => !cancelled(plan) && plan.approvalAt <= base && plan.postedAt > base;
  const dueToday = (plan: Plan) => plan.handlingLimitAt >= today && plan.handlingLimitAt < days.start(1);
  const notYet = Number.POSITIVE_INFINITY;

  // The latest orders are the ones still waiting for their payment.
  let newOrders = plans.filter(isNew).length;
  for (let index = plans.length - 1; index >= 0 && newOrders < NEW_ORDERS; index--) {
    const plan = plans[index];
    if (!plan || base - plan.createdAt > 2 * DAY) break;
    if (cancelled(plan) || isNew(plan)) continue;
    plan.approvalAt = base + random.int(1, 12) * HOUR;
    plan.handlingLimitAt = limitAfter(plan.approvalAt, plan.handlingDays);
    plan.labelRequestedAt = plan.approvalAt + random.int(10, 240) * MINUTE;
    plan.labelGeneratedAt = plan.labelRequestedAt + random.int(1, 10) * MINUTE;
    plan.postedAt = notYet;
    plan.deliveredAt = notYet;
    newOrders++;
  }

  // A handful late: approved a few days ago, their limit passed in the last four days, not posted.
  // A shop with few orders may have fewer such: then the ones whose limit passed most recently.
  const overdue = plans
    .filter((plan) => !cancelled(plan) && !isNew(plan) && plan.handlingLimitAt < today)
    .sort((a, b) => b.handlingLimitAt - a.handlingLimitAt);
  const recent = overdue.filter((plan) => plan.handlingLimitAt >= days.start(-4));
  const lateOnes = [...random.shuffle(recent), ...overdue.slice(recent.length)].slice(0, LATE_ORDERS);
  for (const plan of lateOnes) {
    plan.late = true;
    plan.postedAt = notYet;
    plan.deliveredAt = notYet;
  }

  // A few due today: approved on one of the last three days, limit tonight, not posted yet.
  let due = plans.filter((plan) => isOpenApproved(plan) && dueToday(plan)).length;
  const dueCandidates = plans.filter((plan) => {
    if (plan.late || cancelled(plan) || isNew(plan) || (isOpenApproved(plan) && dueToday(plan))) return false;
    const approvalDay = days.offsetOf(plan.approvalAt);
    return approvalDay >= -3 && approvalDay <= -1;
  });
  for (const plan of random.shuffle(dueCandidates)) {
    if (due >= DUE_TODAY_ORDERS) break;
    plan.handlingDays = -days.offsetOf(plan.approvalAt);
    plan.handlingLimitAt = days.lastSecond(0);
    plan.postedAt = notYet;
    plan.deliveredAt = notYet;
    due++;
  }

  return plans.map((plan) => timelineAt(plan, base));
}

/** The order as of `base`: whatever is later has not happened. */
function timelineAt(plan: Plan, base: number): OrderTimeline {
  const happened = (at: number | null) => (at !== null && at <= base ? at : null);
  const cancelledAt = happened(plan.cancelAt);
  const approvedAt = happened(plan.approvalAt);
  const postedAt = cancelledAt === null ? happened(plan.postedAt) : null;
  const deliveredAt = postedAt === null ? null : happened(plan.deliveredAt);
  const status: OrderStatus =
    cancelledAt !== null ? "cancelled" : approvedAt === null ? "new" : deliveredAt !== null ? "finished" : "approved";
  const deliveryStatus: DeliveryStatus =
    deliveredAt !== null ? "delivered" : postedAt !== null ? "posted" : status === "approved" && plan.received ? "received" : "created";
  return {
    createdAt: plan.createdAt,
    status,
    steps: {
      approvedAt: cancelledAt !== null && approvedAt !== null && approvedAt > cancelledAt ? null : approvedAt,
      cancelledAt,
      deliveryStatus,
      // A label is not asked for after the order was cancelled, nor after the base.
      labelRequestedAt: Math.min(plan.labelRequestedAt, cancelledAt ?? base),
      labelGeneratedAt: Math.min(plan.labelGeneratedAt, cancelledAt ?? base),
      postedAt,
      deliveredAt,
      handlingDays: plan.handlingDays,
      handlingLimitAt: plan.handlingLimitAt,
    },
  };
}
