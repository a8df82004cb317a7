import "server-only";
import { recordAudit } from "@/lib/audit/audit.server";
import { db } from "@/lib/db.server";
import { dueBefore, shippable } from "@/lib/orders/shipping-due.server";
import { DB_NOW, pool } from "@/lib/pg-pool.server";
import { countedPage } from "@/lib/tables/table-page";
import type { ShippingDue, ShippingFilters, ShippingPage, ShippingRow } from "@/features/shipping/shipping-params";
import { DEFAULT_PACKING_STAGE, isPackingStage } from "@/features/shipping/stages";
import type { PackingStage } from "@/features/shipping/stages";

// The platform has no packing stages, so only this module writes them (OrderPacking); an order
// without a row is still to pick.

/** A CurrentShop fits: `timeZone` is where its "today" is counted. */
export interface ShippingShop {
  id: string;
  timeZone: string;
}

export interface ShippingWhere {
  due?: ShippingDue | undefined;
  stage?: readonly PackingStage[] | undefined;
}

/** Deliveries still to post (the same rule as lib/orders/ship-by.ts). */
const OPEN_DELIVERY_STATUSES: ReadonlySet<string> = new Set(["created", "received"]);

/** `nextLimitAt` is set exactly when an order has an open delivery; the (sellerId, status, nextLimitAt) index serves this. */
function shippingWhere(shop: ShippingShop, where: ShippingWhere, now: Date): { sql: string; values: unknown[] } {
  const values: unknown[] = [shop.id];
  const clauses = [`m."sellerId" = $1`, shippable("m")];
  if (where.due) {
    // "today" ends at midnight in the shop's zone, and includes what is already late.
    values.push(dueBefore(where.due, now, shop.timeZone).toISOString());
    clauses.push(`m."nextLimitAt" < ($${values.length}::timestamptz AT TIME ZONE 'UTC')`);
  }
  if (where.stage?.length) {
    values.push([...where.stage]);
    clauses.push(`COALESCE(p."stage", '${DEFAULT_PACKING_STAGE}') = ANY($${values.length}::text[])`);
  }
  return { sql: clauses.join(" AND "), values };
}

const FROM = `"OrderMirror" m LEFT JOIN "OrderPacking" p ON p."sellerId" = m."sellerId" AND p."orderId" = m."orderId"`;

interface ListedRow {
  orderId: string;
  reference: number | null;
  customerName: string;
  itemCount: number;
  deliveries: unknown;
  nextLimitAt: Date;
  stage: string;
  stageAt: Date | null;
}

function toShippingRow(row: ListedRow, seesCustomers: boolean): ShippingRow {
  const deliveries = Array.isArray(row.deliveries) ? (row.deliveries as { status?: unknown }[]) : [];
  return {
    id: row.orderId,
    reference: row.reference,
    customerName: seesCustomers ? row.customerName : "",
    items: row.itemCount,
    openDeliveries: deliveries.filter((delivery) => typeof delivery.status === "string" && OPEN_DELIVERY_STATUSES.has(delivery.status))
      .length,
    shipBy: row.nextLimitAt.toISOString(),
    stage: isPackingStage(row.stage) ? row.stage : DEFAULT_PACKING_STAGE,
    stageAt: row.stageAt?.toISOString() ?? null,
  };
}

/** `seesCustomers`: whether the person's role sees buyers' names (decision 0010). */
export async function listShippingOrders(
  shop: ShippingShop,
  filters: ShippingFilters,
  { seesCustomers = true, now = new Date() }: { seesCustomers?: boolean; now?: Date } = {},
): Promise<ShippingPage> {
  const { sql, values } = shippingWhere(shop, { due: filters.due, stage: filters.stage }, now);
  const direction = filters.sort === "ship_by:desc" ? "DESC" : "ASC";
  const [rows, count] = await Promise.all([
    pool.query<ListedRow>(
      `SELECT m."orderId", r."number" AS "reference", m."customerName", m."itemCount", m."deliveries", m."nextLimitAt", COALESCE(p."stage", '${DEFAULT_PACKING_STAGE}') AS "stage", p."updatedAt" AS "stageAt"
       FROM ${FROM} LEFT JOIN "OrderReference" r ON r."sellerId" = m."sellerId" AND r."orderId" = m."orderId" WHERE ${sql}
       ORDER BY m."nextLimitAt" ${direction}, m."orderId" ${direction}
       LIMIT $${values.length + 1} OFFSET $${values.length + 2}`,
      [...values, filters.size, (filters.page - 1) * filters.size],
    ),
    pool.query<{ total: number }>(`SELECT count(*)::int AS "total" FROM ${FROM} WHERE ${sql}`, values),
  ]);
  return countedPage(
    rows.rows.map((row) => toShippingRow(row, seesCustomers)),
    count.rows[0]?.total ?? 0,
    filters,
  );
}

export async function shippingOrderIds(
  shop: ShippingShop,
  where: ShippingWhere,
  limit: number,
  now = new Date(),
): Promise<{ ids: string[]; total: number }> {
  const { sql, values } = shippingWhere(shop, where, now);
  const [rows, count] = await Promise.all([
    pool.query<{ orderId: string }>(
      `SELECT m."orderId" FROM ${FROM} WHERE ${sql} ORDER BY m."nextLimitAt" ASC, m."orderId" ASC LIMIT $${values.length + 1}`,
      [...values, limit],
    ),
    pool.query<{ total: number }>(`SELECT count(*)::int AS "total" FROM ${FROM} WHERE ${sql}`, values),
  ]);
  return { ids: rows.rows.map((row) => row.orderId), total: count.rows[0]?.total ?? 0 };
}

/** How many orders the shipping page lists for `where`: the overview's cards count with it, so the two agree. */
export async function countShippingOrders(shop: ShippingShop, where: ShippingWhere, now = new Date()): Promise<number> {
  const { sql, values } = shippingWhere(shop, where, now);
  const count = await pool.query<{ total: number }>(`SELECT count(*)::int AS "total" FROM ${FROM} WHERE ${sql}`, values);
  return count.rows[0]?.total ?? 0;
}

export async function packingStagesOf(shopId: string, orderIds: readonly string[]): Promise<Map<string, PackingStage>> {
  const rows =
    orderIds.length === 0
      ? []
      : await db.orderPacking.findMany({ where: { shopId, orderId: { in: [...orderIds] } }, select: { orderId: true, stage: true } });
  const stages = new Map(rows.map((row) => [row.orderId, isPackingStage(row.stage) ? row.stage : DEFAULT_PACKING_STAGE]));
  return new Map(orderIds.map((id) => [id, stages.get(id) ?? DEFAULT_PACKING_STAGE]));
}

export interface PackingChange {
  /** The shop's orders now at the stage, by id. */
  set: string[];
  /** Ids given that are not the shop's orders (another shop's, or none the dashboard knows): left alone. */
  unknown: string[];
}

/** Stage and audit entry in one transaction; an id not in the shop's mirror is reported unknown, unchanged. */
export async function setPackingStage(
  shop: { id: string },
  person: { id: string; name: string },
  orderIds: readonly string[],
  stage: PackingStage,
): Promise<PackingChange> {
  const wanted = [...new Set(orderIds)].sort();
  if (wanted.length === 0) return { set: [], unknown: [] };
  return db.$transaction(async (tx) => {
    const known = await tx.orderMirror.findMany({
      where: { shopId: shop.id, orderId: { in: wanted } },
      select: { orderId: true },
      orderBy: { orderId: "asc" },
    });
    const ids = known.map((row) => row.orderId);
    const found = new Set(ids);
    if (ids.length > 0) {
      // In id order, so two people marking overlapping selections lock rows in one order.
      await tx.$executeRawUnsafe(
        `INSERT INTO "OrderPacking" ("sellerId", "orderId", "stage", "updatedAt", "personId")
         SELECT $1, id, $2, ${DB_NOW}, $3 FROM unnest($4::text[]) AS id
         ON CONFLICT ("sellerId", "orderId") DO UPDATE SET "stage" = excluded."stage", "updatedAt" = excluded."updatedAt", "personId" = excluded."personId"`,
        shop.id,
        stage,
        person.id,
        ids,
      );
      await recordAudit(
        { shopId: shop.id, person, action: "order.packing", subject: ids.length === 1 ? ids[0]! : null, after: { stage, orderIds: ids } },
        tx,
      );
    }
    return { set: ids, unknown: wanted.filter((id) => !found.has(id)) };
  });
}
