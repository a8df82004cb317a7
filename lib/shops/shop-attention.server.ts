import "server-only";
import { DB_NOW, pool, QUEUE_TOLD_FOR_FAN_OUT } from "@/lib/pg-pool.server";
import { rolesWith } from "@/lib/people/roles";
import { attentionSubjectSql, SHOP_ATTENTION_KIND } from "@/lib/shops/shop-attention";
import type { AttentionCause } from "@/lib/shops/shop-attention";

// Writes "the shop needs its owner" (lib/shops/shop-attention.ts) in the statement that records
// its cause, with its place in the fan-out to e-mail and push (features/notifications).

/** Who is told: those who may connect the shop again and set its callback URL. Constants, so inlined. */
const ROLES_TOLD = rolesWith("connection.manage")
  .map((role) => `'${role}'`)
  .join(", ");

/**
 * A CTE named `told` after one named `marked`, one row per shop whose cause just began, with its
 * "sellerId": the shop's owners are told once per occurrence (`occurrence`, SQL over `marked`).
 * QUEUE_TOLD_FOR_FAN_OUT must follow, as the statement's end or a CTE of its own.
 */
export function toldOwnersOfMarked(cause: AttentionCause, occurrence: string): string {
  return `told AS (
      INSERT INTO "Notification" ("id", "personId", "sellerId", "kind", "subject", "createdAt")
      SELECT gen_random_uuid()::text, m."personId", marked."sellerId", '${SHOP_ATTENTION_KIND}',
             ${attentionSubjectSql(cause, occurrence)}, ${DB_NOW}
      FROM marked JOIN "Membership" m ON m."sellerId" = marked."sellerId" AND m."role" IN (${ROLES_TOLD})
      ON CONFLICT DO NOTHING
      RETURNING "id"
    )`;
}

function tellOwnersOfMarked(cause: AttentionCause, occurrence: string): string {
  return `, ${toldOwnersOfMarked(cause, occurrence)} ${QUEUE_TOLD_FOR_FAN_OUT}`;
}

const AT = `to_char(marked."at", 'YYYY-MM-DD"T"HH24:MI:SS.MS')`;

/** Platform calls refused for the token, or a token no key opens: told when this marks it, not when it already was. */
export async function markNeedsReconnect(shopId: string) {
  await pool.query({
    name: "mark_needs_reconnect",
    text: `
      WITH marked AS (
        UPDATE "Connection" SET "needsReconnectAt" = ${DB_NOW}
        WHERE "sellerId" = $1 AND "needsReconnectAt" IS NULL
        RETURNING "sellerId", "needsReconnectAt" AS "at"
      )
      ${tellOwnersOfMarked("reconnect", AT)}`,
    values: [shopId],
  });
}

/**
 * A call the connection lacks a permission for: the scopes are added to those missing, and the
 * owners told when one was not known missing yet (once per connection and set of scopes).
 */
export async function recordMissingScopes(shopId: string, scopes: readonly string[]) {
  if (scopes.length === 0) return;
  await pool.query({
    name: "record_missing_scopes",
    text: `
      WITH merged AS (
        SELECT c."sellerId", c."connectedAt",
               (SELECT string_agg(DISTINCT scope, ' ' ORDER BY scope)
                FROM unnest(string_to_array(c."scopesMissing", ' ') || $2::text[]) AS scope WHERE scope <> '') AS scopes
        FROM "Connection" c WHERE c."sellerId" = $1
        FOR UPDATE
      ), marked AS (
        UPDATE "Connection" c SET "scopesMissing" = merged.scopes
        FROM merged WHERE c."sellerId" = merged."sellerId" AND c."scopesMissing" IS DISTINCT FROM merged.scopes
        RETURNING c."sellerId", merged."connectedAt" AS "at", merged.scopes
      )
      ${tellOwnersOfMarked("permissions", `${AT} || ':' || marked.scopes`)}`,
    values: [shopId, scopes],
  });
}

/**
 * What the dashboard set or read of the platform's callback URL: `here` true when it points at
 * this dashboard's receiver. Told nothing: the owner chose it, or connecting did.
 */
export async function recordCallbackTarget(shopId: string, here: boolean | null) {
  await pool.query(`UPDATE "Connection" SET "callbackHere" = $2 WHERE "sellerId" = $1`, [shopId, here]);
}

/** The callback URL pointed here and was found pointing elsewhere, or nowhere: told once each time. */
export async function markCallbackMoved(shopId: string) {
  await pool.query({
    name: "mark_callback_moved",
    text: `
      WITH marked AS (
        UPDATE "Connection" SET "callbackHere" = false
        WHERE "sellerId" = $1 AND "callbackHere"
        RETURNING "sellerId", ${DB_NOW} AS "at"
      )
      ${tellOwnersOfMarked("callback", AT)}`,
    values: [shopId],
  });
}
