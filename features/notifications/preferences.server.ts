import "server-only";
import { DB_NOW, inTransaction, pool } from "@/lib/pg-pool.server";
import type { Role } from "@/lib/people/roles";
import { defaultChoice, NOTIFICATION_KINDS } from "@/features/notifications/kinds";
import type { ChannelChoice, NotificationKind } from "@/features/notifications/kinds";
import type { QuietHours } from "@/features/notifications/quiet-hours";
import { DEFAULT_DIGEST_AT } from "@/features/notifications/digest.server";

// A person's notification preferences per shop (issue 41): their own, read and written only for
// shops they belong to. No row is the role's defaults (kinds.ts).

export interface ShopPreferences {
  choices: Record<NotificationKind, ChannelChoice>;
  quiet: QuietHours | null;
  /** Minutes after midnight on the shop's clock when the morning digest comes. */
  digestAt: number;
}

export async function readPreferences(
  personId: string,
  shops: readonly { id: string; role: Role }[],
): Promise<Map<string, ShopPreferences>> {
  const ids = shops.map((shop) => shop.id);
  const [choices, hours] = await Promise.all([
    pool.query<{ shopId: string; kind: string; email: boolean; push: boolean }>({
      name: "notification_choices_read",
      text: `SELECT "sellerId" AS "shopId", "kind", "email", "push" FROM "NotificationChoice" WHERE "personId" = $1 AND "sellerId" = ANY($2::text[])`,
      values: [personId, ids],
    }),
    pool.query<{ shopId: string; quietFrom: number | null; quietTo: number | null; digestAt: number | null }>({
      name: "notification_hours_read_digest",
      text: `SELECT "sellerId" AS "shopId", "quietFrom", "quietTo", "digestAt" FROM "NotificationHours" WHERE "personId" = $1 AND "sellerId" = ANY($2::text[])`,
      values: [personId, ids],
    }),
  ]);
  const result = new Map<string, ShopPreferences>();
  for (const shop of shops) {
    const chosen = (kind: NotificationKind) => choices.rows.find((row) => row.shopId === shop.id && row.kind === kind);
    const hoursRow = hours.rows.find((row) => row.shopId === shop.id);
    result.set(shop.id, {
      choices: Object.fromEntries(
        NOTIFICATION_KINDS.map((kind) => {
          const row = chosen(kind);
          return [kind, row ? { email: row.email, push: row.push } : defaultChoice(kind, shop.role)];
        }),
      ) as Record<NotificationKind, ChannelChoice>,
      quiet:
        hoursRow && hoursRow.quietFrom !== null && hoursRow.quietTo !== null ? { from: hoursRow.quietFrom, to: hoursRow.quietTo } : null,
      digestAt: hoursRow?.digestAt ?? DEFAULT_DIGEST_AT,
    });
  }
  return result;
}

/**
 * Saves one shop's choices. Waiting e-mails of a kind switched off are dropped, as unsubscribing
 * drops them; messages held by quiet hours keep the time they were given.
 */
export async function savePreferences(personId: string, shopId: string, preferences: ShopPreferences): Promise<void> {
  await inTransaction(async (client) => {
    // Only a member's own row: the membership is checked, and held, in the same transaction.
    const member = await client.query(`SELECT 1 FROM "Membership" WHERE "personId" = $1 AND "sellerId" = $2 FOR SHARE`, [personId, shopId]);
    if (member.rowCount === 0) throw new Error("not a member of the shop");
    for (const kind of NOTIFICATION_KINDS) {
      const choice = preferences.choices[kind];
      await client.query(
        `INSERT INTO "NotificationChoice" ("personId", "sellerId", "kind", "email", "push", "updatedAt") VALUES ($1, $2, $3, $4, $5, ${DB_NOW})
         ON CONFLICT ("personId", "sellerId", "kind") DO UPDATE SET "email" = excluded."email", "push" = excluded."push", "updatedAt" = excluded."updatedAt"`,
        [personId, shopId, kind, choice.email, choice.push],
      );
      if (!choice.email) {
        await client.query(
          `UPDATE "NotificationMessage" SET "state" = 'dropped', "lastError" = 'switched off'
           WHERE "personId" = $1 AND "sellerId" = $2 AND "kind" = $3 AND "channel" = 'email' AND "state" = 'waiting' AND "claimedBy" IS NULL`,
          [personId, shopId, kind],
        );
      }
    }
    await client.query(
      `INSERT INTO "NotificationHours" ("personId", "sellerId", "quietFrom", "quietTo", "digestAt", "updatedAt") VALUES ($1, $2, $3, $4, $5, ${DB_NOW})
       ON CONFLICT ("personId", "sellerId") DO UPDATE SET "quietFrom" = excluded."quietFrom", "quietTo" = excluded."quietTo",
         "digestAt" = excluded."digestAt", "updatedAt" = excluded."updatedAt"`,
      [personId, shopId, preferences.quiet?.from ?? null, preferences.quiet?.to ?? null, preferences.digestAt],
    );
  });
}

export interface UndeliveredSummary {
  count: number;
  /** Why most of them failed, in the outbox's words: refused by the mail server, or no attempts left. */
  refused: boolean;
}

/** For a shop's owner: messages to the shop's people given up on in the last 7 days. */
export async function undeliveredInShop(shopId: string): Promise<UndeliveredSummary> {
  const result = await pool.query<{ count: number; refused: number }>({
    name: "notification_undelivered",
    text: `
      SELECT count(*)::int AS count, count(*) FILTER (WHERE "lastError" LIKE 'SMTP 5%')::int AS refused
      FROM "NotificationMessage"
      WHERE "sellerId" = $1 AND "state" = 'failed' AND "createdAt" > ${DB_NOW} - interval '7 days'`,
    values: [shopId],
  });
  const row = result.rows[0] ?? { count: 0, refused: 0 };
  return { count: row.count, refused: row.refused > 0 && row.refused * 2 >= row.count };
}
