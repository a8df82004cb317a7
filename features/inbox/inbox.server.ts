import "server-only";
import { causeOfNotification, SHOP_ATTENTION_KIND } from "@/lib/shops/shop-attention";
import type { AttentionCause } from "@/lib/shops/shop-attention";
import { DB_NOW, pool } from "@/lib/pg-pool.server";
import { isRole } from "@/lib/people/roles";
import type { Role } from "@/lib/people/roles";

// A person's notifications across their shops (issue 41). Only shops the person still belongs to:
// someone removed from a shop stops seeing its notifications at once, without a deletion.
// What a notification is about (an order's reference and total) is read from the mirror when it
// is shown.

/** The newest this many are listed. */
export const INBOX_LIMIT = 50;

interface InboxItemBase {
  id: string;
  shopId: string;
  shopName: string;
  createdAt: Date;
  read: boolean;
}

export type InboxItem = InboxItemBase &
  (
    | {
        kind: "order.new" | "order.late";
        orderId: string;
        /** The order's short reference (decision 0018); null until it is given. */
        reference: number | null;
        /** The order's total as the mirror keeps it; null if the order has left the mirror. */
        total: { value: number; currency: string; normalizer: number } | null;
      }
    | {
        kind: "shop.attention";
        /** What the shop needs (lib/shops/shop-attention.ts). */
        cause: AttentionCause;
      }
    | {
        kind: "digest";
        /** The shop's date it is for, YYYY-MM-DD. */
        day: string;
      }
    | {
        kind: "member.joined";
        personId: string;
        /** Who joined and their role now; null once they left the shop. */
        name: string | null;
        role: Role | null;
      }
  );

const MEMBER_JOIN = `JOIN "Membership" m ON m."personId" = n."personId" AND m."sellerId" = n."sellerId"`;

export async function unreadCount(personId: string): Promise<number> {
  const result = await pool.query<{ count: number }>({
    name: "inbox_unread",
    text: `SELECT count(*)::int AS count FROM "Notification" n ${MEMBER_JOIN} WHERE n."personId" = $1 AND n."readAt" IS NULL`,
    values: [personId],
  });
  return result.rows[0]?.count ?? 0;
}

/** Newest first; orders told at the same instant (one batch) newest order first, as the orders list reads. */
export async function listInbox(personId: string): Promise<InboxItem[]> {
  const result = await pool.query<{
    id: string;
    kind: string;
    shopId: string;
    shopName: string;
    subject: string;
    number: number | null;
    total: number | null;
    currency: string | null;
    normalizer: number | null;
    memberName: string | null;
    memberRole: string | null;
    createdAt: Date;
    readAt: Date | null;
  }>({
    name: "inbox_list_kinds",
    text: `
      SELECT n."id", n."kind", n."sellerId" AS "shopId", s."name" AS "shopName", n."subject",
             r."number", o."total", o."currency", o."normalizer", j."name" AS "memberName", jm."role" AS "memberRole",
             n."createdAt", n."readAt"
      FROM "Notification" n ${MEMBER_JOIN}
      JOIN "Seller" s ON s."id" = n."sellerId"
      LEFT JOIN "OrderReference" r ON n."kind" LIKE 'order.%' AND r."sellerId" = n."sellerId" AND r."orderId" = n."subject"
      LEFT JOIN "OrderMirror" o ON n."kind" LIKE 'order.%' AND o."sellerId" = n."sellerId" AND o."orderId" = n."subject"
      LEFT JOIN "Person" j ON n."kind" = 'member.joined' AND j."id" = n."subject"
      LEFT JOIN "Membership" jm ON jm."personId" = j."id" AND jm."sellerId" = n."sellerId"
      WHERE n."personId" = $1 AND n."kind" IN ('order.new', 'order.late', 'member.joined', 'digest', '${SHOP_ATTENTION_KIND}')
      ORDER BY n."createdAt" DESC, o."createdAt" DESC NULLS LAST, r."number" DESC NULLS LAST, n."id" DESC
      LIMIT ${INBOX_LIMIT}`,
    values: [personId],
  });
  return result.rows.map((row): InboxItem => {
    const base = { id: row.id, shopId: row.shopId, shopName: row.shopName, createdAt: row.createdAt, read: row.readAt !== null };
    if (row.kind === "digest") return { ...base, kind: "digest", day: row.subject };
    if (row.kind === SHOP_ATTENTION_KIND) return { ...base, kind: "shop.attention", cause: causeOfNotification(row.subject) };
    if (row.kind === "member.joined") {
      return {
        ...base,
        kind: "member.joined",
        personId: row.subject,
        name: row.memberName,
        role: isRole(row.memberRole) ? row.memberRole : null,
      };
    }
    return {
      ...base,
      kind: row.kind === "order.late" ? "order.late" : "order.new",
      orderId: row.subject,
      reference: row.number,
      total:
        row.total === null || row.currency === null || row.normalizer === null
          ? null
          : { value: row.total, currency: row.currency, normalizer: row.normalizer },
    };
  });
}

/** Marks the person's own notification read and answers what it is about; null for one that is not theirs (or not any more). */
export async function openNotification(personId: string, id: string): Promise<{ shopId: string; kind: string; subject: string } | null> {
  const result = await pool.query<{ shopId: string; kind: string; subject: string }>({
    name: "inbox_open",
    text: `
      UPDATE "Notification" n SET "readAt" = coalesce(n."readAt", ${DB_NOW})
      FROM "Membership" m
      WHERE n."id" = $2 AND n."personId" = $1 AND m."personId" = n."personId" AND m."sellerId" = n."sellerId"
      RETURNING n."sellerId" AS "shopId", n."kind", n."subject"`,
    values: [personId, id],
  });
  return result.rows[0] ?? null;
}

/** Every notification of the person's, in the shops they belong to, read. */
export async function markAllRead(personId: string): Promise<number> {
  const result = await pool.query({
    name: "inbox_read_all",
    text: `
      UPDATE "Notification" n SET "readAt" = ${DB_NOW}
      FROM "Membership" m
      WHERE n."personId" = $1 AND n."readAt" IS NULL AND m."personId" = n."personId" AND m."sellerId" = n."sellerId"`,
    values: [personId],
  });
  return result.rowCount ?? 0;
}
