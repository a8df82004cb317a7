import "server-only";
import { randomUUID } from "node:crypto";
import type { PoolClient } from "pg";
import { DB_NOW, inTransaction } from "@/lib/pg-pool.server";
import { isRole } from "@/lib/people/roles";
import { env } from "@/lib/env";
import { metrics } from "@/lib/metrics.server";
import { defaultChoice, isNotificationKind } from "@/features/notifications/kinds";
import type { Channel, NotificationKind } from "@/features/notifications/kinds";
import { afterQuietHours } from "@/features/notifications/quiet-hours";
import { channelsOn } from "@/features/notifications/channels.server";

// The fan-out (issue 41): each notification written with its cause (NotificationFanOut) is put into
// one message per channel the person chose, in one transaction that also deletes its fan-out row,
// so a notification joins exactly one message per channel, whoever runs this and however often.
//
// The burst rule: the first notification of a kind for a person and shop is a message due at once;
// those arriving within NOTIFY_BURST_SECONDS of the last message join one message, sent when that
// window ends, that counts them. 500 orders in two minutes are two e-mails: the first order, then
// "499 new orders". Quiet hours hold a message until they end, gathering what arrives meanwhile.

interface TakenNotification {
  id: string;
  personId: string;
  shopId: string;
  kind: string;
  subject: string;
  role: string;
  email: boolean | null;
  push: boolean | null;
  quietFrom: number | null;
  quietTo: number | null;
  timeZone: string;
  hasAddress: boolean;
  hasDevice: boolean;
  now: Date;
}

interface Group {
  key: string;
  personId: string;
  shopId: string;
  kind: NotificationKind;
  channel: Channel;
  subjects: string[];
  /** When the first of them may be sent: now, or when the person's quiet hours end. */
  earliest: Date;
  now: Date;
}

interface LastMessage {
  key: string;
  id: string;
  state: string;
  claimedBy: string | null;
  gatherUntil: Date | null;
  createdAt: Date;
}

/**
 * The rows taken are found by id (`= ANY` of the ids locked, computed once): the table fills and
 * empties by the second, so its statistics often say it is nearly empty, and as `IN (…)` the
 * planner compared each of its rows with each id taken, 34 ms a take in a bench:webhooks run
 * against 2.4 in another (tests/integration/queue-plans.test.ts).
 */
export const FAN_OUT_TAKE = {
  name: "notification_fan_out_take",
  text: `
    WITH taken AS (
      DELETE FROM "NotificationFanOut" WHERE "notificationId" = ANY(ARRAY(
        SELECT "notificationId" FROM "NotificationFanOut" ORDER BY "createdAt" LIMIT $1 FOR UPDATE SKIP LOCKED
      ))
      RETURNING "notificationId"
    )
    SELECT n."id", n."personId", n."sellerId" AS "shopId", n."kind", n."subject", m."role", c."email", c."push",
           h."quietFrom", h."quietTo", s."timeZone",
           coalesce(p."platformEmail", p."marketplaceEmail") IS NOT NULL AS "hasAddress",
           EXISTS (SELECT 1 FROM "PushSubscription" d WHERE d."personId" = n."personId") AS "hasDevice",
           ${DB_NOW} AS "now"
    FROM taken t
    JOIN "Notification" n ON n."id" = t."notificationId"
    JOIN "Membership" m ON m."personId" = n."personId" AND m."sellerId" = n."sellerId"
    JOIN "Person" p ON p."id" = n."personId"
    JOIN "Seller" s ON s."id" = n."sellerId"
    LEFT JOIN "NotificationChoice" c ON c."personId" = n."personId" AND c."sellerId" = n."sellerId" AND c."kind" = n."kind"
    LEFT JOIN "NotificationHours" h ON h."personId" = n."personId" AND h."sellerId" = n."sellerId"`,
};

/** Fans out up to `limit` notifications; answers how many were taken (0: nothing waits). */
export async function fanOutNotifications(limit = 500): Promise<number> {
  const taken = await inTransaction(async (client) => {
    const rows = (await client.query<TakenNotification>({ ...FAN_OUT_TAKE, values: [limit] })).rows;
    const groups = groupByChannel(rows);
    if (groups.length > 0) await writeMessages(client, groups);
    return rows;
  });
  for (const notification of taken) metrics.notificationsFannedOut.inc({ kind: notification.kind });
  return taken.length;
}

function groupByChannel(taken: readonly TakenNotification[]): Group[] {
  const on = channelsOn();
  const groups = new Map<string, Group>();
  for (const notification of taken) {
    // A person who left the shop is not in `taken` (the join on Membership): told nothing.
    if (!isRole(notification.role) || !isNotificationKind(notification.kind)) continue;
    const defaults = defaultChoice(notification.kind, notification.role);
    const wanted: Record<Channel, boolean> = {
      email: on.email && notification.hasAddress && (notification.email ?? defaults.email),
      push: on.push && notification.hasDevice && (notification.push ?? defaults.push),
    };
    const quiet =
      notification.quietFrom === null || notification.quietTo === null ? null : { from: notification.quietFrom, to: notification.quietTo };
    const earliest = afterQuietHours(notification.now, quiet, notification.timeZone);
    for (const channel of ["email", "push"] as const) {
      if (!wanted[channel]) continue;
      // Without a burst window (NOTIFY_BURST_SECONDS=0) every notification is a message of its own.
      const key = `${groupKey(notification.personId, notification.shopId, notification.kind, channel)}${env.NOTIFY_BURST_SECONDS === 0 ? `/${notification.id}` : ""}`;
      const group = groups.get(key);
      if (group) group.subjects.push(notification.subject);
      else
        groups.set(key, {
          key,
          personId: notification.personId,
          shopId: notification.shopId,
          kind: notification.kind,
          channel,
          subjects: [notification.subject],
          earliest,
          now: notification.now,
        });
    }
  }
  return [...groups.values()];
}

const groupKey = (personId: string, shopId: string, kind: string, channel: string) => `${personId}/${shopId}/${kind}/${channel}`;

async function writeMessages(client: PoolClient, groups: readonly Group[]) {
  // Two instances fanning out the same person's burst at once would each start a message: a lock
  // per (person, shop, kind, channel), taken in one order, makes the second see the first's.
  await client.query({
    name: "notification_fan_out_lock",
    text: `SELECT pg_advisory_xact_lock(hashtextextended(key, 41)) FROM (SELECT DISTINCT unnest($1::text[]) AS key) keys ORDER BY key`,
    values: [groups.map((group) => groupKey(group.personId, group.shopId, group.kind, group.channel))],
  });
  const last = await client.query<LastMessage>({
    name: "notification_fan_out_last",
    text: `
      SELECT g.key, l.*
      FROM json_to_recordset($1::json) AS g(key text, "personId" text, "shopId" text, kind text, channel text)
      CROSS JOIN LATERAL (
        SELECT "id", "state", "claimedBy", "gatherUntil", "createdAt" FROM "NotificationMessage" x
        WHERE x."personId" = g."personId" AND x."sellerId" = g."shopId" AND x."kind" = g.kind AND x."channel" = g.channel
        ORDER BY x."createdAt" DESC LIMIT 1
      ) l`,
    values: [JSON.stringify(groups.map(({ key, personId, shopId, kind, channel }) => ({ key, personId, shopId, kind, channel })))],
  });
  const lastByKey = new Map(last.rows.map((row) => [row.key, row]));
  const joined: { id: string; count: number }[] = [];
  const created: {
    id: string;
    personId: string;
    shopId: string;
    kind: string;
    channel: string;
    subject: string | null;
    count: number;
    dueAt: string;
    gatherUntil: string | null;
  }[] = [];
  const windowMs = env.NOTIFY_BURST_SECONDS * 1000;
  for (const group of groups) {
    const previous = lastByKey.get(group.key);
    const count = group.subjects.length;
    if (
      previous &&
      previous.state === "waiting" &&
      previous.claimedBy === null &&
      previous.gatherUntil &&
      previous.gatherUntil > group.now
    ) {
      joined.push({ id: previous.id, count });
      continue;
    }
    const burstEnds = previous ? new Date(previous.createdAt.getTime() + windowMs) : null;
    const gathering = burstEnds !== null && burstEnds > group.now;
    const quiet = group.earliest > group.now;
    // Gathering (a burst, or quiet hours) lasts until the later of the two ends.
    const dueAt = new Date(Math.max(group.earliest.getTime(), gathering ? burstEnds.getTime() : 0));
    created.push({
      id: randomUUID(),
      personId: group.personId,
      shopId: group.shopId,
      kind: group.kind,
      channel: group.channel,
      subject: count === 1 ? group.subjects[0]! : null,
      count,
      dueAt: dueAt.toISOString(),
      gatherUntil: gathering || quiet ? dueAt.toISOString() : null,
    });
  }
  if (joined.length > 0) {
    await client.query({
      name: "notification_fan_out_join",
      text: `
        UPDATE "NotificationMessage" x SET "count" = x."count" + j.count, "subject" = NULL
        FROM json_to_recordset($1::json) AS j(id text, count int) WHERE x."id" = j.id`,
      values: [JSON.stringify(joined)],
    });
  }
  if (created.length > 0) {
    await client.query({
      name: "notification_fan_out_create",
      text: `
        INSERT INTO "NotificationMessage" ("id", "personId", "sellerId", "kind", "channel", "subject", "count", "dueAt", "gatherUntil", "createdAt")
        SELECT c.id, c."personId", c."shopId", c.kind, c.channel, c.subject, c.count,
               (c."dueAt"::timestamptz AT TIME ZONE 'UTC'), (c."gatherUntil"::timestamptz AT TIME ZONE 'UTC'), ${DB_NOW}
        FROM json_to_recordset($1::json) AS c(id text, "personId" text, "shopId" text, kind text, channel text, subject text,
             count int, "dueAt" text, "gatherUntil" text)`,
      values: [JSON.stringify(created)],
    });
  }
}
