import { createHash } from "node:crypto";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as ReceiverRoute from "@/app/api/webhooks/marketplace/[key]/route";
import { signWebhookBody } from "@marketplace/api/signature";
import { obtainAccessToken, startTestSandbox } from "@marketplace/sandbox/testing";
import type { TestSandbox } from "@marketplace/sandbox/testing";
import { connect, useTestDatabase } from "../support/database";

// The receiver route against a real, migrated PostgreSQL database and a real sandbox (no mocks):
// what the platform sees (status codes) and what the event log keeps. The process runs in São
// Paulo's time zone: dates must still be written in UTC.
process.env.TZ = "America/Sao_Paulo";
let TOKEN: string;
let sandbox: TestSandbox;

let POST: typeof ReceiverRoute.POST;
let webhookKey: string;
let sql: pg.Client;
let databaseUrl: string;

beforeAll(async () => {
  databaseUrl = await useTestDatabase();
  sandbox = await startTestSandbox();
  process.env.MARKETPLACE_BASE_URL = sandbox.url;
  TOKEN = await obtainAccessToken(sandbox.url);
  ({ POST } = await import("@/app/api/webhooks/marketplace/[key]/route"));
  const { connectShop } = await import("@/lib/shops/shops.server");
  const shop = await connectShop({
    email: "seller@example.com",
    name: "Loja Demo",
    accessToken: TOKEN,
    scopesRequested: "basic_user_info portfolio:read order-order:read",
  });
  sql = await connect(databaseUrl);
  webhookKey = (await sql.query<{ webhookKey: string }>('SELECT "webhookKey" FROM "Connection" WHERE "sellerId" = $1', [shop.id])).rows[0]!
    .webhookKey;
}, 60_000);

afterAll(async () => {
  await sql?.end();
  await sandbox?.close();
});

function deliver(body: string | Uint8Array, signature: string | null, options: { key?: string; chunked?: boolean } = {}) {
  const headers = new Headers({ "content-type": "application/json" });
  if (signature !== null) headers.set("X-SVC-Signature", signature);
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  let requestBody: BodyInit = Buffer.from(bytes);
  if (options.chunked) {
    requestBody = new ReadableStream({
      start(controller) {
        for (let offset = 0; offset < bytes.length; offset += 8192) controller.enqueue(bytes.slice(offset, offset + 8192));
        controller.close();
      },
    });
  } else {
    headers.set("content-length", String(bytes.length));
  }
  const key = options.key ?? webhookKey;
  const request = new Request(`http://localhost/api/webhooks/marketplace/${key}`, {
    method: "POST",
    headers,
    body: requestBody,
    ...(options.chunked ? { duplex: "half" } : {}),
  } as RequestInit);
  return POST(request, { params: Promise.resolve({ key }) });
}

const rows = async () => (await sql.query<Record<string, unknown>>('SELECT * FROM "WebhookEvent" ORDER BY "receivedAt"')).rows;
const rowFor = async (body: string) => (await rows()).find((r) => r.rawBody === body);
const countFor = async (body: string) =>
  (await sql.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM "WebhookEvent" WHERE "rawBody" = $1', [body])).rows[0]!.n;

describe("POST /api/webhooks/marketplace/{key}", () => {
  it("stores an authentic order event (order_id form) and acknowledges it", async () => {
    const body = JSON.stringify({ data: { domain: "order.order", status: "new", order_id: "65a000000000000000000001" } });
    const response = await deliver(body, signWebhookBody(body, TOKEN));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true, duplicate: false });
    // Not worth compressing: the server must leave the acknowledgement as it is.
    expect(response.headers.get("cache-control")).toContain("no-transform");
    const row = await rowFor(body);
    expect(row).toMatchObject({
      domain: "order.order",
      status: "new",
      orderId: "65a000000000000000000001",
      valid: true,
      signatureResult: "valid",
    });
  });

  it("stores the id/code form and the `order` alias", async () => {
    const sku = JSON.stringify({ data: { domain: "portfolio.sku", status: "created", id: "65b000000000000000000001", code: "SKU-1" } });
    const alias = JSON.stringify({ data: { domain: "order", status: "approved", id: "65a000000000000000000002", code: "A-2" } });
    expect((await deliver(sku, signWebhookBody(sku, TOKEN))).status).toBe(200);
    expect((await deliver(alias, signWebhookBody(alias, TOKEN))).status).toBe(200);
    expect(await rowFor(sku)).toMatchObject({ domain: "portfolio.sku", resourceId: "65b000000000000000000001", code: "SKU-1" });
    expect(await rowFor(alias)).toMatchObject({ domain: "order.order", orderId: "65a000000000000000000002" });
  });

  it("coalesces copies of a notification that arrive together: stored once, counted, each acknowledged", async () => {
    const body = JSON.stringify({ data: { domain: "order.delivery", status: "posted", order_id: "o-dup", delivery_id: "d-dup" } });
    const signature = signWebhookBody(body, TOKEN);
    const answers = await Promise.all([deliver(body, signature), deliver(body, signature), deliver(body, signature)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    const flags = await Promise.all(answers.map(async (answer) => ((await answer.json()) as { duplicate: boolean }).duplicate));
    expect(flags.sort()).toEqual([false, true, true]);
    expect(await countFor(body)).toBe(1);
    expect((await rowFor(body))?.duplicateCount).toBe(2);
  });

  it("coalesces a copy into the earlier receipt while that one still waits to be processed", async () => {
    const body = JSON.stringify({ data: { domain: "order.order", status: "approved", order_id: "65a0000000000000000000aa" } });
    const hash = createHash("sha256").update(body).digest("hex");
    // An earlier receipt, waiting: another instance holds it and has not taken it up yet.
    const { rows } = await sql.query<{ id: string; sellerId: string }>(
      `INSERT INTO "WebhookEvent" ("id", "sellerId", "domain", "status", "orderId", "rawBody", "bodyHash", "headers", "signatureResult", "valid")
       SELECT 'waiting-receipt', "sellerId", 'order.order', 'approved', '65a0000000000000000000aa', $1, $2, '{}', 'valid', true
       FROM "Connection" WHERE "webhookKey" = $3 RETURNING "id", "sellerId"`,
      [body, hash, webhookKey],
    );
    await sql.query(
      `INSERT INTO "WebhookWork" ("eventId", "sellerId", "waitingHash", "claimedBy", "availableAt")
       VALUES ($1, $2, $3, 'other-instance', now() + interval '1 hour')`,
      [rows[0]!.id, rows[0]!.sellerId, hash],
    );
    expect(await (await deliver(body, signWebhookBody(body, TOKEN))).json()).toEqual({ received: true, duplicate: true });
    expect(await countFor(body)).toBe(1);
    expect((await rowFor(body))?.duplicateCount).toBe(1);
  });

  it("counts a copy on a receipt that another batch committed while this one waited for it", async () => {
    const body = JSON.stringify({ data: { domain: "order.order", status: "invoiced", order_id: "65a0000000000000000000ab" } });
    const hash = createHash("sha256").update(body).digest("hex");
    const { sellerId } = (
      await sql.query<{ sellerId: string }>('SELECT "sellerId" FROM "Connection" WHERE "webhookKey" = $1', [webhookKey])
    ).rows[0]!;
    // Another instance's batch, mid-write: its event and queue row are in, not yet committed.
    const other = await connect(databaseUrl);
    try {
      await other.query("BEGIN");
      await other.query(
        `INSERT INTO "WebhookEvent" ("id", "sellerId", "domain", "status", "orderId", "rawBody", "bodyHash", "headers", "signatureResult", "valid")
         VALUES ('other-batch-receipt', $1, 'order.order', 'invoiced', '65a0000000000000000000ab', $2, $3, '{}', 'valid', true)`,
        [sellerId, body, hash],
      );
      await other.query(
        `INSERT INTO "WebhookWork" ("eventId", "sellerId", "waitingHash", "claimedBy", "availableAt")
         VALUES ('other-batch-receipt', $1, $2, 'other-instance', now() + interval '1 hour')`,
        [sellerId, hash],
      );
      // This copy's batch waits on that row; its statement's snapshot is taken before the commit.
      const answer = deliver(body, signWebhookBody(body, TOKEN));
      await expect.poll(async () => (await sql.query(`SELECT 1 FROM pg_locks WHERE NOT granted`)).rowCount).toBeGreaterThan(0);
      await other.query("COMMIT");
      const response = await answer;
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ received: true, duplicate: true });
    } finally {
      await other.end();
    }
    expect(await countFor(body)).toBe(1);
    expect((await rowFor(body))?.duplicateCount).toBe(1);
  });

  it("processes an identical body again once the earlier receipt was processed: a new receipt, since the resource may have changed again", async () => {
    const body = JSON.stringify({ data: { domain: "chat", status: "message_received", id: "chat-1", code: "c-1" } });
    const signature = signWebhookBody(body, TOKEN);
    expect(await (await deliver(body, signature)).json()).toEqual({ received: true, duplicate: false });
    await expect.poll(async () => (await rowFor(body))?.processingState).toBe("processed");
    expect(await (await deliver(body, signature)).json()).toEqual({ received: true, duplicate: false });
    expect(await countFor(body)).toBe(2);
    await expect
      .poll(async () =>
        (await sql.query(`SELECT "processingState" FROM "WebhookEvent" WHERE "rawBody" = $1`, [body])).rows.map(
          (row) => row.processingState,
        ),
      )
      .toEqual(["processed", "processed"]);
  });

  it("counts every delivery of a body exactly once, whatever group commits its copies land in and however they cross take-ups, without deadlocks", async () => {
    const { pool, receiverPool } = await import("@/lib/pg-pool.server");
    // Deadlocks are counted by the backend that found one, and published when it next reports its
    // statistics: make every connection of the dashboard's pools report now.
    const deadlocks = async () => {
      for (const dashboardPool of [pool, receiverPool]) {
        const clients = await Promise.all(Array.from({ length: dashboardPool.totalCount }, () => dashboardPool.connect()));
        for (const client of clients) {
          await client.query("SELECT pg_stat_force_next_flush()");
          await client.query("SELECT 1");
          client.release();
        }
      }
      return (await sql.query<{ n: number }>("SELECT deadlocks::int AS n FROM pg_stat_database WHERE datname = current_database()"))
        .rows[0]!.n;
    };
    const deadlocksBefore = await deadlocks();
    const body = JSON.stringify({ data: { domain: "chat", status: "message_received", id: "chat-race", code: "c-race" } });
    const signature = signWebhookBody(body, TOKEN);
    // Waves of identical deliveries, at varied gaps: some land while a receipt waits (coalesced),
    // some while processing takes one up, some after. Within a wave each delivery starts on its
    // own turn of the event loop, so the copies go out in different group commits, written at the
    // same time on different connections (as two instances would write them).
    const statuses: number[] = [];
    for (let wave = 0; wave < 12; wave++) {
      const answers: Promise<Response>[] = [];
      for (let copy = 0; copy < 6; copy++) {
        answers.push(deliver(body, signature));
        await new Promise((resolve) => setImmediate(resolve));
      }
      statuses.push(...(await Promise.all(answers)).map((response) => response.status));
      await new Promise((resolve) => setTimeout(resolve, (wave % 4) * 4));
    }
    expect(statuses).toEqual(Array(72).fill(200));
    const stored = (await sql.query<{ duplicateCount: number }>(`SELECT "duplicateCount" FROM "WebhookEvent" WHERE "rawBody" = $1`, [body]))
      .rows;
    expect(stored.reduce((sum, row) => sum + 1 + row.duplicateCount, 0)).toBe(72);
    expect(stored.length).toBeGreaterThan(1);
    // Every receipt is processed, but for the one the replay bound holds to the end of its minute
    // (WEBHOOK_REPLAY_LIMIT_PER_MINUTE; two if the waves crossed a minute).
    await expect
      .poll(async () =>
        (
          await sql.query(`SELECT DISTINCT "processingState" FROM "WebhookEvent" WHERE "rawBody" = $1 AND "heldUntil" IS NULL`, [body])
        ).rows.map((row) => row.processingState),
      )
      .toEqual(["processed"]);
    const held = (
      await sql.query<{ processingState: string }>(
        `SELECT "processingState" FROM "WebhookEvent" WHERE "rawBody" = $1 AND "heldUntil" IS NOT NULL`,
        [body],
      )
    ).rows;
    expect(held.length).toBeLessThanOrEqual(2);
    expect(held.every((row) => row.processingState === "pending")).toBe(true);
    expect(await deadlocks()).toBe(deadlocksBefore);
  });

  it.each([
    ["a missing signature", () => null],
    ["a signature with the wrong key", (body: string) => signWebhookBody(body, "not-the-token")],
    ["a signature of another body", () => signWebhookBody('{"data":{}}', TOKEN)],
    ["a malformed signature", () => "%%%not-base64%%%"],
    ["a signature of the wrong length", (body: string) => signWebhookBody(body, TOKEN).slice(0, 20)],
  ])("answers 401 to %s and stores nothing", async (_label, sign) => {
    const body = JSON.stringify({ data: { domain: "order.order", status: "cancelled", order_id: `forged-${Math.random()}` } });
    const response = await deliver(body, sign(body));
    expect(response.status).toBe(401);
    expect(await countFor(body)).toBe(0);
  });

  it("answers 401 when one byte of a signed body changes", async () => {
    const body = JSON.stringify({ data: { domain: "order.order", status: "finished", order_id: "o-tamper" } });
    const signature = signWebhookBody(body, TOKEN);
    const tampered = body.replace("finished", "cancelled").replace("o-tamper", "o-tampe");
    const refused = await deliver(tampered, signature);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("cache-control")).toContain("no-transform");
    expect(await countFor(tampered)).toBe(0);
  });

  it("answers 413 to a body over 64 KiB, declared or streamed, and stores nothing", async () => {
    const before = (await rows()).length;
    const big = JSON.stringify({ data: { domain: "order.order", status: "new", order_id: "x", pad: "a".repeat(70_000) } });
    expect((await deliver(big, signWebhookBody(big, TOKEN))).status).toBe(413);
    expect((await deliver(big, signWebhookBody(big, TOKEN), { chunked: true })).status).toBe(413);
    const exactlyAtCap = new Uint8Array(64 * 1024).fill(0x20);
    expect((await deliver(exactlyAtCap, signWebhookBody(exactlyAtCap, TOKEN))).status).toBe(200);
    expect((await rows()).length).toBe(before + 1);
  });

  it("keeps an authentic body that is not JSON or not a known shape, marked invalid, and acknowledges it", async () => {
    for (const body of ["{oops", JSON.stringify({ data: { domain: "weather", status: "rainy", id: "1" } })]) {
      const response = await deliver(body, signWebhookBody(body, TOKEN));
      expect(response.status).toBe(200);
      const row = await rowFor(body);
      expect(row).toMatchObject({ valid: false });
      expect(row?.invalidReason).toBeTruthy();
    }
  });

  it("stores an authentic body whose JSON spells NUL or a lone surrogate, which PostgreSQL text cannot hold", async () => {
    const body = '{"data":{"domain":"order.order","status":"new\\u0000","order_id":"o-\\ud800-nul"}}';
    const response = await deliver(body, signWebhookBody(body, TOKEN));
    expect(response.status).toBe(200);
    expect(await rowFor(body)).toMatchObject({ status: "new\uFFFD", orderId: "o-\uFFFD-nul", valid: false });
  });

  it("answers 404 to an unknown receiver key", async () => {
    const body = JSON.stringify({ data: { domain: "order.order", status: "new", order_id: "o-404" } });
    expect((await deliver(body, signWebhookBody(body, TOKEN), { key: "no-such-key" })).status).toBe(404);
  });

  it("answers 503 when the database cannot commit, so the platform retries", async () => {
    await sql.query(`CREATE FUNCTION fail_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk I/O error'; END $$`);
    await sql.query(`CREATE TRIGGER fail_insert BEFORE INSERT ON "WebhookEvent" FOR EACH ROW EXECUTE FUNCTION fail_insert()`);
    try {
      const body = JSON.stringify({ data: { domain: "order.order", status: "new", order_id: "o-503" } });
      const response = await deliver(body, signWebhookBody(body, TOKEN));
      expect(response.status).toBe(503);
      expect(await countFor(body)).toBe(0);
    } finally {
      await sql.query(`DROP TRIGGER fail_insert ON "WebhookEvent"; DROP FUNCTION fail_insert()`);
    }
  });

  it("answers 503 while the database refuses connections, and 200 once it is back", async () => {
    const name = new URL(databaseUrl).pathname.slice(1);
    const admin = await connect(new URL("/postgres", databaseUrl).toString());
    const body = JSON.stringify({ data: { domain: "order.order", status: "new", order_id: "o-down" } });
    try {
      // Down for this database: new connections are refused and open ones are cut.
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [name]);
      const response = await deliver(body, signWebhookBody(body, TOKEN));
      expect(response.status).toBe(503);
    } finally {
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
      await admin.end();
    }
    sql = await connect(databaseUrl);
    expect(await countFor(body)).toBe(0);
    // The platform's retry after the outage is stored.
    expect((await deliver(body, signWebhookBody(body, TOKEN))).status).toBe(200);
    expect(await countFor(body)).toBe(1);
  });

  it("acknowledges while processing holds every connection of the shared pool: the receiver writes through its own", async () => {
    const { pool } = await import("@/lib/pg-pool.server");
    // What a burst of processing does at worst: every connection busy fetching and upserting.
    const held = await Promise.all(Array.from({ length: pool.options.max }, () => pool.connect()));
    const body = JSON.stringify({ data: { domain: "order.order", status: "new", order_id: "o-busy-pool" } });
    try {
      expect(pool.idleCount).toBe(0);
      const response = await deliver(body, signWebhookBody(body, TOKEN));
      expect(response.status).toBe(200);
      expect(await rowFor(body)).toMatchObject({ processingState: "pending" });
    } finally {
      for (const client of held) client.release();
    }
    // Processing then takes it up once a connection is free.
    await expect.poll(async () => (await rowFor(body))?.processingState).not.toBe("pending");
  });

  it("writes dates in UTC although the process runs in another time zone", async () => {
    expect(new Date("2026-01-01T12:00:00Z").getTimezoneOffset()).toBe(180);
    const body = JSON.stringify({ data: { domain: "order.order", status: "new", order_id: "o-utc" } });
    const before = Date.now();
    await deliver(body, signWebhookBody(body, TOKEN));
    const {
      rows: [stored],
    } = await sql.query<{ text: string }>(`SELECT "receivedAt"::text AS text FROM "WebhookEvent" WHERE "rawBody" = $1`, [body]);
    const storedAsUtc = Date.parse(`${stored!.text.replace(" ", "T")}Z`);
    expect(Math.abs(storedAsUtc - before)).toBeLessThan(10_000);
    // And Prisma, which the event log reads through, sees the same instant.
    const { db } = await import("@/lib/db.server");
    const viaPrisma = await db.webhookEvent.findFirstOrThrow({ where: { rawBody: body }, select: { receivedAt: true } });
    expect(viaPrisma.receivedAt.getTime()).toBe(storedAsUtc);
  });

  it("processes events after acknowledging them: an order event puts the order in the mirror", async () => {
    const created = await sandbox.api("/_sandbox/orders", { method: "POST", json: { seller: "seller@example.com" } });
    const { orders } = (await created.json()) as { orders: { id: string; status: string; customer: { name: string } }[] };
    const order = orders[0]!;
    const body = JSON.stringify({ data: { domain: "order.order", status: "new", order_id: order.id } });
    await deliver(body, signWebhookBody(body, TOKEN));
    await expect.poll(async () => (await rowFor(body))?.processingState).toBe("processed");
    const mirror = await sql.query(`SELECT "status", "customerName" FROM "OrderMirror" WHERE "orderId" = $1`, [order.id]);
    expect(mirror.rows).toEqual([{ status: order.status, customerName: order.customer.name }]);
    const invalid = "{still not json";
    await deliver(invalid, signWebhookBody(invalid, TOKEN));
    await expect.poll(async () => (await rowFor(invalid))?.processingState).toBe("skipped");
  });
});
