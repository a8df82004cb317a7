import "server-only";
import type { OrderAmounts, OrderSummary } from "@marketplace/api/schemas/order";
import type { PriceWithHistory } from "@marketplace/api/schemas/price";
import { nameFromOrders } from "@/lib/catalogue/product-names.server";
import type { ShopOrders } from "@/lib/catalogue/product-names.server";
import { orderNet } from "@/lib/orders/net";
import { itemCountOf } from "@/lib/orders/items";
import { shipByOf } from "@/lib/orders/ship-by";
import { db } from "@/lib/db.server";
import type { Prisma } from "@/lib/generated/prisma/client";
import { DB_NOW, pool, QUEUE_TOLD_FOR_FAN_OUT } from "@/lib/pg-pool.server";
import { rolesWith } from "@/lib/people/roles";
import { customerKeysOf } from "@/lib/search/customer-keys.server";
import { soldItemsOf } from "@/lib/orders/order-items";
import type { SoldItem } from "@/lib/orders/order-items";

// Processing, reconciliation and the back-fill write here at once from several instances: a row
// only moves forward in the platform's updated_at, so a late older answer never overwrites a newer.

export interface MirrorDelivery {
  id: string;
  status: string;
  limitDate: string;
}

export interface OrderMirrorRow {
  orderId: string;
  status: string;
  createdAt: string;
  updatedAt: string;
  approvedAt: string | null;
  customerName: string;
  total: number;
  currency: string;
  normalizer: number;
  itemCount: number;
  deliveries: MirrorDelivery[];
  nextLimitAt: string | null;
  /** The net's parts in the row's normalizer (lib/orders/net.ts); null when the net is not known. */
  commission: number | null;
  sellerFreight: number | null;
  net: number | null;
  /** Search (issue 42): keyed hashes of the e-mail and document, the tracking numbers, the recipient's state. */
  customerKeys: string[];
  trackingNumbers: string;
  state: string | null;
  items: SoldItem[];
}

/** An order read without its deductions gets no net (null), never one equal to its total. */
type AmountsWithDeductions = OrderSummary["amounts"] & Partial<Pick<OrderAmounts, "freight" | "comission">>;

function netParts(amounts: AmountsWithDeductions): Pick<OrderMirrorRow, "commission" | "sellerFreight" | "net"> {
  const net = amounts.freight ? orderNet({ ...amounts, freight: amounts.freight }) : null;
  return net
    ? { commission: net.commission, sellerFreight: net.sellerFreight, net: net.net }
    : { commission: null, sellerFreight: null, net: null };
}

export function mirrorRowFromOrder(order: OrderSummary): OrderMirrorRow {
  const deliveries = order.deliveries.map((delivery) => ({
    id: delivery.id,
    status: delivery.status,
    limitDate: delivery.shipping.handling_time.limit_date,
  }));
  const shipBy = shipByOf(order);
  return {
    orderId: order.id,
    status: order.status,
    createdAt: order.created_at,
    updatedAt: order.updated_at,
    approvedAt: order.approved_at,
    customerName: order.customer.name,
    total: order.amounts.total,
    currency: order.amounts.currency,
    normalizer: order.amounts.normalizer,
    itemCount: itemCountOf(order),
    deliveries,
    nextLimitAt: shipBy === null ? null : new Date(shipBy).toISOString(),
    ...netParts(order.amounts),
    customerKeys: customerKeysOf(order.customer),
    trackingNumbers: [...new Set(order.deliveries.flatMap((delivery) => delivery.shipping.tracking?.number.trim() || []))].join(" "),
    state: order.deliveries[0]?.shipping.recipient?.address.state.trim().toUpperCase() || null,
    items: soldItemsOf(order),
  };
}

export interface MirrorWriteOptions {
  /**
   * Whether an order new to the mirror is news to the shop's people (a notification, an order the
   * notifications missed found by reconciliation), not history (the back-fill at connect).
   */
  tellNew?: boolean;
}

/**
 * Short references (decision 0018), as CTEs after `written`: each order this statement inserted
 * gets the next numbers of its shop, oldest first (then by id, as JavaScript compares them). The
 * shop's row is the counter: its update serialises two writers of one shop, so no number is given
 * twice. Shops are locked in id order, after every mirror row (the counts need all of them), and
 * FOR NO KEY UPDATE leaves the foreign keys' KEY SHARE locks of other writers alone: two
 * statements never wait on each other in a circle. One statement for every shop of the batch.
 */
const GIVE_REFERENCES_TO_WRITTEN = `
      new AS (
        SELECT w."sellerId", w."orderId",
               row_number() OVER (PARTITION BY w."sellerId" ORDER BY w."createdAt", w."orderId" COLLATE "C") AS "rank"
        FROM written w
        WHERE w."inserted" AND NOT EXISTS (SELECT 1 FROM "OrderReference" r WHERE r."sellerId" = w."sellerId" AND r."orderId" = w."orderId")
      ), counted AS (
        SELECT "sellerId", count(*)::int AS "n" FROM new GROUP BY "sellerId"
      ), locked AS (
        SELECT s."id" FROM "Seller" s WHERE s."id" IN (SELECT "sellerId" FROM counted) ORDER BY s."id" FOR NO KEY UPDATE
      ), counter AS (
        UPDATE "Seller" s SET "lastOrderNumber" = s."lastOrderNumber" + c."n"
        FROM counted c WHERE s."id" = c."sellerId" AND s."id" IN (SELECT "id" FROM locked)
        RETURNING s."id" AS "sellerId", s."lastOrderNumber" - c."n" AS "base"
      ), numbered AS (
        INSERT INTO "OrderReference" ("sellerId", "orderId", "number")
        SELECT new."sellerId", new."orderId", counter."base" + new."rank" FROM new JOIN counter USING ("sellerId")
        ON CONFLICT ("sellerId", "orderId") DO NOTHING
      )`;

/** The roles told of a new order: those that see orders (decision 0010). */
const ROLES_TOLD_OF_ORDERS = rolesWith("orders.view");

/**
 * Compared when an order comes again with the same updated_at: a column the mirror added since (a
 * back-fill fills it) or a rule of ours that changed rewrites the row; the same data does not (most
 * notifications: one change brings several), so the row, its indexes and the sales roll-up's
 * triggers are left alone.
 */
const MIRRORED_COLUMNS = [
  "status",
  "approvedAt",
  "customerName",
  "total",
  "currency",
  "normalizer",
  "itemCount",
  "deliveries",
  "nextLimitAt",
  "commission",
  "sellerFreight",
  "net",
  "customerKeys",
  "trackingNumbers",
  "state",
  "items",
];
const SAME_DATA = `(${MIRRORED_COLUMNS.map((column) => `"OrderMirror"."${column}"`).join(", ")})
  IS DISTINCT FROM (${MIRRORED_COLUMNS.map((column) => `excluded."${column}"`).join(", ")})`;
/** What a rewrite sets: the compared columns, so that none is written without being compared, and the times. */
const REWRITTEN = [...MIRRORED_COLUMNS, "updatedAt", "syncedAt"].map((column) => `"${column}" = excluded."${column}"`).join(", ");

/**
 * Newer wins; an equal updated_at rewrites the row only where its data differs. Also names the SKUs
 * the items sell and gives new orders their short references. Answers the ids written.
 */
export async function upsertMirrorOrders(
  shopId: string,
  orders: readonly OrderSummary[],
  options: MirrorWriteOptions = {},
): Promise<string[]> {
  const written = await upsertShopsMirrorOrders([{ sellerId: shopId, orders }], options);
  return written.map((row) => row.orderId);
}

export async function upsertShopsMirrorOrders(
  given: readonly ShopOrders[],
  { tellNew = false }: MirrorWriteOptions = {},
): Promise<{ sellerId: string; orderId: string }[]> {
  // A statement may write a row once: a shop given in several parts (processing lists a batch's
  // orders in chunks) or an order listed twice would fail the whole write, every event with it.
  const shops = oneEntryPerShop(given);
  // In one order everywhere (by shop, then id), so two writers upserting overlapping orders (two
  // instances, processing and reconciliation) lock rows in the same order and never deadlock.
  const rows = shops
    .flatMap(({ sellerId: shopId, orders }) => orders.map((order) => ({ sellerId: shopId, ...mirrorRowFromOrder(order) })))
    .sort((a, b) => compare(a.sellerId, b.sellerId) || compare(a.orderId, b.orderId));
  if (rows.length === 0) return [];
  // An order first mirrored here is told to the shop's people who may see orders, in the same
  // statement: the notification exists exactly when the order does (issue 41), and so does its
  // place in the fan-out to e-mail and push (features/notifications). xmax is 0 only for a row
  // this statement inserted.
  const result = await pool.query<{ sellerId: string; orderId: string }>({
    name: "order_mirror_upsert",
    text: `
      WITH written AS (
      INSERT INTO "OrderMirror" ("sellerId", "orderId", "status", "createdAt", "updatedAt", "approvedAt", "customerName",
                                 "total", "currency", "normalizer", "itemCount", "deliveries", "nextLimitAt", "commission", "sellerFreight", "net", "customerKeys", "trackingNumbers", "state", "items", "syncedAt")
      SELECT o."sellerId", o."orderId", o."status", (o."createdAt"::timestamptz AT TIME ZONE 'UTC'), (o."updatedAt"::timestamptz AT TIME ZONE 'UTC'), (o."approvedAt"::timestamptz AT TIME ZONE 'UTC'),
             o."customerName", o."total", o."currency", o."normalizer", o."itemCount", o."deliveries", (o."nextLimitAt"::timestamptz AT TIME ZONE 'UTC'),
             o."commission", o."sellerFreight", o."net", coalesce(o."customerKeys", '{}'), o."trackingNumbers", o."state", coalesce(o."items", '[]'), ${DB_NOW}
      FROM json_to_recordset($1::json) AS o("sellerId" text, "orderId" text, "status" text, "createdAt" text, "updatedAt" text, "approvedAt" text,
           "customerName" text, "total" int, "currency" text, "normalizer" int, "itemCount" int, "deliveries" jsonb, "nextLimitAt" text,
           "commission" int, "sellerFreight" int, "net" int, "customerKeys" text[], "trackingNumbers" text, "state" text, "items" jsonb)
      ON CONFLICT ("sellerId", "orderId") DO UPDATE SET ${REWRITTEN}
      WHERE "OrderMirror"."updatedAt" < excluded."updatedAt"
         OR ("OrderMirror"."updatedAt" = excluded."updatedAt" AND ${SAME_DATA})
      RETURNING "sellerId", "orderId", "createdAt", (xmax = 0) AS "inserted"
      ), told AS (
        INSERT INTO "Notification" ("id", "personId", "sellerId", "kind", "subject", "createdAt")
        SELECT gen_random_uuid()::text, m."personId", w."sellerId", 'order.new', w."orderId", ${DB_NOW}
        FROM written w JOIN "Membership" m ON m."sellerId" = w."sellerId"
        WHERE $2::boolean AND w."inserted" AND m."role" = ANY($3::text[])
        ON CONFLICT DO NOTHING
        RETURNING "id"
      ), queued AS (
        ${QUEUE_TOLD_FOR_FAN_OUT}
      ), ${GIVE_REFERENCES_TO_WRITTEN}
      SELECT "sellerId", "orderId" FROM written`,
    values: [JSON.stringify(rows), tellNew, ROLES_TOLD_OF_ORDERS],
  });
  await nameFromOrders(shops);
  return result.rows;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Each shop once, each of its orders once: the latest update of an order listed twice. */
export function oneEntryPerShop(shops: readonly ShopOrders[]): ShopOrders[] {
  const byShop = new Map<string, Map<string, OrderSummary>>();
  for (const { sellerId, orders } of shops) {
    let orderById = byShop.get(sellerId);
    if (!orderById) byShop.set(sellerId, (orderById = new Map()));
    for (const order of orders) {
      const known = orderById.get(order.id);
      if (!known || Date.parse(known.updated_at) < Date.parse(order.updated_at)) orderById.set(order.id, order);
    }
  }
  return [...byShop].map(([sellerId, orderById]) => ({ sellerId, orders: [...orderById.values()] }));
}

export interface MirroredOrderState {
  status: string;
  updatedAt: Date;
}

export async function mirroredOrderStates(shopId: string, orderIds: readonly string[]): Promise<Map<string, MirroredOrderState>> {
  if (orderIds.length === 0) return new Map();
  const result = await pool.query<{ orderId: string; status: string; updatedAt: Date }>(
    `SELECT "orderId", "status", "updatedAt" FROM "OrderMirror" WHERE "sellerId" = $1 AND "orderId" = ANY($2::text[])`,
    [shopId, orderIds],
  );
  return new Map(result.rows.map((row) => [row.orderId, { status: row.status, updatedAt: row.updatedAt }]));
}

/** Keeps the latest value of a price (endpoint 6): a price is never edited, a new one for the SKU replaces it. */
export async function upsertMirrorPrice(shopId: string, price: PriceWithHistory): Promise<void> {
  await pool.query({
    name: "price_mirror_upsert",
    text: `
      INSERT INTO "PriceMirror" ("sellerId", "priceId", "sku", "type", "value", "currency", "normalizer", "syncedAt")
      VALUES ($1, $2, $3, $4, $5, $6, $7, ${DB_NOW})
      ON CONFLICT ("sellerId", "priceId") DO UPDATE SET
        "sku" = excluded."sku", "type" = excluded."type", "value" = excluded."value", "currency" = excluded."currency",
        "normalizer" = excluded."normalizer", "syncedAt" = excluded."syncedAt"`,
    values: [shopId, price.id, price.sku, price.type, price.value, price.currency, price.normalizer],
  });
}

export interface MirrorDeadlineQuery {
  /** Ship by within [from, before): lib/orders/ship-by.ts deadlineRange. */
  range: { from: Date | null; before: Date };
  statuses?: readonly string[];
  customer?: string;
  id?: string;
  updatedFrom?: string;
  updatedTo?: string;
  sort: { field: "created_at" | "updated_at"; direction: "asc" | "desc" };
  offset: number;
  limit: number;
}

export async function mirroredOrderIdsByShipBy(shopId: string, query: MirrorDeadlineQuery): Promise<{ ids: string[]; total: number }> {
  const where: Prisma.OrderMirrorWhereInput = {
    shopId,
    nextLimitAt: { lt: query.range.before, ...(query.range.from ? { gte: query.range.from } : {}) },
    ...(query.statuses?.length ? { status: { in: [...query.statuses] } } : {}),
    ...(query.customer ? { customerName: { contains: query.customer, mode: "insensitive" } } : {}),
    ...(query.id ? { orderId: query.id } : {}),
    ...(query.updatedFrom || query.updatedTo
      ? {
          updatedAt: {
            ...(query.updatedFrom ? { gte: new Date(query.updatedFrom) } : {}),
            ...(query.updatedTo ? { lte: new Date(query.updatedTo) } : {}),
          },
        }
      : {}),
  };
  const key = query.sort.field === "created_at" ? "createdAt" : "updatedAt";
  const [total, rows] = await Promise.all([
    db.orderMirror.count({ where }),
    db.orderMirror.findMany({
      where,
      orderBy: [{ [key]: query.sort.direction }, { orderId: query.sort.direction }],
      skip: query.offset,
      take: query.limit,
      select: { orderId: true },
    }),
  ]);
  return { ids: rows.map((row) => row.orderId), total };
}
