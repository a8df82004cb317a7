import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";
import { DB_NOW, pool } from "@/lib/pg-pool.server";
import { ROLES, can } from "@/lib/people/roles";
import type { Capability } from "@/lib/people/roles";

// Notifications written where their cause is recorded (issue 41), each with its place in the
// fan-out to e-mail and push (features/notifications). A new order's are written by the order
// mirror's own statement (lib/orders/order-mirror.server.ts); these are the others. The unique
// key (person, shop, kind, subject) tells each person once, however often the cause is seen.

const rolesWith = (capability: Capability) => ROLES.filter((role) => can(role, capability));

/** Who ships orders: told when one's handling time ran out. */
const ROLES_TOLD_OF_LATE_ORDERS = rolesWith("orders.packing");
/** Who manages the team: told when someone joins. */
const ROLES_TOLD_OF_MEMBERS = rolesWith("members.manage");

/** An order whose limit passed longer ago than this is history, not news (the back-fill's old orders). */
const LATE_NEWS_HOURS = 24;

/**
 * Orders of the shop whose handling-time limit passed within the last day with a delivery still
 * not posted (the mirror's nextLimitAt, null once nothing is left to ship): "became late". Run by reconciliation, every few minutes
 * per shop. Answers how many people were told.
 */
export async function tellLateOrders(shopId: string): Promise<number> {
  const result = await pool.query({
    name: "tell_late_orders",
    text: `
      WITH told AS (
        INSERT INTO "Notification" ("id", "personId", "sellerId", "kind", "subject", "createdAt")
        SELECT gen_random_uuid()::text, m."personId", o."sellerId", 'order.late', o."orderId", ${DB_NOW}
        FROM "OrderMirror" o JOIN "Membership" m ON m."sellerId" = o."sellerId"
        WHERE o."sellerId" = $1 AND m."role" = ANY($2::text[])
          AND o."nextLimitAt" < ${DB_NOW} AND o."nextLimitAt" > ${DB_NOW} - make_interval(hours => $3)
        ON CONFLICT DO NOTHING
        RETURNING "id"
      )
      INSERT INTO "NotificationFanOut" ("notificationId", "createdAt") SELECT "id", ${DB_NOW} FROM told`,
    values: [shopId, ROLES_TOLD_OF_LATE_ORDERS, LATE_NEWS_HOURS],
  });
  return result.rowCount ?? 0;
}

/** In the transaction that makes the person a member: the shop's owners (not the newcomer) are told. */
export async function tellMemberJoined(tx: Prisma.TransactionClient, shopId: string, personId: string): Promise<void> {
  await tx.$executeRawUnsafe(
    `
      WITH told AS (
        INSERT INTO "Notification" ("id", "personId", "sellerId", "kind", "subject", "createdAt")
        SELECT gen_random_uuid()::text, m."personId", m."sellerId", 'member.joined', $2, ${DB_NOW}
        FROM "Membership" m
        WHERE m."sellerId" = $1 AND m."personId" <> $2 AND m."role" = ANY($3::text[])
        ON CONFLICT DO NOTHING
        RETURNING "id"
      )
      INSERT INTO "NotificationFanOut" ("notificationId", "createdAt") SELECT "id", ${DB_NOW} FROM told`,
    shopId,
    personId,
    ROLES_TOLD_OF_MEMBERS,
  );
}
