import { randomUUID } from "node:crypto";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Events from "@/features/webhooks/events/webhook-events.server";
import type * as Overview from "@/features/overview/overview.server";
import type * as Prune from "@/features/webhooks/process/prune.server";
import type * as Sellers from "@/lib/shops/shops.server";
import { eventsSchema } from "@/features/webhooks/events/event-filters";
import { connect, useTestDatabase } from "../support/database";

// The event log's pages and filters, pruning and the overview, as rewritten for a log of millions
// of events (bench/event-log.ts): what they answer must not depend on how they find it.
let sql: pg.Client;
let events: typeof Events;
let overview: typeof Overview;
let prune: typeof Prune;
let shops: typeof Sellers;

beforeAll(async () => {
  const url = await useTestDatabase();
  sql = await connect(url);
  events = await import("@/features/webhooks/events/webhook-events.server");
  overview = await import("@/features/overview/overview.server");
  prune = await import("@/features/webhooks/process/prune.server");
  shops = await import("@/lib/shops/shops.server");
}, 60_000);

afterAll(async () => {
  await sql?.end();
});

const newShop = (name: string) =>
  shops.connectShop({ email: `${name}@example.com`, name: "Loja", accessToken: `t-${name}`, scopesRequested: "basic_user_info" });

interface Stored {
  id: string;
  receivedAt: string;
  domain: string;
  status: string;
  resourceId: string | null;
  orderId: string | null;
  deliveryId: string | null;
  code: string | null;
  processingState: string;
}

const QUEUED = ["pending", "processing", "retrying", "dead"];

async function insertEvent(shopId: string, event: Omit<Stored, "id">): Promise<Stored> {
  const id = randomUUID();
  await sql.query(
    `INSERT INTO "WebhookEvent" ("id", "sellerId", "receivedAt", "lastReceivedAt", "domain", "status", "resourceId", "orderId", "deliveryId", "code",
       "rawBody", "bodyHash", "headers", "signatureResult", "valid", "processingState")
     VALUES ($1, $2, $3::timestamp, $3::timestamp, $4, $5, $6, $7, $8, $9, '{}', $1, '{}', 'valid', $10, $11)`,
    [
      id,
      shopId,
      event.receivedAt,
      event.domain,
      event.status,
      event.resourceId,
      event.orderId,
      event.deliveryId,
      event.code,
      event.processingState !== "skipped",
      event.processingState,
    ],
  );
  // As the queue keeps them: a row in WebhookWork for every event not processed or skipped.
  if (QUEUED.includes(event.processingState)) {
    await sql.query(`INSERT INTO "WebhookWork" ("eventId", "availableAt") VALUES ($1, $2::timestamp)`, [
      id,
      event.processingState === "dead" ? "9999-12-31T00:00:00" : "2026-01-01T00:00:00",
    ]);
  }
  return { id, ...event };
}

const newestFirst = (a: Stored, b: Stored) =>
  a.receivedAt === b.receivedAt ? (a.id < b.id ? 1 : -1) : a.receivedAt < b.receivedAt ? 1 : -1;

function filtersOf(query: string) {
  const parsed = eventsSchema.parse(new URLSearchParams(query));
  if (!parsed.success) throw new Error(parsed.error.message);
  return parsed.data;
}

describe("the event log", () => {
  let stored: Stored[];
  let shopId: string;

  beforeAll(async () => {
    shopId = (await newShop("log")).id;
    const other = (await newShop("log-other")).id;
    const states = ["processed", "processed", "processed", "skipped", "pending", "processing", "retrying", "dead"];
    stored = [];
    for (let index = 0; index < 80; index++) {
      // Every third instant is shared by three events: the id decides their order.
      const second = Math.floor(index / 3);
      const isOrder = index % 2 === 0;
      stored.push(
        await insertEvent(shopId, {
          receivedAt: new Date(Date.UTC(2026, 10, 1, 12, 0, second)).toISOString(),
          domain: isOrder ? (index % 4 === 0 ? "order.order" : "order.delivery") : "portfolio.price",
          status: ["new", "approved", "created", "updated"][index % 4]!,
          orderId: isOrder ? `o-${index % 10}` : null,
          deliveryId: isOrder && index % 4 === 2 ? `d-${index}` : null,
          resourceId: isOrder ? (index % 4 === 2 ? `d-${index}` : `o-${index % 10}`) : `r-${index % 7}`,
          code: isOrder ? null : `SKU-${index % 5}`,
          processingState: states[index % states.length]!,
        }),
      );
    }
    await insertEvent(other, {
      receivedAt: "2026-11-01T12:00:05.000Z",
      domain: "order.order",
      status: "new",
      orderId: "o-1",
      deliveryId: null,
      resourceId: "o-1",
      code: null,
      processingState: "dead",
    });
    stored.sort(newestFirst);
  });

  it("pages newest first, the id breaking ties, the same on every page", async () => {
    const pages = await Promise.all([1, 2, 3, 4].map((page) => events.listWebhookEvents(shopId, filtersOf(`page=${page}`))));
    expect(pages.map((page) => page.total)).toEqual([80, 80, 80, 80]);
    expect(pages.map((page) => page.hasNext)).toEqual([true, true, true, false]);
    expect(pages.flatMap((page) => page.rows.map((row) => row.id))).toEqual(stored.map((event) => event.id));
    const big = await events.listWebhookEvents(shopId, filtersOf("size=50&page=2"));
    expect(big.rows.map((row) => row.id)).toEqual(stored.slice(50).map((event) => event.id));
    expect((await events.recentWebhookEvents(shopId, 5)).map((row) => row.id)).toEqual(stored.slice(0, 5).map((event) => event.id));
  });

  it("filters each processing state, the queued ones included, and only the seller's", async () => {
    for (const state of ["pending", "processing", "retrying", "processed", "skipped", "dead"]) {
      const expected = stored.filter((event) => event.processingState === state).map((event) => event.id);
      const page = await events.listWebhookEvents(shopId, filtersOf(`processing=${state}&size=100`));
      expect(
        page.rows.map((row) => row.id),
        state,
      ).toEqual(expected);
      expect(page.total, state).toBe(expected.length);
      const later = await events.listWebhookEvents(shopId, filtersOf(`processing=${state}&size=25&page=2`));
      expect(
        later.rows.map((row) => row.id),
        `${state}, page 2`,
      ).toEqual(expected.slice(25, 50));
    }
  });

  it("finds a resource by any of its ids, and filters by domain, status and time", async () => {
    const cases: [string, (event: Stored) => boolean][] = [
      ["resource=o-4", (event) => [event.resourceId, event.orderId, event.deliveryId, event.code].includes("o-4")],
      ["resource=d-6", (event) => [event.resourceId, event.orderId, event.deliveryId, event.code].includes("d-6")],
      ["resource=SKU-3", (event) => event.code === "SKU-3"],
      ["resource=r-2", (event) => event.resourceId === "r-2"],
      ["domain=order.delivery", (event) => event.domain === "order.delivery"],
      ["status=approved", (event) => event.status === "approved"],
      [
        "domain=order.order&status=new&processing=processed",
        (event) => event.domain === "order.order" && event.status === "new" && event.processingState === "processed",
      ],
      [
        "from=2026-11-01T12:00:05Z&to=2026-11-01T12:00:10Z",
        (event) => event.receivedAt >= "2026-11-01T12:00:05" && event.receivedAt <= "2026-11-01T12:00:10.000Z",
      ],
    ];
    for (const [query, matches] of cases) {
      const expected = stored.filter(matches).map((event) => event.id);
      expect(expected.length, query).toBeGreaterThan(0);
      const page = await events.listWebhookEvents(shopId, filtersOf(`${query}&size=100`));
      expect(
        page.rows.map((row) => row.id),
        query,
      ).toEqual(expected);
      expect(page.total, query).toBe(expected.length);
    }
  });
});

describe("a shop with more events than are counted", () => {
  it("counts up to the cap, then pages on without a last page until the events run out", async () => {
    const shopId = (await newShop("log-busy")).id;
    const many = events.EVENT_COUNT_CAP + 30;
    await sql.query(
      `INSERT INTO "WebhookEvent" ("id", "sellerId", "receivedAt", "lastReceivedAt", "domain", "status", "rawBody", "bodyHash", "headers", "signatureResult", "valid", "processingState")
       SELECT 'busy-' || lpad(n::text, 6, '0'), $1, (now() AT TIME ZONE 'UTC') - interval '1 day' + n * interval '1 second', (now() AT TIME ZONE 'UTC') - interval '1 day' + n * interval '1 second',
              'order.order', CASE WHEN n <= 40 THEN 'approved' ELSE 'new' END, '{}', 'busy-' || n, '{}', 'valid', true, 'processed'
       FROM generate_series(1, $2::int) AS n`,
      [shopId, many],
    );
    const first = await events.listWebhookEvents(shopId, filtersOf("processing=processed&size=100"));
    expect(first).toMatchObject({ total: null, hasNext: true, page: 1 });
    expect(first.rows.map((row) => row.id).slice(0, 2)).toEqual([
      `busy-${String(many).padStart(6, "0")}`,
      `busy-${String(many - 1).padStart(6, "0")}`,
    ]);
    const lastPage = Math.ceil(many / 100);
    const last = await events.listWebhookEvents(shopId, filtersOf(`processing=processed&size=100&page=${lastPage}`));
    expect(last).toMatchObject({ total: null, hasNext: false });
    expect(last.rows).toHaveLength(many - (lastPage - 1) * 100);
    expect(last.rows.at(-1)?.id).toBe("busy-000001");
    // A filter that matches fewer than the cap is counted exactly.
    expect(await events.listWebhookEvents(shopId, filtersOf("status=approved&size=25"))).toMatchObject({ total: 40, hasNext: true });
  });
});

describe("pruning", () => {
  it("deletes finished events past the retention in batches, oldest first, skipping rows someone holds", async () => {
    const shopId = (await newShop("prune")).id;
    const daysAgo = (days: number, minutes = 0) => new Date(Date.now() - days * 86_400_000 - minutes * 60_000).toISOString();
    const event = (receivedAt: string, processingState = "processed") =>
      insertEvent(shopId, {
        receivedAt,
        domain: "chat",
        status: "new_conversation",
        orderId: null,
        deliveryId: null,
        resourceId: "c",
        code: null,
        processingState,
      });
    const old = [];
    for (let index = 0; index < 5; index++) old.push(await event(daysAgo(95, index)));
    const dead = await event(daysAgo(120), "dead");
    const recent = await event(daysAgo(10));

    // Another session holds the newest of the old events: pruning passes it by without waiting.
    const holder = await connect(process.env.DATABASE_URL!);
    try {
      await holder.query("BEGIN");
      await holder.query(`SELECT 1 FROM "WebhookEvent" WHERE "id" = $1 FOR UPDATE`, [old[0]!.id]);
      expect(await prune.pruneOldEvents(90, 2)).toBe(2);
      expect(await prune.pruneOldEvents(90, 2)).toBe(2);
      expect(await prune.pruneOldEvents(90, 2)).toBe(0);
      await holder.query("COMMIT");
    } finally {
      await holder.end();
    }
    expect(await prune.pruneOldEvents(90, 2)).toBe(1);
    const left = await sql.query<{ id: string }>(`SELECT "id" FROM "WebhookEvent" WHERE "sellerId" = $1`, [shopId]);
    expect(left.rows.map((row) => row.id).sort()).toEqual([dead.id, recent.id].sort());
  });
});

describe("the overview", () => {
  it("adds up each period per currency, and the orders of each day", async () => {
    const shopId = (await newShop("overview")).id;
    // 15:00 UTC on 20 November is noon in São Paulo: "today" began at 03:00 UTC.
    const now = new Date("2026-11-20T15:00:00.000Z");
    const orders: [string, string, string, number, string, number, string | null][] = [
      ["o1", "2026-11-20T12:00:00Z", "approved", 1000, "BRL", 100, "2026-11-20T20:00:00Z"],
      ["o2", "2026-11-20T04:00:00Z", "new", 500, "USD", 100, null],
      ["o3", "2026-11-20T02:59:00Z", "approved", 2000, "BRL", 100, "2026-11-19T10:00:00Z"],
      ["o4", "2026-11-10T12:00:00Z", "finished", 3000, "BRL", 100, null],
      ["o5", "2026-11-10T12:00:00Z", "cancelled", 9999, "BRL", 100, null],
      ["o6", "2026-10-10T12:00:00Z", "finished", 7000, "BRL", 100, null],
      ["o7", "2026-11-20T14:00:00Z", "new", 5, "BRL", 1000, null],
      ["o8", "2026-11-14T03:00:00Z", "finished", 40, "USD", 100, null],
    ];
    for (const [orderId, createdAt, status, total, currency, normalizer, nextLimitAt] of orders) {
      await sql.query(
        `INSERT INTO "OrderMirror" ("sellerId", "orderId", "status", "createdAt", "updatedAt", "customerName", "total", "currency", "normalizer", "itemCount", "deliveries", "nextLimitAt", "syncedAt")
         VALUES ($1, $2, $3, $4::timestamptz AT TIME ZONE 'UTC', $4::timestamptz AT TIME ZONE 'UTC', 'Cliente', $5, $6, $7, 1, '[]', $8::timestamptz AT TIME ZONE 'UTC', now())`,
        [shopId, orderId, status, createdAt, total, currency, normalizer, nextLimitAt],
      );
    }
    const result = await overview.getOverview(shopId, "America/Sao_Paulo", now);
    const sorted = (figure: { orders: number; totals: { currency: string; total: number; normalizer: number }[] }) => ({
      orders: figure.orders,
      totals: [...figure.totals].sort((a, b) => `${a.currency}${a.normalizer}`.localeCompare(`${b.currency}${b.normalizer}`)),
    });
    expect(result.awaitingApproval).toBe(2);
    // As the shipping page counts them: "today" includes what is late (o1 today, o3 yesterday).
    expect(result.shipToday).toBe(2);
    expect(result.late).toBe(1);
    expect(sorted(result.sales.today)).toEqual({
      orders: 3,
      totals: [
        { currency: "BRL", total: 1000, normalizer: 100 },
        { currency: "BRL", total: 5, normalizer: 1000 },
        { currency: "USD", total: 500, normalizer: 100 },
      ],
    });
    expect(sorted(result.sales.last7Days)).toEqual({
      orders: 5,
      totals: [
        { currency: "BRL", total: 3000, normalizer: 100 },
        { currency: "BRL", total: 5, normalizer: 1000 },
        { currency: "USD", total: 540, normalizer: 100 },
      ],
    });
    expect(sorted(result.sales.last30Days)).toEqual({
      orders: 6,
      totals: [
        { currency: "BRL", total: 6000, normalizer: 100 },
        { currency: "BRL", total: 5, normalizer: 1000 },
        { currency: "USD", total: 540, normalizer: 100 },
      ],
    });
    expect(result.daily).toHaveLength(30);
    // Sales in reais (centavos; 5 at normalizer 1000 is 0.5 centavo, rounded to 1), the USD orders in
    // no bar; o6, on 10 October, is the bar behind 9 November, 30 days later.
    expect(result.daily.filter((day) => day.orders > 0 || day.previousGross > 0)).toEqual([
      { day: "2026-11-09", startsAt: "2026-11-09T03:00:00.000Z", orders: 0, gross: 0, previousGross: 7000 },
      { day: "2026-11-10", startsAt: "2026-11-10T03:00:00.000Z", orders: 1, gross: 3000, previousGross: 0 },
      { day: "2026-11-14", startsAt: "2026-11-14T03:00:00.000Z", orders: 1, gross: 0, previousGross: 0 },
      { day: "2026-11-19", startsAt: "2026-11-19T03:00:00.000Z", orders: 1, gross: 2000, previousGross: 0 },
      { day: "2026-11-20", startsAt: "2026-11-20T03:00:00.000Z", orders: 3, gross: 1001, previousGross: 0 },
    ]);
    const empty = await overview.getOverview((await newShop("overview-empty")).id, "America/Sao_Paulo", now);
    expect(empty.sales.today).toEqual({ orders: 0, totals: [] });
    expect(empty.daily.every((day) => day.orders === 0)).toBe(true);
  });
});
