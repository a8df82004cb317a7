import "server-only";
import { hkdfSync } from "node:crypto";
import { env } from "@/lib/env";
import { DB_NOW, pool } from "@/lib/pg-pool.server";
import { isRole } from "@/lib/people/roles";
import type { Role } from "@/lib/people/roles";
import { defaultChoice } from "@/features/notifications/kinds";
import type { NotificationKind } from "@/features/notifications/kinds";
import { readUnsubscribeToken, unsubscribeToken } from "@/features/notifications/unsubscribe-token";
import type { UnsubscribeTarget } from "@/features/notifications/unsubscribe-token";

// A key of its own, derived from AUTH_SECRET with its own label (as the passkey challenge's is).
const key = Buffer.from(hkdfSync("sha256", env.AUTH_SECRET, "", "dashboard unsubscribe link v1", 32));

/** The page a person opens (it asks before acting: link scanners follow links) and the RFC 8058 one-click POST target. */
export function unsubscribeLink(target: UnsubscribeTarget): { page: string; oneClick: string } {
  const token = encodeURIComponent(unsubscribeToken(target, key));
  return { page: `${env.PUBLIC_BASE_URL}/unsubscribe?t=${token}`, oneClick: `${env.PUBLIC_BASE_URL}/api/unsubscribe?t=${token}` };
}

export type UnsubscribeLookup =
  | { state: "invalid" }
  | { state: "gone"; shopName: string | null }
  | { state: "member"; target: UnsubscribeTarget; shopName: string; kind: NotificationKind };

/** What a link names, for the page that asks; nothing changes. */
export async function lookUpUnsubscribe(token: string): Promise<UnsubscribeLookup> {
  return (await findTarget(token)).lookup;
}

/** The lookup, and the member's role (for the role's push default when unsubscribing). */
async function findTarget(token: string): Promise<{ lookup: UnsubscribeLookup; role: Role | null }> {
  const target = readUnsubscribeToken(token, key);
  if (!target) return { lookup: { state: "invalid" }, role: null };
  const result = await pool.query<{ shopName: string; role: string | null }>({
    name: "unsubscribe_lookup",
    text: `
      SELECT s."name" AS "shopName", m."role" FROM "Seller" s
      LEFT JOIN "Membership" m ON m."sellerId" = s."id" AND m."personId" = $1
      WHERE s."id" = $2`,
    values: [target.personId, target.shopId],
  });
  const row = result.rows[0];
  if (!row || !isRole(row.role)) return { lookup: { state: "gone", shopName: row?.shopName ?? null }, role: null };
  return { lookup: { state: "member", target, shopName: row.shopName, kind: target.kind }, role: row.role };
}

/**
 * Stops that kind by e-mail for that person and shop, and drops its e-mails still waiting. Push
 * keeps what it was (their choice, else the role's default). Safe to repeat.
 */
export async function unsubscribe(token: string): Promise<UnsubscribeLookup> {
  const { lookup, role } = await findTarget(token);
  if (lookup.state !== "member" || role === null) return lookup;
  const { target, kind } = lookup;
  await pool.query({
    name: "unsubscribe_apply",
    text: `
      WITH choice AS (
        INSERT INTO "NotificationChoice" ("personId", "sellerId", "kind", "email", "push", "updatedAt")
        VALUES ($1, $2, $3, false, $4, ${DB_NOW})
        ON CONFLICT ("personId", "sellerId", "kind") DO UPDATE SET "email" = false, "updatedAt" = ${DB_NOW}
      )
      UPDATE "NotificationMessage" SET "state" = 'dropped', "lastError" = 'unsubscribed'
      WHERE "personId" = $1 AND "sellerId" = $2 AND "kind" = $3 AND "channel" = 'email' AND "state" = 'waiting' AND "claimedBy" IS NULL`,
    values: [target.personId, target.shopId, kind, defaultChoice(kind, role).push],
  });
  return lookup;
}
