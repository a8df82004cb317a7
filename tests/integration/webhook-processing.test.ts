import { randomUUID } from "node:crypto";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Queue from "@/features/webhooks/process/queue.server";
import type * as Bus from "@/features/webhooks/live/live.server";
import type * as Notifications from "@/lib/db-notifications.server";
import type * as Processing from "@/features/webhooks/process/process.server";
import { connect, useTestDatabase } from "../support/database";

// The processing queue and the live channel against a real PostgreSQL: what makes several
// dashboard instances safe on one database. Instances are told apart by their instance id (the
// claims) and by their connections (LISTEN/NOTIFY).
let sql: pg.Client;
let shopId: string;
let queue: typeof Queue;
let processing: typeof Processing;
let bus: typeof Bus;
let notifications: typeof Notifications;

beforeAll(async () => {
  const url = await useTestDatabase();
  sql = await connect(url);
  queue = await import("@/features/webhooks/process/queue.server");
  processing = await import("@/features/webhooks/process/process.server");
  bus = await import("@/features/webhooks/live/live.server");
  notifications = await import("@/lib/db-notifications.server");
  shopId = `seller-${randomUUID()}`;
  await sql.query(`INSERT INTO "Seller" ("id", "email", "name", "updatedAt") VALUES ($1, $2, 'Loja Teste', now())`, [
    shopId,
    `${shopId}@example.com`,
  ]);
}, 60_000);

afterAll(async () => {
  await notifications.closeNotifications();
  await sql?.end();
});

/**
 * Inserts events as the receiver would have, `ageSeconds` old: SKU confirmations, whose processing
 * needs no platform call (tests/integration/durable-processing.test.ts covers those that do). "pending" ones are queued, claimed
 * by `claimedBy` (or nobody) and available from `availableSecondsAgo` ago (a lease that expired, or
 * with a negative value one still running); other states are finished.
 */
async function insertEvents(
  count: number,
  options: { ageSeconds?: number; state?: string; claimedBy?: string; availableSecondsAgo?: number } = {},
) {
  const ids = Array.from({ length: count }, () => randomUUID());
  const state = options.state ?? "pending";
  const ageSeconds = options.ageSeconds ?? 60;
  await sql.query(
    `INSERT INTO "WebhookEvent" ("id", "sellerId", "receivedAt", "lastReceivedAt", "domain", "status", "resourceId", "rawBody", "bodyHash",
       "headers", "signatureResult", "valid", "processingState")
     SELECT id, $2, (now() AT TIME ZONE 'UTC') - make_interval(secs => $3), (now() AT TIME ZONE 'UTC'), 'portfolio.sku', 'created', id,
            '{}', id, '{}', 'valid', true, $4
     FROM unnest($1::text[]) AS id`,
    [ids, shopId, ageSeconds, state],
  );
  if (state === "pending") {
    await sql.query(
      `INSERT INTO "WebhookWork" ("eventId", "claimedBy", "availableAt")
       SELECT id, $2, (now() AT TIME ZONE 'UTC') - make_interval(secs => $3) FROM unnest($1::text[]) AS id`,
      [ids, options.claimedBy ?? null, options.availableSecondsAgo ?? ageSeconds - 2],
    );
  }
  return ids;
}

/** The event's state, and who holds its queue row ("queued" false once it left the queue). */
const statesOf = async (ids: string[]) =>
  (
    await sql.query<{ processingState: string; queued: boolean; claimedBy: string | null }>(
      `SELECT e."processingState", w."eventId" IS NOT NULL AS queued, w."claimedBy"
       FROM "WebhookEvent" e LEFT JOIN "WebhookWork" w ON w."eventId" = e."id" WHERE e."id" = ANY($1)`,
      [ids],
    )
  ).rows;

const PROCESSED = { processingState: "processed", queued: false, claimedBy: null };
const heldBy = (instance: string) => ({ processingState: "pending", queued: true, claimedBy: instance });

describe("claiming events", () => {
  it("never gives one event to two instances claiming at the same time", async () => {
    const ids = await insertEvents(1_000);
    const claims = await Promise.all(
      ["instance-a", "instance-b", "instance-a", "instance-b", "instance-a", "instance-b"].map((instance) =>
        queue.claimDueEvents(instance, 100),
      ),
    );
    let more = await Promise.all([queue.claimDueEvents("instance-a", 1_000), queue.claimDueEvents("instance-b", 1_000)]);
    const all = [...claims, ...more].flat().map((event) => event.id);
    expect(new Set(all).size).toBe(all.length);
    expect(new Set(all)).toEqual(new Set(ids));
    more = await Promise.all([queue.claimDueEvents("instance-a", 10), queue.claimDueEvents("instance-b", 10)]);
    expect(more.flat()).toEqual([]);
    await sql.query(`DELETE FROM "WebhookEvent" WHERE "id" = ANY($1)`, [ids]);
  });

  it("gives a new event to the instance that received it, in the statement that stores it", async () => {
    const { insertWebhookEvent } = await import("@/features/webhooks/store.server");
    const { parseWebhookBody } = await import("@/features/webhooks/parse");
    const body = JSON.stringify({ data: { domain: "order.order", status: "new", order_id: randomUUID() } });
    const event = { sellerId: shopId, receivedAt: new Date(), rawBody: body, headers: {}, parsed: parseWebhookBody(body) };
    const claimed = await insertWebhookEvent({ ...event, bodyHash: randomUUID(), claimedBy: "receiver" });
    const unclaimed = await insertWebhookEvent({ ...event, bodyHash: randomUUID(), claimedBy: null });
    expect(await statesOf([claimed.id])).toEqual([heldBy("receiver")]);
    expect(await statesOf([unclaimed.id])).toEqual([{ processingState: "pending", queued: true, claimedBy: null }]);
    // Nobody else takes the claimed one; the unclaimed one waits for its receiver a moment first.
    expect(await queue.claimDueEvents("sweeper", 10)).toEqual([]);
    await sql.query(`DELETE FROM "WebhookEvent" WHERE "id" = ANY($1)`, [[claimed.id, unclaimed.id]]);
  });
});

describe("nothing stranded", () => {
  it("processes events a stopped instance left pending and claims whose lease expired, oldest first", async () => {
    const orphans = await insertEvents(3, { ageSeconds: 30 });
    const expired = await insertEvents(2, { claimedBy: "dead-instance", availableSecondsAgo: 5 });
    const heldByLiveInstance = await insertEvents(1, { claimedBy: "live-instance", availableSecondsAgo: -60 });
    const young = await insertEvents(1, { ageSeconds: 0, availableSecondsAgo: -2 });
    expect(await processing.sweepDueEvents()).toBe(5);
    for (const row of await statesOf([...orphans, ...expired])) expect(row).toEqual(PROCESSED);
    expect(await statesOf(heldByLiveInstance)).toEqual([heldBy("live-instance")]);
    expect(await statesOf(young)).toEqual([{ processingState: "pending", queued: true, claimedBy: null }]);
    await sql.query(`DELETE FROM "WebhookEvent" WHERE "id" = ANY($1)`, [young]);
    await sql.query(`DELETE FROM "WebhookEvent" WHERE "id" = ANY($1)`, [[...orphans, ...expired, ...heldByLiveInstance]]);
  });

  it("drains a backlog larger than one batch completely", async () => {
    const ids = await insertEvents(1_234);
    expect(await processing.sweepDueEvents()).toBe(1_234);
    const { rows } = await sql.query<{ n: number }>(
      `SELECT COUNT(*)::int AS n FROM "WebhookEvent" WHERE "id" = ANY($1) AND "processingState" = 'processed'`,
      [ids],
    );
    expect(rows[0]!.n).toBe(1_234);
    await sql.query(`DELETE FROM "WebhookEvent" WHERE "id" = ANY($1)`, [ids]);
  });

  it("records a batch's outcome only for the claims the instance still holds", async () => {
    // The slow instance's lease expired and another instance took the event over.
    const [taken] = await insertEvents(1, { claimedBy: "new-owner", availableSecondsAgo: -60 });
    const received: string[] = [];
    const subscription = bus.subscribeToShop(shopId, { onMessage: (e) => received.push(e.id), onResync: () => {}, onClose: () => {} });
    await notifications.startListening();
    await queue.finishEvents(
      "slow-instance",
      [{ id: taken!, state: "processed" }],
      [{ sellerId: shopId, message: { type: "event", eventId: taken!, domain: "order.order", status: "new" } }],
    );
    expect(await statesOf([taken!])).toEqual([heldBy("new-owner")]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received).toEqual([]); // the new owner announces it when it is done
    subscription.unsubscribe();
  });
});

describe("live messages across instances", () => {
  it("delivers a message committed on one connection to a subscriber listening on another, and replays it after a reconnect", async () => {
    await notifications.startListening();
    const received: { id: string; type: string }[] = [];
    const subscription = bus.subscribeToShop(shopId, {
      onMessage: (envelope) => received.push({ id: envelope.id, type: envelope.message.type }),
      onResync: () => {},
      onClose: () => {},
    });
    const before = await bus.latestLiveMessageId();
    const [eventId] = await insertEvents(1, { claimedBy: "instance-a", availableSecondsAgo: -60 });
    await queue.finishEvents(
      "instance-a",
      [{ id: eventId!, state: "processed" }],
      [
        {
          sellerId: shopId,
          message: { type: "order", eventId: eventId!, domain: "order.order", status: "new", orderId: eventId!, deliveryId: null },
        },
      ],
    );
    await expect.poll(() => received.map((message) => message.type)).toEqual(["order"]);
    subscription.unsubscribe();
    // A stream that last saw `before` gets it back on reconnect, with its id.
    const replay = await bus.replayLiveMessages(shopId, before);
    expect(replay.map((envelope) => envelope.id)).toContain(received[0]!.id);
  });

  it("carries a large batch's messages in several notifications, every one delivered once and in order", async () => {
    await notifications.startListening();
    const received: string[] = [];
    const subscription = bus.subscribeToShop(shopId, {
      onMessage: (e) => received.push(e.message.eventId),
      onResync: () => {},
      onClose: () => {},
    });
    const ids = await insertEvents(300, { claimedBy: "instance-a", availableSecondsAgo: -60 });
    await queue.finishEvents(
      "instance-a",
      ids.map((id) => ({ id, state: "processed" as const })),
      // Long fields: far more than one notification's 8,000 bytes in all.
      ids.map((id) => ({
        sellerId: shopId,
        message: {
          type: "order" as const,
          eventId: id,
          domain: "order.order",
          status: "x".repeat(100),
          orderId: "o".repeat(200),
          deliveryId: "d".repeat(200),
        },
      })),
    );
    await expect.poll(() => received.length).toBe(300);
    expect(received).toEqual(ids);
    subscription.unsubscribe();
  });

  it("keeps messages an hour for catch-up, then prunes them", async () => {
    const count = async () => (await sql.query<{ n: number }>(`SELECT COUNT(*)::int AS n FROM "LiveMessage"`)).rows[0]!.n;
    const start = Date.now();
    const existing = await count();
    expect(existing).toBeGreaterThan(0);
    expect(await bus.pruneLiveMessages(start)).toBe(0);
    const [eventId] = await insertEvents(1, { claimedBy: "instance-a", availableSecondsAgo: -60 });
    await queue.finishEvents(
      "instance-a",
      [{ id: eventId!, state: "processed" }],
      [{ sellerId: shopId, message: { type: "event", eventId: eventId!, domain: "order.order", status: "new" } }],
    );
    expect(await bus.pruneLiveMessages(start + 30 * 60_000)).toBe(0);
    // An hour after the first run, what existed then goes; the newer message stays.
    expect(await bus.pruneLiveMessages(start + 61 * 60_000)).toBe(existing);
    expect(await count()).toBe(1);
  });

  it("announces nothing, and keeps the claim, when recording the outcome fails", async () => {
    const received: unknown[] = [];
    const subscription = bus.subscribeToShop(shopId, {
      onMessage: (e) => received.push(e.message),
      onResync: () => {},
      onClose: () => {},
    });
    const [eventId] = await insertEvents(1, { claimedBy: "instance-a", availableSecondsAgo: -60 });
    await sql.query(`CREATE FUNCTION fail_live() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$`);
    await sql.query(`CREATE TRIGGER fail_live BEFORE INSERT ON "LiveMessage" FOR EACH ROW EXECUTE FUNCTION fail_live()`);
    try {
      await expect(
        queue.finishEvents(
          "instance-a",
          [{ id: eventId!, state: "processed" }],
          [{ sellerId: shopId, message: { type: "event", eventId: eventId!, domain: "order.order", status: "new" } }],
        ),
      ).rejects.toThrow(/disk full/);
    } finally {
      await sql.query(`DROP TRIGGER fail_live ON "LiveMessage"; DROP FUNCTION fail_live()`);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    // (A message of an earlier test's event may still be on its way: only this event's count.)
    expect(received.filter((message) => (message as { eventId?: string }).eventId === eventId)).toEqual([]);
    // Still claimed: processed again when the lease expires (processing is idempotent).
    expect(await statesOf([eventId!])).toEqual([heldBy("instance-a")]);
    subscription.unsubscribe();
  });
});

describe("graceful shutdown", () => {
  it("hands back the claims it holds, so another instance takes them at once", async () => {
    const ids = await insertEvents(4, { ageSeconds: 0, claimedBy: processing.INSTANCE_ID, availableSecondsAgo: -60 });
    expect(processing.processingClaimant()).toBe(processing.INSTANCE_ID);
    await processing.stopWebhookProcessing(1_000);
    expect(processing.processingClaimant()).toBeNull();
    for (const row of await statesOf(ids)) expect(row).toEqual({ processingState: "pending", queued: true, claimedBy: null });
    // ...and due at once: another instance's sweep takes them now, not when the lease would have run out.
    const { rows } = await sql.query<{ due: boolean }>(
      `SELECT "availableAt" <= (now() AT TIME ZONE 'UTC') AS due FROM "WebhookWork" WHERE "eventId" = ANY($1)`,
      [ids],
    );
    expect(rows.map((row) => row.due)).toEqual([true, true, true, true]);
    // Stopped: new events are written unclaimed, for the other instances' sweeps.
  });
});

describe("leases", () => {
  it("renews the claims of a live instance, so only a dead one's run out", async () => {
    const live = await insertEvents(2, { claimedBy: "renewing-instance", availableSecondsAgo: -1 });
    const dead = await insertEvents(1, { claimedBy: "silent-instance", availableSecondsAgo: -1 });
    expect(await queue.renewClaims("renewing-instance")).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    // The silent instance's lease ran out: a sweep takes its event; the live one's are left alone.
    const claimed = (await queue.claimDueEvents("sweeper", 100)).map((event) => event.id);
    expect(claimed).toContain(dead[0]);
    expect(claimed).not.toContain(live[0]);
    expect(claimed).not.toContain(live[1]);
    expect(await statesOf(live)).toEqual([heldBy("renewing-instance"), heldBy("renewing-instance")]);
    await sql.query(`DELETE FROM "WebhookEvent" WHERE "id" = ANY($1)`, [[...live, ...dead]]);
  });
});
