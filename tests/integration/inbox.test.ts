import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Inbox from "@/features/inbox/inbox.server";
import type * as Mirror from "@/lib/orders/order-mirror.server";
import type * as People from "@/lib/people/people.server";
import type { Role } from "@/lib/people/roles";
import { createMarketplaceClient } from "@marketplace/api/client";
import { ordersQuery } from "@marketplace/api/list-query";
import type { Order } from "@marketplace/api/schemas/order";
import { startTestSandbox } from "@marketplace/sandbox/testing";
import type { TestSandbox } from "@marketplace/sandbox/testing";
import { connect, useTestDatabase } from "../support/database";
import { freeFixedPorts } from "../support/free-port";
import { connectTestShop } from "../support/shops";

// The inbox (issue 41) against a real database and the sandbox's orders: an order new to the mirror
// is told once to each person of the shop, in the statement that mirrors it; the back-fill's
// history is not news; a person sees their own notifications, in the shops they still belong to.

let sandbox: TestSandbox;
let sql: pg.Client;
let inbox: typeof Inbox;
let mirror: typeof Mirror;
let people: typeof People;
let shopId: string;
let all: Order[];
const persons: Partial<Record<Role, string>> = {};

async function addMember(email: string, role: Role) {
  const person = await people.personForMarketplaceAccount(email, email);
  await sql.query(`INSERT INTO "Membership" ("sellerId", "personId", "role") VALUES ($1, $2, $3)`, [shopId, person.id, role]);
  return person.id;
}

const told = async (orderIds: readonly string[]) =>
  (
    await sql.query<{ personId: string; subject: string }>(
      `SELECT "personId", "subject" FROM "Notification" WHERE "sellerId" = $1 AND "subject" = ANY($2::text[]) ORDER BY 1, 2`,
      [shopId, orderIds],
    )
  ).rows;

beforeAll(async () => {
  const url = await useTestDatabase();
  sql = await connect(url);
  const [port] = await freeFixedPorts(1);
  sandbox = await startTestSandbox({ config: { port, publicUrl: `http://localhost:${port}`, seedOrders: 12 } });
  process.env.MARKETPLACE_BASE_URL = sandbox.url;
  inbox = await import("@/features/inbox/inbox.server");
  mirror = await import("@/lib/orders/order-mirror.server");
  people = await import("@/lib/people/people.server");
  const shop = await connectTestShop({ sandboxUrl: sandbox.url, name: "Loja Caixa" });
  shopId = shop.sellerId;
  const owner = await people.personForMarketplaceAccount("seller@example.com", "Dona da Loja");
  await people.makeOwner(owner.id, shopId);
  persons.owner = owner.id;
  persons.manager = await addMember("gerente@example.com", "manager");
  persons.viewer = await addMember("visualizador@example.com", "viewer");
  const client = createMarketplaceClient({ baseUrl: sandbox.url, accessToken: shop.token });
  all = (await client.listOrders(ordersQuery({ limit: 100 }))).items;
  expect(all.length).toBeGreaterThanOrEqual(12);
}, 60_000);

afterAll(async () => {
  await sql?.end();
  await sandbox?.close();
});

describe("the inbox", () => {
  it("is not told the back-fill's history", async () => {
    await mirror.upsertMirrorOrders(shopId, all.slice(0, 6));
    expect(await told(all.map((order) => order.id))).toEqual([]);
    expect(await inbox.unreadCount(persons.owner!)).toBe(0);
  });

  it("tells each person of the shop once of each order new to the mirror, with its reference and total", async () => {
    const fresh = all.slice(6, 9);
    // A notification's order mirrored, then the same batch again (a retry) and an update of an
    // order already mirrored: each new order is told once per person, nothing else is told.
    await mirror.upsertMirrorOrders(shopId, fresh, { tellNew: true });
    await mirror.upsertMirrorOrders(shopId, fresh, { tellNew: true });
    await mirror.upsertMirrorOrders(shopId, all.slice(0, 2), { tellNew: true });
    const everyone = Object.values(persons).sort();
    expect(await told(all.map((order) => order.id))).toEqual(
      everyone
        .flatMap((personId) => fresh.map((order) => ({ personId, subject: order.id })))
        .sort((a, b) => (a.personId + a.subject < b.personId + b.subject ? -1 : 1)),
    );

    const items = await inbox.listInbox(persons.viewer!);
    // Told in one statement, they are listed newest order first.
    const newestFirst = [...fresh].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
    expect(items.map((item) => ("orderId" in item ? item.orderId : item.kind))).toEqual(newestFirst.map((order) => order.id));
    const { rows: references } = await sql.query<{ orderId: string; number: number }>(
      `SELECT "orderId", "number" FROM "OrderReference" WHERE "sellerId" = $1`,
      [shopId],
    );
    for (const item of items) {
      if (!("orderId" in item)) throw new Error("only orders were told");
      const order = fresh.find((candidate) => candidate.id === item.orderId)!;
      expect(item).toMatchObject({
        shopId,
        shopName: "Loja Caixa",
        reference: references.find((row) => row.orderId === order.id)!.number,
        total: { value: order.amounts.total, currency: order.amounts.currency, normalizer: order.amounts.normalizer },
        read: false,
      });
    }
    expect(await inbox.unreadCount(persons.manager!)).toBe(3);
  });

  it("tells two writers' copies of the same new orders once", async () => {
    const fresh = all.slice(9, 12);
    await Promise.all([
      mirror.upsertMirrorOrders(shopId, fresh, { tellNew: true }),
      mirror.upsertMirrorOrders(shopId, fresh, { tellNew: true }),
    ]);
    expect(await told(fresh.map((order) => order.id))).toHaveLength(fresh.length * Object.keys(persons).length);
  });

  it("opens only the person's own notification, marking it read, and marks all read", async () => {
    const [first] = await inbox.listInbox(persons.owner!);
    if (!first || !("orderId" in first)) throw new Error("an order was told first");
    const before = await inbox.unreadCount(persons.owner!);
    expect(await inbox.openNotification(persons.manager!, first!.id)).toBeNull();
    expect(await inbox.unreadCount(persons.owner!)).toBe(before);
    expect(await inbox.openNotification(persons.owner!, first.id)).toEqual({ shopId, kind: "order.new", subject: first.orderId });
    expect(await inbox.unreadCount(persons.owner!)).toBe(before - 1);
    expect((await inbox.listInbox(persons.owner!)).find((item) => item.id === first!.id)?.read).toBe(true);
    expect(await inbox.markAllRead(persons.owner!)).toBe(before - 1);
    expect(await inbox.unreadCount(persons.owner!)).toBe(0);
    expect(await inbox.unreadCount(persons.manager!)).toBeGreaterThan(0);
  });

  it("shows nothing of a shop to a person removed from it, at once", async () => {
    expect(await inbox.unreadCount(persons.viewer!)).toBeGreaterThan(0);
    await sql.query(`DELETE FROM "Membership" WHERE "sellerId" = $1 AND "personId" = $2`, [shopId, persons.viewer]);
    expect(await inbox.unreadCount(persons.viewer!)).toBe(0);
    expect(await inbox.listInbox(persons.viewer!)).toEqual([]);
    const { rows } = await sql.query<{ id: string }>(`SELECT "id" FROM "Notification" WHERE "personId" = $1 LIMIT 1`, [persons.viewer]);
    expect(await inbox.openNotification(persons.viewer!, rows[0]!.id)).toBeNull();
  });
});
