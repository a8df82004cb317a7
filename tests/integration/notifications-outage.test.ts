import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Delivery from "@/features/notifications/delivery.server";
import type * as Transport from "@/features/notifications/mail/transport.server";
import type * as Mirror from "@/lib/orders/order-mirror.server";
import type * as People from "@/lib/people/people.server";
import { createMarketplaceClient } from "@marketplace/api/client";
import { ordersQuery } from "@marketplace/api/list-query";
import type { Order } from "@marketplace/api/schemas/order";
import type { TestMailServer } from "../support/mail";
import { startNotificationsTestbed } from "../support/notifications";
import type { NotificationsTestbed } from "../support/notifications";
import { connectTestShop } from "../support/shops";

// The mail server down while 100 orders arrive, with two instances sending (issue 41): every
// e-mail waits, none is lost, and once the server is back each arrives exactly once. Each order is
// its own e-mail here (NOTIFY_BURST_SECONDS=0), so every notification is counted.
//
// "Two instances" are two delivery loops with their own instance ids on one database, as two
// dashboard processes run them (features/notifications/delivery.server.ts); they share work only
// through the database, as processes do.

const ORDERS = 100;
const OUTAGE_MS = 3_000;

let testbed: NotificationsTestbed;
let mail: TestMailServer;
let sql: pg.Client;
let delivery: typeof Delivery;
let transport: typeof Transport;
let mirror: typeof Mirror;
let shopId: string;
let orders: Order[];

beforeAll(async () => {
  testbed = await startNotificationsTestbed({
    seedOrders: ORDERS + 5,
    env: { NOTIFY_BURST_SECONDS: "0", NOTIFY_RETRY_BASE_SECONDS: "0.2", NOTIFY_MAX_ATTEMPTS: "3" },
  });
  ({ sql, mail } = testbed);
  const { sandbox } = testbed;
  delivery = await import("@/features/notifications/delivery.server");
  transport = await import("@/features/notifications/mail/transport.server");
  mirror = await import("@/lib/orders/order-mirror.server");
  const people: typeof People = await import("@/lib/people/people.server");
  const shop = await connectTestShop({ sandboxUrl: sandbox.url, name: "Loja Queda" });
  shopId = shop.sellerId;
  for (const [email, role] of [
    ["dona@example.com", "owner"],
    ["gerente@example.com", "manager"],
  ] as const) {
    const person = await people.personForMarketplaceAccount(email, email);
    await sql.query(`INSERT INTO "Membership" ("sellerId", "personId", "role") VALUES ($1, $2, $3)`, [shopId, person.id, role]);
  }
  orders = (await createMarketplaceClient({ baseUrl: sandbox.url, accessToken: shop.token }).listOrders(ordersQuery({ limit: 200 }))).items;
  expect(orders.length).toBeGreaterThanOrEqual(ORDERS);
}, 60_000);

afterAll(async () => {
  await testbed?.close();
});

/** Both instances run rounds, as their loops do, until `done` or the deadline. */
async function runInstances(until: () => Promise<boolean>, deadlineMs: number) {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    await Promise.all([delivery.deliverOnce("instance-a"), delivery.deliverOnce("instance-b")]);
    if (await until()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const states = async () =>
  Object.fromEntries(
    (
      await sql.query<{ state: string; count: number }>(`SELECT "state", count(*)::int AS count FROM "NotificationMessage" GROUP BY 1`)
    ).rows.map((row) => [row.state, row.count]),
  );

describe("the mail server down while orders arrive", () => {
  it("keeps every e-mail waiting, then sends each once when it is back", async () => {
    // A pooled connection the sender holds would keep maildev's graceful stop waiting; a real
    // outage breaks it. The sender opens new connections after this.
    transport.closeMailTransport();
    await mail.stop();
    // 100 orders over two writers, as two instances' processing would mirror them.
    await Promise.all([
      mirror.upsertMirrorOrders(shopId, orders.slice(0, ORDERS / 2), { tellNew: true }),
      mirror.upsertMirrorOrders(shopId, orders.slice(ORDERS / 2, ORDERS), { tellNew: true }),
    ]);
    await runInstances(async () => false, OUTAGE_MS);

    // Nothing sent, nothing given up on: an unreachable server costs no attempt, whatever
    // NOTIFY_MAX_ATTEMPTS says (3 here, and each message was tried more often than that).
    expect(await states()).toEqual({ waiting: 2 * ORDERS });
    const { rows: tried } = await sql.query<{ min: number; error: string }>(
      `SELECT min("attempts")::int AS min, min("lastError") AS error FROM "NotificationMessage"`,
    );
    expect(tried[0]!.min).toBeGreaterThanOrEqual(1);
    expect(tried[0]!.error).toMatch(/^SMTP server not reachable/);

    // What an operator sees meanwhile (docs/operations.md): every message waiting, the oldest aging.
    const { metricsRegistry } = await import("@/lib/metrics.server");
    const metric = async (name: string, labels: string) => {
      const line = (await metricsRegistry.metrics()).split("\n").find((each) => each.startsWith(`${name}{${labels}}`));
      return line === undefined ? undefined : Number(line.split(" ").at(-1));
    };
    expect(await metric("dashboard_notification_messages_waiting", 'channel="email"')).toBe(2 * ORDERS);
    expect(await metric("dashboard_notification_oldest_waiting_age_seconds", 'channel="email"')).toBeGreaterThanOrEqual(
      OUTAGE_MS / 1000 - 1,
    );
    expect(await metric("dashboard_notification_messages_total", 'channel="email",outcome="retrying"')).toBeGreaterThanOrEqual(2 * ORDERS);

    await mail.start();
    await runInstances(async () => (await states()).sent === 2 * ORDERS, 60_000);

    expect(await states()).toEqual({ sent: 2 * ORDERS });
    expect(await metric("dashboard_notification_messages_waiting", 'channel="email"')).toBe(0);
    expect(await metric("dashboard_notification_messages_total", 'channel="email",outcome="sent"')).toBe(2 * ORDERS);

    const emails = await mail.emails();
    expect(emails).toHaveLength(2 * ORDERS);
    const ids = await Promise.all(emails.map(async (email) => /^Message-ID: <([^@]+)@/im.exec(await mail.source(email.id))![1]));
    const { rows: sent } = await sql.query<{ id: string }>(`SELECT "id" FROM "NotificationMessage" ORDER BY 1`);
    expect([...ids].sort()).toEqual(sent.map((row) => row.id));
    for (const address of ["dona@example.com", "gerente@example.com"]) {
      expect(emails.filter((email) => email.to.some((each) => each.address === address))).toHaveLength(ORDERS);
    }
  }, 120_000);
});
