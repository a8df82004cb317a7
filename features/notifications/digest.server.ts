import "server-only";
import { scheduleNow } from "@/lib/schedule-clock.server";
import { pool, QUEUE_TOLD_FOR_FAN_OUT } from "@/lib/pg-pool.server";
import { DEAD_UNTIL } from "@/lib/webhook-work";
import { ROLES } from "@/lib/people/roles";
import { countDue } from "@/lib/orders/shipping-due.server";
import { defaultChoice } from "@/features/notifications/kinds";
import { countPricesBelowCost } from "@/features/prices";

// The morning digest (issue 41): once a day per person and shop, at the time the person picks on
// the shop's clock (08:00 unless chosen), for whoever would receive it on a channel. Written as a
// notification whose subject is the shop's date, so the unique key makes it once a day, whichever
// instance looks and however often. What it says is counted when it is sent.

/** Minutes after midnight, on the shop's clock, when the digest is written unless the person chose. */
export const DEFAULT_DIGEST_AT = 8 * 60;

const ROLES_EMAILED_BY_DEFAULT = ROLES.filter((role) => defaultChoice("digest", role).email);
const ROLES_PUSHED_BY_DEFAULT = ROLES.filter((role) => defaultChoice("digest", role).push);

/** `now` is injectable: the integration tests move the dashboard's clock with it. Answers how many were written. */
export async function tellDueDigests(now: Date = scheduleNow()): Promise<number> {
  const result = await pool.query({
    name: "tell_due_digests",
    text: `
      WITH due AS (
        SELECT m."personId", m."sellerId", to_char($1::timestamptz AT TIME ZONE s."timeZone", 'YYYY-MM-DD') AS day
        FROM "Membership" m
        JOIN "Seller" s ON s."id" = m."sellerId"
        JOIN "Connection" con ON con."sellerId" = m."sellerId"
        LEFT JOIN "NotificationHours" h ON h."personId" = m."personId" AND h."sellerId" = m."sellerId"
        LEFT JOIN "NotificationChoice" c ON c."personId" = m."personId" AND c."sellerId" = m."sellerId" AND c."kind" = 'digest'
        WHERE ($1::timestamptz AT TIME ZONE s."timeZone")::time
                >= make_time(coalesce(h."digestAt", $4) / 60, coalesce(h."digestAt", $4) % 60, 0)
          AND (coalesce(c."email", m."role" = ANY($2::text[])) OR coalesce(c."push", m."role" = ANY($3::text[])))
      ), told AS (
        INSERT INTO "Notification" ("id", "personId", "sellerId", "kind", "subject", "createdAt")
        SELECT gen_random_uuid()::text, "personId", "sellerId", 'digest', day, $1::timestamptz AT TIME ZONE 'UTC' FROM due
        ON CONFLICT DO NOTHING
        RETURNING "id"
      )
      ${QUEUE_TOLD_FOR_FAN_OUT}`,
    values: [now.toISOString(), ROLES_EMAILED_BY_DEFAULT, ROLES_PUSHED_BY_DEFAULT, DEFAULT_DIGEST_AT],
  });
  return result.rowCount ?? 0;
}

export interface DigestFigures {
  /** To ship today and already late: the shipping page's own counts. */
  shipToday: number;
  late: number;
  /** Orders placed in the last 24 hours. */
  newOrders: number;
  /** Platform notifications given up on (the Webhooks page's dead events). */
  deadEvents: number;
  /** Sell prices below their product's cost: the prices the guard would hold. */
  pricesBelowCost: number;
}

export async function digestFigures(shop: { id: string; timeZone: string }, now: Date = scheduleNow()): Promise<DigestFigures> {
  const [due, belowCost, counts] = await Promise.all([
    countDue(shop, now),
    countPricesBelowCost([shop.id]),
    pool.query<{ newOrders: number; deadEvents: number }>({
      name: "digest_counts",
      text: `
        SELECT (SELECT count(*)::int FROM "OrderMirror" WHERE "sellerId" = $1 AND "createdAt" > ($2::timestamptz AT TIME ZONE 'UTC') - interval '24 hours') AS "newOrders",
               (SELECT count(*)::int FROM "WebhookWork" w JOIN "WebhookEvent" e ON e."id" = w."eventId"
                 WHERE e."sellerId" = $1 AND w."availableAt" = ${DEAD_UNTIL}) AS "deadEvents"`,
      values: [shop.id, now.toISOString()],
    }),
  ]);
  return { shipToday: due.today, late: due.late, ...counts.rows[0]!, pricesBelowCost: belowCost.get(shop.id) ?? 0 };
}
