import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Delivery from "@/features/notifications/delivery.server";
import type * as Mirror from "@/lib/orders/order-mirror.server";
import type * as People from "@/lib/people/people.server";
import { createMarketplaceClient } from "@marketplace/api/client";
import { ordersQuery } from "@marketplace/api/list-query";
import type { Order } from "@marketplace/api/schemas/order";
import type { TestMailServer } from "../support/mail";
import { startNotificationsTestbed } from "../support/notifications";
import type { NotificationsTestbed } from "../support/notifications";
import { connectTestShop } from "../support/shops";

// The burst rule (issue 41): 500 orders for one shop in a short time are not 500 e-mails. The
// first is told at once; the rest gather into one message that counts them, sent when the burst
// window ends. Two delivery instances run meanwhile, as two dashboard processes would.

const ORDERS = 500;
const BURST_SECONDS = 8;

let testbed: NotificationsTestbed;
let sql: pg.Client;
let mail: TestMailServer;
let delivery: typeof Delivery;
let mirror: typeof Mirror;
let shopId: string;
let orders: Order[];

beforeAll(async () => {
  testbed = await startNotificationsTestbed({ seedOrders: ORDERS + 20, env: { NOTIFY_BURST_SECONDS: String(BURST_SECONDS) } });
  ({ sql, mail } = testbed);
  const { sandbox } = testbed;
  delivery = await import("@/features/notifications/delivery.server");
  mirror = await import("@/lib/orders/order-mirror.server");
  const people: typeof People = await import("@/lib/people/people.server");
  const shop = await connectTestShop({ sandboxUrl: sandbox.url, name: "Loja Rajada" });
  shopId = shop.sellerId;
  const owner = await people.personForMarketplaceAccount("dona@example.com", "Dona");
  await sql.query(`INSERT INTO "Membership" ("sellerId", "personId", "role") VALUES ($1, $2, 'owner')`, [shopId, owner.id]);
  const client = createMarketplaceClient({ baseUrl: sandbox.url, accessToken: shop.token });
  orders = [];
  for (let offset = 0; orders.length < ORDERS; offset += 100) {
    const page = await client.listOrders(ordersQuery({ limit: 100, offset }));
    orders.push(...page.items);
    if (page.items.length === 0) break;
  }
  orders = orders.slice(0, ORDERS);
  expect(orders).toHaveLength(ORDERS);
}, 120_000);

afterAll(async () => {
  await testbed?.close();
});

async function deliverOnBoth() {
  for (let round = 0; round < 100; round++) {
    const busy = await Promise.all([delivery.deliverOnce("instance-a"), delivery.deliverOnce("instance-b")]);
    if (!busy.some(Boolean)) return;
  }
}

describe("500 orders for one shop in a burst", () => {
  it("are one e-mail for the first and one that counts the other 499", async () => {
    // The first order, then the other 499 in batches of 50, each mirrored (and told) as processing
    // would, with both instances delivering between batches. (Orders told in one batch are one
    // message from the start: a flood's first batch already counts them.)
    const batches = [orders.slice(0, 1), ...Array.from({ length: 10 }, (_, index) => orders.slice(1 + index * 50, 1 + (index + 1) * 50))];
    for (const batch of batches) {
      await mirror.upsertMirrorOrders(shopId, batch, { tellNew: true });
      await deliverOnBoth();
    }
    const { rows: told } = await sql.query<{ count: number }>(`SELECT count(*)::int AS count FROM "Notification" WHERE "sellerId" = $1`, [
      shopId,
    ]);
    expect(told[0]!.count).toBe(ORDERS);
    expect((await mail.emails()).map((email) => email.subject)).toEqual([expect.stringMatching(/^Pedido novo #\d+ · R\$/)]);

    await new Promise((resolve) => setTimeout(resolve, BURST_SECONDS * 1000 + 200));
    await deliverOnBoth();
    const subjects = (await mail.emails()).map((email) => email.subject).sort();
    expect(subjects).toEqual([`${ORDERS - 1} pedidos novos — Loja Rajada`, expect.stringMatching(/^Pedido novo #\d+ · R\$/)]);
    const { rows: messages } = await sql.query<{ count: number; state: string }>(
      `SELECT "count", "state" FROM "NotificationMessage" WHERE "sellerId" = $1 ORDER BY "createdAt"`,
      [shopId],
    );
    expect(messages).toEqual([
      { count: 1, state: "sent" },
      { count: ORDERS - 1, state: "sent" },
    ]);
  }, 120_000);
});
