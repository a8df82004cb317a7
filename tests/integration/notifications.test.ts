import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Delivery from "@/features/notifications/delivery.server";
import type * as Unsubscribe from "@/features/notifications/unsubscribe-route.server";
import type * as Mirror from "@/lib/orders/order-mirror.server";
import type * as People from "@/lib/people/people.server";
import type { Role } from "@/lib/people/roles";
import { createMarketplaceClient } from "@marketplace/api/client";
import { ordersQuery, pricesQuery } from "@marketplace/api/list-query";
import type { Order } from "@marketplace/api/schemas/order";
import type { Price } from "@marketplace/api/schemas/price";
import type { TestSandbox } from "@marketplace/sandbox/testing";
import type { ReceivedEmail, TestMailServer } from "../support/mail";
import { startNotificationsTestbed } from "../support/notifications";
import type { NotificationsTestbed } from "../support/notifications";
import { connectTestShop } from "../support/shops";

// E-mail notifications (issue 41) from a real database and the sandbox's orders to a real SMTP
// server (maildev), read back through its API: who gets which words, the burst rule, quiet hours,
// one-click unsubscribe, and header injection.

const BURST_SECONDS = 3;
const PUBLIC = "https://painel.example.com";

let testbed: NotificationsTestbed;
let sandbox: TestSandbox;
let mail: TestMailServer;
let sql: pg.Client;
let delivery: typeof Delivery;
let unsubscribeRoute: typeof Unsubscribe;
let mirror: typeof Mirror;
let people: typeof People;
let shopId: string;
let shopToken: string;
let shop2Id: string;
let orders: Order[];
let orders2: Order[];
const persons: Partial<Record<Role, string>> = {};
let next = 0;
const fresh = (count: number) => orders.slice(next, (next += count));
/** An approved order (only those are shipped, so only those run late) not yet made late here. */
const madeLate = new Set<string>();
/** `told`: orders already told late, left out (the seed's limits move with the clock). */
function approvedOrder(told: ReadonlySet<string> = new Set()): Order {
  const order = orders.find((candidate) => candidate.status === "approved" && !madeLate.has(candidate.id) && !told.has(candidate.id));
  if (!order) throw new Error("no approved order left in the seed");
  madeLate.add(order.id);
  return order;
}

async function addMember(shop: string, email: string, name: string, role: Role, locale: string | null = "pt-BR") {
  const person = await people.personForMarketplaceAccount(email, name);
  await sql.query(`UPDATE "Person" SET "locale" = $2 WHERE "id" = $1`, [person.id, locale]);
  await sql.query(`INSERT INTO "Membership" ("sellerId", "personId", "role") VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [
    shop,
    person.id,
    role,
  ]);
  return person.id;
}

/** What every instance's delivery loop does, until nothing is due (gathering messages wait). */
async function deliverAll(instances = ["a"]) {
  for (let round = 0; round < 200; round++) {
    const busy = await Promise.all(instances.map((instance) => delivery.deliverOnce(instance)));
    if (!busy.some(Boolean)) return;
  }
  throw new Error("delivery did not settle");
}

/** The next notification of a kind just sent goes at once again, not into a burst. */
const burstWindowPassed = () => new Promise((resolve) => setTimeout(resolve, BURST_SECONDS * 1000 + 200));

const to = (emails: ReceivedEmail[], address: string) => emails.filter((email) => email.to.some((each) => each.address === address));

async function referenceOf(orderId: string) {
  const { rows } = await sql.query<{ number: number }>(`SELECT "number" FROM "OrderReference" WHERE "orderId" = $1`, [orderId]);
  return rows[0]!.number;
}

const brl = (order: Order) =>
  new Intl.NumberFormat("pt-BR", { style: "currency", currency: order.amounts.currency }).format(
    order.amounts.total / order.amounts.normalizer,
  );

beforeAll(async () => {
  testbed = await startNotificationsTestbed({
    seedOrders: 40,
    env: { PUBLIC_BASE_URL: PUBLIC, NOTIFY_BURST_SECONDS: String(BURST_SECONDS) },
  });
  ({ sql, mail, sandbox } = testbed);
  delivery = await import("@/features/notifications/delivery.server");
  unsubscribeRoute = await import("@/features/notifications/unsubscribe-route.server");
  mirror = await import("@/lib/orders/order-mirror.server");
  people = await import("@/lib/people/people.server");
  const shop = await connectTestShop({ sandboxUrl: sandbox.url, name: "Loja Caixa" });
  shopId = shop.sellerId;
  shopToken = shop.token;
  const shop2 = await connectTestShop({ sandboxUrl: sandbox.url, login: "seller2@example.com", name: "Loja Dois" });
  shop2Id = shop2.sellerId;
  persons.owner = await addMember(shopId, "dona@example.com", "Dona da Loja", "owner");
  await addMember(shop2Id, "dona@example.com", "Dona da Loja", "owner");
  persons.manager = await addMember(shopId, "manager@example.com", "Manager", "manager", "en");
  persons.operations = await addMember(shopId, "operacoes@example.com", "Operações", "operations");
  persons.viewer = await addMember(shopId, "visualizador@example.com", "Visualizador", "viewer");
  // The viewer chose e-mail for new orders: their copy follows their role's rules.
  await sql.query(
    `INSERT INTO "NotificationChoice" ("personId", "sellerId", "kind", "email", "push") VALUES ($1, $2, 'order.new', true, false)`,
    [persons.viewer, shopId],
  );
  orders = (await createMarketplaceClient({ baseUrl: sandbox.url, accessToken: shop.token }).listOrders(ordersQuery({ limit: 100 }))).items;
  orders2 = (await createMarketplaceClient({ baseUrl: sandbox.url, accessToken: shop2.token }).listOrders(ordersQuery({ limit: 10 })))
    .items;
  expect(orders.length).toBeGreaterThanOrEqual(30);
  expect(orders2.length).toBeGreaterThanOrEqual(2);
}, 60_000);

afterAll(async () => {
  await testbed?.close();
});

describe("e-mail notifications", () => {
  it("tell owners and managers of a new order in their language, with its reference and total; the viewer's copy has no customer", async () => {
    const [order] = fresh(1);
    await mirror.upsertMirrorOrders(shopId, [order!], { tellNew: true });
    await deliverAll();
    const emails = await mail.emails();
    const reference = `#${await referenceOf(order!.id)}`;

    const [owner] = to(emails, "dona@example.com");
    expect(owner?.subject).toBe(`Pedido novo ${reference} · ${brl(order!)} — Loja Caixa`);
    expect(owner?.text).toContain(`Cliente: ${order!.customer.name}`);
    expect(owner?.text).toContain(`${PUBLIC}/s/${shopId}/orders/${order!.id}`);
    expect(owner?.html).toContain(`href="${PUBLIC}/s/${shopId}/orders/${order!.id}"`);

    const [manager] = to(emails, "manager@example.com");
    expect(manager?.subject).toMatch(new RegExp(`^New order ${reference} · R\\$`));
    expect(manager?.text).toContain(`Customer: ${order!.customer.name}`);

    // Operations hears of orders in the inbox only (the role's default); the viewer opted in.
    expect(to(emails, "operacoes@example.com")).toEqual([]);
    const [viewer] = to(emails, "visualizador@example.com");
    expect(viewer?.subject).toBe(owner?.subject);
    expect(viewer?.text).not.toContain(order!.customer.name);
    expect(viewer?.html).not.toContain(order!.customer.name);
    expect(emails).toHaveLength(3);

    // Headers: the message's id, and one-click unsubscribe (RFC 8058) on the public URL.
    const source = await mail.source(owner!.id);
    const { rows } = await sql.query<{ id: string }>(`SELECT "id" FROM "NotificationMessage" WHERE "personId" = $1 AND "state" = 'sent'`, [
      persons.owner,
    ]);
    expect(source).toMatch(new RegExp(`^Message-ID: <${rows[0]!.id}@painel\\.example\\.com>\\r?$`, "im"));
    expect(source).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    expect(source).toMatch(new RegExp(`^List-Unsubscribe:\\s+<${PUBLIC.replace(/\./g, "\\.")}/api/unsubscribe\\?t=u1\\.`, "m"));
    await mail.clear();
  });

  it("gathers the orders of a burst into one message that counts them, sent when the window ends", async () => {
    // The first order of the window went above; these 25 arrive within it, in five batches.
    const burst = fresh(25);
    for (let batch = 0; batch < 5; batch++) {
      await mirror.upsertMirrorOrders(shopId, burst.slice(batch * 5, batch * 5 + 5), { tellNew: true });
      await deliverAll();
    }
    expect(to(await mail.emails(), "dona@example.com")).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, BURST_SECONDS * 1000 + 200));
    await deliverAll();
    const emails = await mail.emails();
    const owner = to(emails, "dona@example.com");
    expect(owner.map((email) => email.subject)).toEqual(["25 pedidos novos — Loja Caixa"]);
    expect(owner[0]!.text).toContain(`${PUBLIC}/s/${shopId}/orders`);
    expect(to(emails, "manager@example.com").map((email) => email.subject)).toEqual(["25 new orders — Loja Caixa"]);
    await mail.clear();
  });

  it("holds messages during the person's quiet hours, until they end on the shop's clock", async () => {
    // Quiet now and for the next hour or two, whatever the time of day the test runs.
    const { rows } = await sql.query<{ minute: number }>(
      `SELECT (extract(hour FROM now() AT TIME ZONE 'America/Sao_Paulo') * 60 + extract(minute FROM now() AT TIME ZONE 'America/Sao_Paulo'))::int AS minute`,
    );
    const from = rows[0]!.minute;
    const until = (from + 120) % 1440;
    await sql.query(`INSERT INTO "NotificationHours" ("personId", "sellerId", "quietFrom", "quietTo") VALUES ($1, $2, $3, $4)`, [
      persons.manager,
      shopId,
      from,
      until,
    ]);
    await new Promise((resolve) => setTimeout(resolve, BURST_SECONDS * 1000 + 200));
    const [order] = fresh(1);
    await mirror.upsertMirrorOrders(shopId, [order!], { tellNew: true });
    await deliverAll();
    const emails = await mail.emails();
    expect(to(emails, "dona@example.com")).toHaveLength(1);
    expect(to(emails, "manager@example.com")).toEqual([]);
    const { rows: held } = await sql.query<{ waitMinutes: number }>(
      `SELECT round(extract(epoch FROM "dueAt" - (now() AT TIME ZONE 'UTC')) / 60)::int AS "waitMinutes"
       FROM "NotificationMessage" WHERE "personId" = $1 AND "state" = 'waiting'`,
      [persons.manager],
    );
    expect(held).toHaveLength(1);
    expect(held[0]!.waitMinutes).toBeGreaterThanOrEqual(118);
    expect(held[0]!.waitMinutes).toBeLessThanOrEqual(120);
    await sql.query(`DELETE FROM "NotificationHours" WHERE "personId" = $1`, [persons.manager]);
    await sql.query(`DELETE FROM "NotificationMessage" WHERE "personId" = $1 AND "state" = 'waiting'`, [persons.manager]);
    await mail.clear();
  });

  it("unsubscribes in one click, signed out, from that kind in that shop only; a forged link changes nothing", async () => {
    await new Promise((resolve) => setTimeout(resolve, BURST_SECONDS * 1000 + 200));
    // The owner's link, as an e-mail carries it.
    const [order] = fresh(1);
    await mirror.upsertMirrorOrders(shopId, [order!], { tellNew: true });
    await deliverAll();
    const [email] = to(await mail.emails(), "dona@example.com");
    const link = /^List-Unsubscribe:\s+<([^>]+)>/m.exec(await mail.source(email!.id))![1]!;
    await mail.clear();

    const forged = link.replace(/t=u1\.([^.]+)\./, (_whole, payload: string) => `t=u1.${payload.slice(0, -2)}AA.`);
    const refused = await unsubscribeRoute.unsubscribePostRoute(
      new Request(forged, {
        method: "POST",
        body: "List-Unsubscribe=One-Click",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      }),
    );
    expect(refused.status).toBe(400);

    // A mail client's one-click POST: no cookie, no session.
    const done = await unsubscribeRoute.unsubscribePostRoute(
      new Request(link, {
        method: "POST",
        body: "List-Unsubscribe=One-Click",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      }),
    );
    expect(done.status).toBe(200);
    // A GET (a link scanner) only opens the page that asks.
    const scanned = await unsubscribeRoute.unsubscribeGetRoute(new Request(link));
    expect(scanned.status).toBe(303);
    expect(scanned.headers.get("location")).toBe(link.replace("/api/unsubscribe?", "/unsubscribe?"));

    await new Promise((resolve) => setTimeout(resolve, BURST_SECONDS * 1000 + 200));
    await mirror.upsertMirrorOrders(shopId, fresh(1), { tellNew: true });
    await mirror.upsertMirrorOrders(shop2Id, orders2.slice(0, 1), { tellNew: true });
    await deliverAll();
    const emails = await mail.emails();
    // The owner still hears of the other shop's order, and the manager of this one's.
    expect(to(emails, "dona@example.com").map((each) => each.subject)).toEqual([expect.stringMatching(/— Loja Dois$/)]);
    expect(to(emails, "manager@example.com")).toHaveLength(1);
    // The inbox still tells the owner.
    const { rows: inbox } = await sql.query(`SELECT 1 FROM "Notification" WHERE "personId" = $1 AND "sellerId" = $2`, [
      persons.owner,
      shopId,
    ]);
    expect(inbox.length).toBe(next);
    await mail.clear();
  });

  it("keeps a name with a line break from adding a header", async () => {
    await sql.query(`UPDATE "Person" SET "name" = $2 WHERE "id" = $1`, [persons.manager, "Ana\r\nBcc: intruso@example.com"]);
    await new Promise((resolve) => setTimeout(resolve, BURST_SECONDS * 1000 + 200));
    await mirror.upsertMirrorOrders(shopId, fresh(1), { tellNew: true });
    await deliverAll();
    const [email] = to(await mail.emails(), "manager@example.com");
    const source = await mail.source(email!.id);
    expect(source).not.toMatch(/^Bcc:/im);
    expect(source).toMatch(/^To: .*Ana Bcc: intruso@example\.com.*<manager@example\.com>\r?$/m);
    expect((await mail.emails()).flatMap((each) => each.to.map((address) => address.address))).not.toContain("intruso@example.com");
    await mail.clear();
  });

  it("sends nothing to a person who left the shop, even what was waiting for them", async () => {
    await new Promise((resolve) => setTimeout(resolve, BURST_SECONDS * 1000 + 200));
    await mirror.upsertMirrorOrders(shopId, fresh(1), { tellNew: true });
    // Written and fanned out, but not yet sent: then the viewer leaves.
    const { fanOutNotifications } = await import("@/features/notifications/fan-out.server");
    await fanOutNotifications();
    await sql.query(`DELETE FROM "Membership" WHERE "sellerId" = $1 AND "personId" = $2`, [shopId, persons.viewer]);
    await deliverAll();
    expect(to(await mail.emails(), "visualizador@example.com")).toEqual([]);
    const { rows } = await sql.query<{ state: string }>(
      `SELECT "state" FROM "NotificationMessage" WHERE "personId" = $1 ORDER BY "createdAt" DESC LIMIT 1`,
      [persons.viewer],
    );
    expect(rows[0]?.state).toBe("dropped");
  });

  it("tells those who ship of an order whose handling time ran out, once, in words of a late order", async () => {
    // What earlier tests left gathering goes first.
    await new Promise((resolve) => setTimeout(resolve, BURST_SECONDS * 1000 + 200));
    await deliverAll();
    await mail.clear();
    const order = approvedOrder();
    await mirror.upsertMirrorOrders(shopId, [order]);
    // The platform's limit for the order passed an hour ago, unshipped (what the mirror holds then).
    await sql.query(`UPDATE "OrderMirror" SET "nextLimitAt" = (now() AT TIME ZONE 'UTC') - interval '1 hour' WHERE "orderId" = $1`, [
      order.id,
    ]);
    // Every approved order past its limit within the last day, the seed's included, is news.
    const { rows: late } = await sql.query<{ orderId: string }>(
      `SELECT "orderId" FROM "OrderMirror" WHERE "sellerId" = $1 AND "status" = 'approved' AND "nextLimitAt" < (now() AT TIME ZONE 'UTC')
         AND "nextLimitAt" > (now() AT TIME ZONE 'UTC') - interval '24 hours'`,
      [shopId],
    );
    expect(late.map((row) => row.orderId)).toContain(order.id);
    const { tellLateOrders } = await import("@/lib/orders/late-orders.server");
    const told = await tellLateOrders(shopId);
    expect(await tellLateOrders(shopId)).toBe(0);
    await deliverAll();
    const emails = await mail.emails();
    // Owner, manager and operations: the roles that ship. (The viewer left the shop above.)
    expect(told).toBe(3 * late.length);
    // Told in one reconciliation, they are one message per person: the order, or a count of them.
    const reference = `#${await referenceOf(order.id)}`;
    const [pt, en] =
      late.length === 1
        ? [`Pedido atrasado ${reference} — Loja Caixa`, `Late order ${reference} — Loja Caixa`]
        : [`${late.length} pedidos atrasados — Loja Caixa`, `${late.length} late orders — Loja Caixa`];
    expect(to(emails, "dona@example.com").map((each) => each.subject)).toEqual([pt]);
    expect(to(emails, "operacoes@example.com").map((each) => each.subject)).toEqual([pt]);
    expect(to(emails, "manager@example.com").map((each) => each.subject)).toEqual([en]);
    await mail.clear();

    // The next one to run late, alone, is named. Not one of the seed's told above: whether a seed
    // order's limit passed within the last day depends on the hour the test runs.
    await new Promise((resolve) => setTimeout(resolve, BURST_SECONDS * 1000 + 200));
    const next = approvedOrder(new Set(late.map((row) => row.orderId)));
    await mirror.upsertMirrorOrders(shopId, [next]);
    await sql.query(`UPDATE "OrderMirror" SET "nextLimitAt" = (now() AT TIME ZONE 'UTC') - interval '5 minutes' WHERE "orderId" = $1`, [
      next.id,
    ]);
    expect(await tellLateOrders(shopId)).toBe(3);
    await deliverAll();
    const [alone] = to(await mail.emails(), "dona@example.com");
    expect(alone?.subject).toBe(`Pedido atrasado #${await referenceOf(next.id)} — Loja Caixa`);
    expect(alone?.text).toContain(`${PUBLIC}/s/${shopId}/orders/${next.id}`);
    await mail.clear();
  });

  it("tells the owners, not the newcomer, when someone joins by an invitation", async () => {
    const { createInvitation } = await import("@/features/people/invitations.server");
    const { acceptInvitation } = await import("@/lib/people/invitations.server");
    const invitation = await createInvitation(shopId, "operations", persons.owner!);
    const newcomer = await people.personForMarketplaceAccount("novata@example.com", "Novata Souza");
    expect((await acceptInvitation(invitation.token, newcomer.id)).state).toBe("open");
    await deliverAll();
    const emails = await mail.emails();
    expect(to(emails, "dona@example.com").map((each) => each.subject)).toEqual(["Novata Souza entrou na equipe da loja Loja Caixa"]);
    expect(to(emails, "dona@example.com")[0]!.text).toContain("agora tem o papel “Operações”");
    expect(to(emails, "novata@example.com")).toEqual([]);
    expect(to(emails, "manager@example.com")).toEqual([]);
    await mail.clear();
  });

  it("writes the morning digest at the time the person chose on the shop's clock, once a day, with the shop's figures", async () => {
    await new Promise((resolve) => setTimeout(resolve, BURST_SECONDS * 1000 + 200));
    await deliverAll();
    await mail.clear();
    const { tellDueDigests } = await import("@/features/notifications/digest.server");
    await sql.query(
      `INSERT INTO "NotificationHours" ("personId", "sellerId", "digestAt") VALUES ($1, $2, $3)
       ON CONFLICT ("personId", "sellerId") DO UPDATE SET "digestAt" = excluded."digestAt", "quietFrom" = NULL, "quietTo" = NULL`,
      [persons.owner, shopId, 7 * 60 + 30],
    );
    // The dashboard's clock, injected: today in São Paulo (UTC−3), a minute before and after 07:30.
    const { rows } = await sql.query<{ day: string }>(`SELECT to_char(now() AT TIME ZONE 'America/Sao_Paulo', 'YYYY-MM-DD') AS day`);
    const day = rows[0]!.day;
    const digests = async () =>
      (
        await sql.query(`SELECT 1 FROM "Notification" WHERE "personId" = $1 AND "sellerId" = $2 AND "kind" = 'digest'`, [
          persons.owner,
          shopId,
        ])
      ).rowCount;
    await tellDueDigests(new Date(`${day}T10:29:00Z`));
    expect(await digests()).toBe(0);
    await tellDueDigests(new Date(`${day}T10:31:00Z`));
    await tellDueDigests(new Date(`${day}T10:45:00Z`));
    expect(await digests()).toBe(1);

    await deliverAll();
    const [email] = to(await mail.emails(), "dona@example.com");
    const date = new Intl.DateTimeFormat("pt-BR", { day: "numeric", month: "long", timeZone: "UTC" }).format(new Date(`${day}T12:00:00Z`));
    expect(email?.subject).toBe(`Resumo da manhã · Loja Caixa · ${date}`);
    // Its figures are the shipping page's counts (what the seller finds when they open it), and the
    // orders placed in the last day, counted here from the mirror.
    const { countShippingOrders } = await import("@/features/shipping");
    const shop = { id: shopId, timeZone: "America/Sao_Paulo" };
    const [shipToday, late] = await Promise.all([countShippingOrders(shop, { due: "today" }), countShippingOrders(shop, { due: "late" })]);
    const { rows: figures } = await sql.query<{ fresh: number }>(
      `SELECT count(*)::int AS fresh FROM "OrderMirror" WHERE "sellerId" = $1 AND "createdAt" > (now() AT TIME ZONE 'UTC') - interval '24 hours'`,
      [shopId],
    );
    const plural = (count: number, one: string, many: string, none: string) =>
      count === 0 ? none : count === 1 ? `1 ${one}` : `${count} ${many}`;
    expect(email?.text).toContain(
      plural(shipToday, "pedido para enviar hoje", "pedidos para enviar hoje", "Nenhum pedido para enviar hoje"),
    );
    expect(email?.text).toContain(plural(late, "pedido atrasado", "pedidos atrasados", "Nenhum pedido atrasado"));
    expect(email?.text).toContain(
      plural(
        figures[0]!.fresh,
        "pedido novo nas últimas 24 horas",
        "pedidos novos nas últimas 24 horas",
        "Nenhum pedido novo nas últimas 24 horas",
      ),
    );
    expect(email?.text).toContain(`${PUBLIC}/s/${shopId}`);
    // Nobody else's time had come.
    expect((await mail.emails()).filter((each) => each.subject.startsWith("Resumo") || each.subject.startsWith("Morning"))).toHaveLength(1);
    await mail.clear();
  });

  it("counts in the digest the sell prices below their cost, prices set before the shop connected included, for those who see prices", async () => {
    const { reconcileShop } = await import("@/features/webhooks/sync/reconcile.server");
    const { setProductCost } = await import("@/features/prices/costs/product-costs.server");
    const { digestFigures, tellDueDigests } = await import("@/features/notifications/digest.server");
    // The sandbox's seeded sell prices: set before the shop connected, so no notification told the mirror of them.
    const response = await sandbox.api(`/v1.0/marketplace/portfolios/prices?${pricesQuery({ type: "sell", limit: 100 })}`, {
      token: shopToken,
    });
    const sell = ((await response.json()) as { results: Price[] }).results.filter((price) => price.currency === "BRL");
    expect(sell.length).toBeGreaterThanOrEqual(3);
    const centavos = (price: Price) => Math.round((price.value * 100) / price.normalizer);
    // Two products now cost a centavo more than they sell for; a third costs exactly its price (not below).
    const costs = [
      { sku: sell[0]!.sku, cost: centavos(sell[0]!) + 1 },
      { sku: sell[1]!.sku, cost: centavos(sell[1]!) + 1 },
      { sku: sell[2]!.sku, cost: centavos(sell[2]!) },
    ];
    const owner = { id: persons.owner!, name: "Dona da Loja" };
    for (const cost of costs) await setProductCost(shopId, owner, cost, "catalogue");
    const below = costs.filter((cost) => cost.cost > centavos(sell.find((price) => price.sku === cost.sku)!)).length;
    expect(below).toBe(2);

    // The shop's next run lists its prices once, whatever its mode.
    await sql.query(
      `INSERT INTO "SellerSync" ("sellerId", "backfillState", "cursor") VALUES ($1, 'done', now())
       ON CONFLICT ("sellerId") DO UPDATE SET "backfillState" = 'done', "cursor" = now()`,
      [shopId],
    );
    const shop = { id: shopId, timeZone: "America/Sao_Paulo" };
    await reconcileShop(shopId);
    expect((await digestFigures(shop)).pricesBelowCost).toBe(below);
    const { rows: listed } = await sql.query<{ at: Date | null }>(`SELECT "pricesListedAt" AS at FROM "SellerSync" WHERE "sellerId" = $1`, [
      shopId,
    ]);
    expect(listed[0]!.at).not.toBeNull();

    // 08:00 in São Paulo, the default time of the others: the manager sees prices, operations does not.
    const { rows } = await sql.query<{ day: string }>(`SELECT to_char(now() AT TIME ZONE 'America/Sao_Paulo', 'YYYY-MM-DD') AS day`);
    await mail.clear();
    await tellDueDigests(new Date(`${rows[0]!.day}T11:01:00Z`));
    await deliverAll();
    const emails = await mail.emails();
    const [manager] = to(emails, "manager@example.com").filter((each) => each.subject.startsWith("Morning summary"));
    expect(manager?.text).toContain("2 products are for sale below their cost");
    const [operations] = to(emails, "operacoes@example.com").filter((each) => each.subject.startsWith("Resumo da manhã"));
    expect(operations?.text).toContain("pedido");
    expect(operations?.text).not.toContain("abaixo do custo");
    await mail.clear();
  });

  it("keeps the clock of the seller's day out of reach unless the test setting turns its route on", async () => {
    const { testClockRoute } = await import("@/features/notifications/test-clock-route.server");
    const { scheduleNow } = await import("@/lib/schedule-clock.server");
    const response = await testClockRoute(
      new Request(`${PUBLIC}/api/test/clock`, { method: "POST", body: JSON.stringify({ advanceSeconds: 86_400 }) }),
    );
    expect(response.status).toBe(404);
    expect(Math.abs(scheduleNow().getTime() - Date.now())).toBeLessThan(60_000);
  });

  it("tells the owners once when the platform stops accepting the shop's connection, with the way to reconnect", async () => {
    await mail.clear();
    const { markNeedsReconnect } = await import("@/lib/shops/shop-attention.server");
    // Several refused calls in a row mark it once.
    await Promise.all([markNeedsReconnect(shopId), markNeedsReconnect(shopId), markNeedsReconnect(shopId)]);
    await deliverAll();
    const emails = await mail.emails();
    expect(to(emails, "dona@example.com").map((each) => each.subject)).toEqual([
      "A loja Loja Caixa precisa ser conectada de novo ao marketplace",
    ]);
    expect(to(emails, "dona@example.com")[0]!.text).toContain(`Conectar de novo: ${PUBLIC}/s/${shopId}/settings`);
    // Only those who may connect it again.
    expect(emails).toHaveLength(1);
    await sql.query(`UPDATE "Connection" SET "needsReconnectAt" = NULL WHERE "sellerId" = $1`, [shopId]);
    await mail.clear();
  });

  it("tells the owners when a permission is missing, once per permission found missing", async () => {
    await burstWindowPassed();
    await mail.clear();
    const { recordMissingScopes } = await import("@/lib/shops/shop-attention.server");
    await Promise.all([recordMissingScopes(shopId, ["portfolio:write"]), recordMissingScopes(shopId, ["portfolio:write"])]);
    await deliverAll();
    let emails = await mail.emails();
    expect(to(emails, "dona@example.com").map((each) => each.subject)).toEqual(["Falta uma permissão da loja Loja Caixa no marketplace"]);
    expect(to(emails, "dona@example.com")[0]!.text).toContain(`Conectar de novo: ${PUBLIC}/s/${shopId}/settings`);
    expect(emails).toHaveLength(1);
    // The same permission refused again is not news; another one is.
    await recordMissingScopes(shopId, ["portfolio:write"]);
    await recordMissingScopes(shopId, ["portfolio:read"]);
    await burstWindowPassed();
    await deliverAll();
    emails = await mail.emails();
    expect(emails).toHaveLength(2);
    const { rows } = await sql.query<{ scopesMissing: string }>(`SELECT "scopesMissing" FROM "Connection" WHERE "sellerId" = $1`, [shopId]);
    expect(rows[0]!.scopesMissing).toBe("portfolio:read portfolio:write");
    await sql.query(`UPDATE "Connection" SET "scopesMissing" = '' WHERE "sellerId" = $1`, [shopId]);
    await mail.clear();
  });

  it("tells the owners once a day when platform notifications die, with the way to the failed ones", async () => {
    await burstWindowPassed();
    await mail.clear();
    const queue = await import("@/features/webhooks/process/queue.server");
    const die = async (ids: string[]) => {
      for (const id of ids) {
        await sql.query(
          `INSERT INTO "WebhookEvent" ("id", "sellerId", "receivedAt", "lastReceivedAt", "domain", "status", "rawBody", "bodyHash", "headers", "signatureResult", "valid", "processingState")
           VALUES ($1, $2, now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC', 'order.order', 'new', '{}', $1, '{}', 'valid', true, 'processing')`,
          [id, shopId],
        );
        await sql.query(
          `INSERT INTO "WebhookWork" ("eventId", "availableAt", "claimedBy") VALUES ($1, now() AT TIME ZONE 'UTC', 'instance-x')`,
          [id],
        );
      }
      await queue.finishEvents(
        "instance-x",
        ids.map((id) => ({ id, state: "dead" as const, error: "HTTP 500" })),
        [],
      );
    };
    await die(["dying-1", "dying-2"]);
    await die(["dying-3"]);
    await deliverAll();
    const emails = await mail.emails();
    expect(to(emails, "dona@example.com").map((each) => each.subject)).toEqual([
      "Alguns avisos do marketplace para a loja Loja Caixa não puderam ser processados",
    ]);
    expect(to(emails, "dona@example.com")[0]!.text).toContain(`${PUBLIC}/s/${shopId}/webhooks/events?processing=dead`);
    expect(emails).toHaveLength(1);
    const { rows } = await sql.query<{ processingState: string }>(
      `SELECT "processingState" FROM "WebhookEvent" WHERE "id" LIKE 'dying-%' ORDER BY "id"`,
    );
    expect(rows.map((row) => row.processingState)).toEqual(["dead", "dead", "dead"]);
    await sql.query(`DELETE FROM "WebhookEvent" WHERE "id" LIKE 'dying-%'`);
    await mail.clear();
  });

  it("retries, never loses or holds, a message the dashboard itself fails to prepare", async () => {
    const { createInvitation } = await import("@/features/people/invitations.server");
    const { queueInvitationEmail } = await import("@/features/notifications/mail/invitation-mail.server");
    const invitation = await createInvitation(shopId, "viewer", persons.owner!);
    await queueInvitationEmail({
      invitationId: invitation.id,
      shopId,
      inviterId: persons.owner!,
      email: "quebrado@example.com",
      link: "x",
    });
    // Its stored link no longer opens (a key gone, a row edited): composing the e-mail throws.
    await sql.query(`UPDATE "Invitation" SET "linkEnc" = 'v2.00000000.AAAA.AAAA.AAAA' WHERE "id" = $1`, [invitation.id]);
    await deliverAll();
    const { rows } = await sql.query<{ state: string; attempts: number; claimedBy: string | null; lastError: string }>(
      `SELECT "state", "attempts", "claimedBy", "lastError" FROM "NotificationMessage" WHERE "subject" = $1`,
      [invitation.id],
    );
    expect(rows).toEqual([{ state: "waiting", attempts: 1, claimedBy: null, lastError: "the dashboard could not prepare it" }]);
    expect(to(await mail.emails(), "quebrado@example.com")).toEqual([]);
  });
  it("tells the owners when reconciliation finds orders no notification told and the callback URL no longer points here", async () => {
    await burstWindowPassed();
    await mail.clear();
    const { recordCallbackTarget } = await import("@/lib/shops/shop-attention.server");
    const { reconcileShop } = await import("@/features/webhooks/sync/reconcile.server");
    // Connected with notifications on; the platform's URL was then changed outside the dashboard.
    await recordCallbackTarget(shopId, true);
    const client = createMarketplaceClient({ baseUrl: sandbox.url, accessToken: shopToken });
    await client.setWebhookUrl("http://127.0.0.1:9/outro-sistema");
    // Every order but one is known: reconciliation then finds one change no notification told.
    await mirror.upsertMirrorOrders(shopId, orders.slice(0, -1));
    const last = orders.at(-1)!;
    await sql.query(
      `INSERT INTO "SellerSync" ("sellerId", "backfillState", "cursor") VALUES ($1, 'done', $2)
       ON CONFLICT ("sellerId") DO UPDATE SET "backfillState" = 'done', "cursor" = $2`,
      [shopId, new Date(Date.parse(last.updated_at) - 60_000)],
    );
    const result = await reconcileShop(shopId);
    expect(result?.recovered).toBeGreaterThan(0);
    await deliverAll();
    const told = to(await mail.emails(), "dona@example.com").filter((each) => each.subject.includes("não chegam mais"));
    expect(told.map((each) => each.subject)).toEqual(["Os pedidos da loja Loja Caixa não chegam mais direto ao painel"]);
    expect(told[0]!.text).toContain(`${PUBLIC}/s/${shopId}/webhooks`);
    // Told once: the dashboard now knows it points elsewhere, and asks no more.
    const { rows } = await sql.query<{ callbackHere: boolean | null }>(`SELECT "callbackHere" FROM "Connection" WHERE "sellerId" = $1`, [
      shopId,
    ]);
    expect(rows[0]!.callbackHere).toBe(false);
    await mail.clear();
  });
  it("prunes what has done its work: old sent messages, push receipts and inbox items, never what still waits", async () => {
    const { pruneNotifications } = await import("@/features/notifications/prune.server");
    const ago = (days: number) => `(now() AT TIME ZONE 'UTC') - make_interval(days => ${days})`;
    const message = (id: string, state: string, days: number) =>
      sql.query(
        `INSERT INTO "NotificationMessage" ("id", "personId", "sellerId", "kind", "channel", "state", "dueAt", "createdAt")
         VALUES ($1, $2, $3, 'order.new', 'email', $4, ${ago(days)}, ${ago(days)})`,
        [id, persons.owner, shopId, state],
      );
    await message("prune-sent-old", "sent", 31);
    await message("prune-failed-old", "failed", 31);
    await message("prune-sent-recent", "sent", 29);
    await message("prune-waiting-old", "waiting", 31);
    const notification = (id: string, days: number) =>
      sql.query(
        `INSERT INTO "Notification" ("id", "personId", "sellerId", "kind", "subject", "createdAt") VALUES ($1, $2, $3, 'order.new', $1, ${ago(days)})`,
        [id, persons.owner, shopId],
      );
    await notification("prune-told-old", 91);
    await notification("prune-told-recent", 89);
    await notification("prune-unfanned-old", 91);
    await sql.query(`INSERT INTO "NotificationFanOut" ("notificationId", "createdAt") VALUES ('prune-unfanned-old', ${ago(91)})`);
    const { rows: devices } = await sql.query<{ id: string }>(
      `INSERT INTO "PushSubscription" ("id", "personId", "endpoint", "p256dh", "auth") VALUES ('prune-device', $1, 'https://push.example.com/prune', 'k', 'a') RETURNING "id"`,
      [persons.owner],
    );
    for (const [messageId, days] of [
      ["prune-push-old", 8],
      ["prune-push-recent", 6],
    ] as const)
      await sql.query(`INSERT INTO "PushSent" ("messageId", "subscriptionId", "sentAt") VALUES ($1, $2, ${ago(days)})`, [
        messageId,
        devices[0]!.id,
      ]);

    // Batches of two: every table is gone through until a batch comes back short.
    await pruneNotifications(20, 2);
    const left = async (table: string, column: string) =>
      (await sql.query<{ id: string }>(`SELECT "${column}" AS id FROM "${table}" WHERE "${column}" LIKE 'prune-%' ORDER BY 1`)).rows.map(
        (row) => row.id,
      );
    expect(await left("NotificationMessage", "id")).toEqual(["prune-sent-recent", "prune-waiting-old"]);
    expect(await left("Notification", "id")).toEqual(["prune-told-recent", "prune-unfanned-old"]);
    expect(await left("PushSent", "messageId")).toEqual(["prune-push-recent"]);
    await sql.query(`DELETE FROM "NotificationMessage" WHERE "id" LIKE 'prune-%'`);
    await sql.query(`DELETE FROM "Notification" WHERE "id" LIKE 'prune-%'`);
    await sql.query(`DELETE FROM "PushSubscription" WHERE "id" = 'prune-device'`);
  });
});
