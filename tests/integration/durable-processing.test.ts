import type pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type * as Queue from "@/features/webhooks/process/queue.server";
import type * as Processing from "@/features/webhooks/process/process.server";
import type * as Reconcile from "@/features/webhooks/sync/reconcile.server";
import { sampleSku } from "@marketplace/api/schemas/fixtures";
import { startTestSandbox } from "@marketplace/sandbox/testing";
import type { TestSandbox } from "@marketplace/sandbox/testing";
import { connect, useTestDatabase } from "../support/database";
import { connectTestShop, sweepUntil } from "../support/shops";
import { deliverToReceiver } from "../support/receiver";

// Durable processing and reconciliation against a real database and a real sandbox: each failure
// the issue names is made to happen (the platform failing, the database going away under a
// write, an instance dying with a lease, notifications never delivered), and the test shows the
// work resumes and nothing is lost.
let sandbox: TestSandbox;
let sql: pg.Client;
let databaseUrl: string;
let token: string;
let shopId: string;
let webhookKey: string;
let queue: typeof Queue;
let processing: typeof Processing;
let reconcile: typeof Reconcile;

beforeAll(async () => {
  databaseUrl = await useTestDatabase();
  sandbox = await startTestSandbox({ config: { seedOrders: 5, seedSellers: 1 } });
  process.env.MARKETPLACE_BASE_URL = sandbox.url;
  queue = await import("@/features/webhooks/process/queue.server");
  processing = await import("@/features/webhooks/process/process.server");
  reconcile = await import("@/features/webhooks/sync/reconcile.server");
  // Retries a few milliseconds apart, and few of them, so the tests see a whole life in seconds.
  (await import("@/features/webhooks/process/apply-event.server")).configureRetryPolicy({
    maxAttempts: 4,
    baseSeconds: 0.05,
    capSeconds: 0.2,
  });
  ({ token, sellerId: shopId, webhookKey } = await connectTestShop({ sandboxUrl: sandbox.url }));
  sql = await connect(databaseUrl);
}, 60_000);

afterAll(async () => {
  await processing?.stopWebhookProcessing(100);
  await sql?.end();
  await sandbox?.close();
});

beforeEach(async () => {
  await sandbox.api("/_sandbox/faults", { method: "POST", json: { errorRate: 0, latencyMs: 0 } });
});

const deliver = (body: string) => deliverToReceiver(webhookKey, body, { signWith: token });

async function createOrder(): Promise<{ id: string; status: string; updated_at: string }> {
  const response = await sandbox.api("/_sandbox/orders", { method: "POST", json: { seller: "seller@example.com" } });
  return ((await response.json()) as { orders: { id: string; status: string; updated_at: string }[] }).orders[0]!;
}

const orderEvent = (orderId: string, status = "new") => JSON.stringify({ data: { domain: "order.order", status, order_id: orderId } });

interface EventRow {
  id: string;
  processingState: string;
  attempts: number;
  processingError: string | null;
}
const eventFor = async (body: string) =>
  (
    await sql.query<EventRow>(
      `SELECT "id", "processingState", "attempts", "processingError" FROM "WebhookEvent" WHERE "rawBody" = $1 ORDER BY "receivedAt"`,
      [body],
    )
  ).rows;
const mirrored = async (orderId: string) =>
  (await sql.query<{ status: string }>(`SELECT "status" FROM "OrderMirror" WHERE "sellerId" = $1 AND "orderId" = $2`, [shopId, orderId]))
    .rows[0];

describe("durable processing", () => {
  it("retries a platform failure with backoff: three 500s, then processed", async () => {
    const order = await createOrder();
    await sandbox.api("/_sandbox/faults", { method: "POST", json: { errorRate: 1 } });
    const body = orderEvent(order.id);
    expect((await deliver(body)).status).toBe(200);
    await sweepUntil(async () => (await eventFor(body))[0]?.attempts === 3);
    expect((await eventFor(body))[0]).toMatchObject({ processingState: "retrying", processingError: expect.stringContaining("HTTP 500") });
    await sandbox.api("/_sandbox/faults", { method: "POST", json: { errorRate: 0 } });
    await sweepUntil(async () => (await eventFor(body))[0]?.processingState === "processed");
    expect((await eventFor(body))[0]).toMatchObject({ attempts: 4, processingError: null });
    expect(await mirrored(order.id)).toEqual({ status: "new" });
  });

  it("marks an event dead after the last attempt, and processes it when asked once the fault clears", async () => {
    const order = await createOrder();
    await sandbox.api("/_sandbox/faults", { method: "POST", json: { errorRate: 1 } });
    const body = orderEvent(order.id);
    await deliver(body);
    await sweepUntil(async () => (await eventFor(body))[0]?.processingState === "dead");
    const [dead] = await eventFor(body);
    expect(dead).toMatchObject({ attempts: 4, processingError: expect.stringContaining("after 4 attempts") });
    expect(await queue.queueCounts(shopId)).toMatchObject({ dead: 1 });
    // Dead means never tried by itself again.
    await processing.sweepDueEvents();
    expect((await eventFor(body))[0]?.attempts).toBe(4);

    await sandbox.api("/_sandbox/faults", { method: "POST", json: { errorRate: 0 } });
    expect(await processing.reprocessWebhookEvent(shopId, dead!.id)).toBe("processed");
    expect((await eventFor(body))[0]).toMatchObject({ processingState: "processed", processingError: null });
    expect(await mirrored(order.id)).toEqual({ status: "new" });
    expect(await queue.queueCounts(shopId)).toMatchObject({ dead: 0 });
  });

  it("processes all dead events again on request", async () => {
    const orders = [await createOrder(), await createOrder()];
    await sandbox.api("/_sandbox/faults", { method: "POST", json: { errorRate: 1 } });
    const bodies = orders.map((order) => orderEvent(order.id));
    for (const body of bodies) await deliver(body);
    await sweepUntil(async () => (await queue.queueCounts(shopId)).dead === 2);
    await sandbox.api("/_sandbox/faults", { method: "POST", json: { errorRate: 0 } });
    expect(await queue.requeueDeadEvents(shopId)).toBe(2);
    await sweepUntil(async () => (await queue.queueCounts(shopId)).waiting === 0);
    for (const body of bodies) expect((await eventFor(body))[0]?.processingState).toBe("processed");
  });

  it("does not retry what cannot heal: an order the platform does not know is dead at once", async () => {
    const body = orderEvent("65a0000000000000000000ff");
    await deliver(body);
    await sweepUntil(async () => (await eventFor(body))[0]?.processingState === "dead");
    expect((await eventFor(body))[0]).toMatchObject({ attempts: 1, processingError: expect.stringContaining("Not found") });
  });

  it("records the outcome once the database is back when it went away during processing", async () => {
    const order = await createOrder();
    // The platform answers slowly: the database goes away while the order is being fetched.
    await sandbox.api("/_sandbox/faults", { method: "POST", json: { latencyMs: 1_000 } });
    const body = orderEvent(order.id);
    expect((await deliver(body)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const name = new URL(databaseUrl).pathname.slice(1);
    const admin = await connect(new URL("/postgres", databaseUrl).toString());
    try {
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [name]);
      await new Promise((resolve) => setTimeout(resolve, 2_500));
    } finally {
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
      await admin.end();
    }
    sql = await connect(databaseUrl);
    // The instance kept trying its state write (the mirror's write had failed too: the attempt is
    // recorded as failed, due again); its next sweep processes the event.
    await sweepUntil(async () => (await eventFor(body))[0]?.processingState === "processed", 15_000);
    expect(await mirrored(order.id)).toEqual({ status: "new" });
  }, 30_000);

  it("processes an event whose instance died holding its lease, once the lease expires", async () => {
    const order = await createOrder();
    const body = orderEvent(order.id);
    // Received and claimed by an instance that then died before taking it up.
    const { insertWebhookEvent } = await import("@/features/webhooks/store.server");
    const { parseWebhookBody } = await import("@/features/webhooks/parse");
    const stored = await insertWebhookEvent({
      sellerId: shopId,
      receivedAt: new Date(),
      rawBody: body,
      bodyHash: "killed-" + order.id,
      headers: {},
      parsed: parseWebhookBody(body),
      claimedBy: "killed-instance",
    });
    await processing.sweepDueEvents();
    expect((await eventFor(body))[0]?.processingState).toBe("pending");
    // The lease runs out (60 s in real time; moved here).
    await sql.query(`UPDATE "WebhookWork" SET "availableAt" = now() AT TIME ZONE 'UTC' - interval '1 second' WHERE "eventId" = $1`, [
      stored.id,
    ]);
    await sweepUntil(async () => (await eventFor(body))[0]?.processingState === "processed");
    expect((await eventFor(body))[0]?.attempts).toBe(1);
  });

  it("keeps processing while the request thread is saturated: a pass waits for room, never for good, and takes all that waited", async () => {
    const [first, second, third, fourth] = [await createOrder(), await createOrder(), await createOrder(), await createOrder()];
    const bodies = [orderEvent(first.id), orderEvent(second.id), orderEvent(third.id), orderEvent(fourth.id)];
    const processed = (body: string) =>
      vi.waitFor(async () => expect((await eventFor(body))[0]?.processingState).toBe("processed"), { timeout: 20_000, interval: 50 });
    expect((await deliver(bodies[0]!)).status).toBe(200);
    await processed(bodies[0]!);
    // Back-to-back 20 ms spins of the event loop, as a burst of requests would keep it: I/O and
    // timers still run between them, as they would between requests.
    let saturating = true;
    const spin = () => {
      const until = performance.now() + 20;
      while (performance.now() < until);
      if (saturating) setImmediate(spin);
    };
    setImmediate(spin);
    const before = processing.processingGateCounts();
    try {
      // The second's batch ends under load, so the third's waits on a sample of the spinning alone.
      expect((await deliver(bodies[1]!)).status).toBe(200);
      await processed(bodies[1]!);
      const waited = processing.processingGateCounts();
      // Both arrive while the pass waits for room: the one pass that goes when overdue takes them both.
      expect((await deliver(bodies[2]!)).status).toBe(200);
      expect((await deliver(bodies[3]!)).status).toBe(200);
      await processed(bodies[2]!);
      await processed(bodies[3]!);
      // Still saturated: it went through because it had waited long enough, not because the loop had room.
      const after = processing.processingGateCounts();
      expect(after.overdue).toBe(waited.overdue + 1);
      expect(after.roomy).toBe(waited.roomy);
      expect(after.waits).toBeGreaterThan(before.waits);
    } finally {
      saturating = false;
    }
    expect(await mirrored(third.id)).toEqual({ status: "new" });
    expect(await mirrored(fourth.id)).toEqual({ status: "new" });
  }, 45_000);

  it("processes one batch naming several shops: each shop's orders read with its own token into its own mirror", async () => {
    const other = await connectTestShop({ sandboxUrl: sandbox.url, login: "seller2@example.com", name: "Loja Dois" });
    const gone = await connectTestShop({ sandboxUrl: sandbox.url, login: "seller-00001@example.com", name: "Loja Desconectada" });
    const { deleteConnection } = await import("@/lib/shops/shops.server");
    await deleteConnection(gone.sellerId);
    const ours = await createOrder();
    const response = await sandbox.api("/_sandbox/orders", { method: "POST", json: { seller: "seller2@example.com" } });
    const theirs = ((await response.json()) as { orders: { id: string }[] }).orders[0]!;

    // Written by an instance that died before taking them up, then due together: one sweep takes
    // them in one batch.
    const { insertWebhookEvent } = await import("@/features/webhooks/store.server");
    const { parseWebhookBody } = await import("@/features/webhooks/parse");
    const events = [
      { shop: shopId, body: orderEvent(ours.id) },
      { shop: other.sellerId, body: orderEvent(theirs.id) },
      // Shop A naming shop B's order: A's token cannot read it, and A's mirror must not get it.
      { shop: shopId, body: orderEvent(theirs.id, "approved") },
      { shop: gone.sellerId, body: orderEvent(ours.id, "approved") },
    ];
    const ids: string[] = [];
    for (const [index, event] of events.entries()) {
      const stored = await insertWebhookEvent({
        sellerId: event.shop,
        receivedAt: new Date(),
        rawBody: event.body,
        bodyHash: `several-shops-${index}-${Date.now()}`,
        headers: {},
        parsed: parseWebhookBody(event.body),
        claimedBy: "killed-instance",
      });
      ids.push(stored.id);
    }
    await sql.query(`UPDATE "WebhookWork" SET "availableAt" = now() AT TIME ZONE 'UTC' - interval '1 second' WHERE "eventId" = ANY($1)`, [
      ids,
    ]);
    expect(await processing.sweepDueEvents()).toBe(events.length);

    const states = await sql.query<{ id: string; processingState: string; processingError: string | null }>(
      `SELECT "id", "processingState", "processingError" FROM "WebhookEvent" WHERE "id" = ANY($1)`,
      [ids],
    );
    const byId = new Map(states.rows.map((row) => [row.id, row]));
    expect(ids.map((id) => byId.get(id)?.processingState)).toEqual(["processed", "processed", "dead", "dead"]);
    expect(byId.get(ids[3]!)?.processingError).toMatch(/no longer connected/);
    const mirror = await sql.query<{ sellerId: string; orderId: string }>(
      `SELECT "sellerId", "orderId" FROM "OrderMirror" WHERE "orderId" = ANY($1) ORDER BY "sellerId", "orderId"`,
      [[ours.id, theirs.id]],
    );
    expect(mirror.rows).toEqual(
      [
        { sellerId: shopId, orderId: ours.id },
        { sellerId: other.sellerId, orderId: theirs.id },
      ].sort((a, b) => (a.sellerId < b.sellerId ? -1 : 1)),
    );
  });

  it("processes both notifications of a price changed twice (identical bodies), and keeps the second value", async () => {
    const sku = `SKU-${Date.now()}`;
    const skuResponse = await sandbox.api("/v1.0/marketplace/portfolios/skus", { method: "POST", token, json: sampleSku(sku) });
    expect(skuResponse.status).toBe(201);
    const setPrice = async (value: number) => {
      const response = await sandbox.api("/v1.0/marketplace/portfolios/prices", {
        method: "POST",
        token,
        json: { type: "sell", sku, value, currency: "BRL", normalizer: 100, extras: {} },
      });
      return ((await response.json()) as { id: string }).id;
    };
    const priceId = await setPrice(1_000);
    const body = JSON.stringify({ data: { domain: "portfolio.price", status: "updated", id: priceId, code: sku } });
    await deliver(body);
    await expect.poll(async () => (await eventFor(body)).map((row) => row.processingState)).toEqual(["processed"]);
    expect(await setPrice(2_000)).toBe(priceId);
    // The same bytes again: processed again, not swallowed as a duplicate.
    expect(await (await deliver(body)).json()).toEqual({ received: true, duplicate: false });
    await expect.poll(async () => (await eventFor(body)).map((row) => row.processingState)).toEqual(["processed", "processed"]);
    const price = await sql.query(`SELECT "value" FROM "PriceMirror" WHERE "sellerId" = $1 AND "priceId" = $2`, [shopId, priceId]);
    expect(price.rows).toEqual([{ value: 2_000 }]);
  });
});

describe("reconciliation", () => {
  it("back-fills the mirror first, then records the changes no notification told, once", async () => {
    await sql.query(`DELETE FROM "SellerSync" WHERE "sellerId" = $1`, [shopId]);
    const backfill = await reconcile.reconcileShopOnce(shopId);
    expect(backfill).toMatchObject({ mode: "backfill", recovered: 0 });
    const mirroredCount = async () =>
      (await sql.query<{ n: number }>(`SELECT COUNT(*)::int AS n FROM "OrderMirror" WHERE "sellerId" = $1`, [shopId])).rows[0]!.n;
    expect(await mirroredCount()).toBeGreaterThanOrEqual(backfill!.listed);
    const sync = await sql.query(`SELECT "backfillState", "backfilledOrders" FROM "SellerSync" WHERE "sellerId" = $1`, [shopId]);
    expect(sync.rows[0]).toMatchObject({ backfillState: "done", backfilledOrders: backfill!.listed });

    // Orders created and changed while no notification reached the dashboard.
    const created = await createOrder();
    const changed = await createOrder();
    await sandbox.api(`/_sandbox/orders/${changed.id}/status`, { method: "POST", json: { status: "approved" } });
    // Just changed: left to their notifications for a moment (which never come here).
    expect(await reconcile.reconcileShopOnce(shopId)).toMatchObject({ mode: "reconcile", recovered: 0 });
    expect(await mirrored(created.id)).toBeUndefined();
    const settled = () => new Date(Date.now() + 15_000);
    const result = await reconcile.reconcileShopOnce(shopId, settled());
    expect(result).toMatchObject({ mode: "reconcile", recovered: 2 });
    expect(await mirrored(created.id)).toEqual({ status: "new" });
    expect(await mirrored(changed.id)).toEqual({ status: "approved" });
    const recorded = await sql.query(
      `SELECT "orderId", "status", "processingState" FROM "WebhookEvent" WHERE "sellerId" = $1 AND "source" = 'reconciliation' ORDER BY "orderId"`,
      [shopId],
    );
    expect(recorded.rows).toEqual(
      [
        { orderId: created.id, status: "new", processingState: "processed" },
        { orderId: changed.id, status: "approved", processingState: "processed" },
      ].sort((a, b) => a.orderId.localeCompare(b.orderId)),
    );
    // Nothing new: nothing recorded the second time.
    expect(await reconcile.reconcileShopOnce(shopId, settled())).toMatchObject({ recovered: 0 });
    const health = await sql.query(`SELECT "lastRecovered", "recoveredTotal" FROM "SellerSync" WHERE "sellerId" = $1`, [shopId]);
    expect(health.rows[0]).toEqual({ lastRecovered: 0, recoveredTotal: 2 });
  });

  it("back-fills every open order, however long it has not changed", async () => {
    const open = await createOrder();
    await sql.query(`DELETE FROM "SellerSync" WHERE "sellerId" = $1`, [shopId]);
    await sql.query(`DELETE FROM "OrderMirror" WHERE "sellerId" = $1`, [shopId]);
    // A hundred days on, the order is far older than the back-fill's window (MIRROR_BACKFILL_DAYS).
    const later = new Date(Date.now() + 100 * 86_400_000);
    expect(await reconcile.reconcileShopOnce(shopId, later)).toMatchObject({ mode: "backfill" });
    expect(await mirrored(open.id)).toEqual({ status: "new" });
  });

  it("leaves an order to the notification that is waiting for it", async () => {
    const order = await createOrder();
    await sandbox.api("/_sandbox/faults", { method: "POST", json: { errorRate: 0 } });
    // The notification is stored and waits (held by an instance that has not taken it up).
    const body = orderEvent(order.id);
    const { insertWebhookEvent } = await import("@/features/webhooks/store.server");
    const { parseWebhookBody } = await import("@/features/webhooks/parse");
    await insertWebhookEvent({
      sellerId: shopId,
      receivedAt: new Date(),
      rawBody: body,
      bodyHash: "waiting-" + order.id,
      headers: {},
      parsed: parseWebhookBody(body),
      claimedBy: "busy-instance",
    });
    expect(await reconcile.reconcileShopOnce(shopId, new Date(Date.now() + 15_000))).toMatchObject({ recovered: 0 });
    const recorded = await sql.query(`SELECT 1 FROM "WebhookEvent" WHERE "orderId" = $1 AND "source" = 'reconciliation'`, [order.id]);
    expect(recorded.rowCount).toBe(0);
  });

  it("runs on one instance at a time: a second caller skips the shop while another instance's claim holds, and runs it once the claim expired", async () => {
    const { claimShop } = await import("@/features/webhooks/sync/shop-sync.server");
    expect(await claimShop("other-instance", shopId, 60_000)).toMatchObject({ sellerId: shopId });
    expect(await reconcile.reconcileShopOnce(shopId)).toBeNull();
    // The other instance died: its claim ran out.
    await sql.query(`UPDATE "SellerSync" SET "claimedUntil" = now() AT TIME ZONE 'UTC' - interval '1 second' WHERE "sellerId" = $1`, [
      shopId,
    ]);
    expect(await reconcile.reconcileShopOnce(shopId)).toMatchObject({ recovered: 0 });
    const row = await sql.query(`SELECT "claimedBy", "claimedUntil" FROM "SellerSync" WHERE "sellerId" = $1`, [shopId]);
    expect(row.rows[0]).toEqual({ claimedBy: null, claimedUntil: null });
  });
});
