import "server-only";
import { createTranslator } from "use-intl/core";
import { SHARED_INTL } from "@/features/notifications/shared-intl";
import { env } from "@/lib/env";
import { formatMoney } from "@/lib/money";
import { DB_NOW, pool } from "@/lib/pg-pool.server";
import { shopPath } from "@/lib/shops/paths";
import { attentionPath } from "@/lib/shops/shop-attention";
import { orderLabel } from "@/lib/words/order-reference";
import { DEFAULT_LOCALE, isLocale } from "@/i18n/config";
import { catalogues } from "@/messages";
import type { Messages } from "@/messages";
import { sendPush } from "@/features/notifications/push/push-send.server";
import type { PushOutcome } from "@/features/notifications/push/push-send.server";
import type { MailTarget } from "@/features/notifications/mail/compose.server";

// A push message to every device of the person (issue 41). What a lock screen shows: the order's
// reference and total and the shop, never the customer, a document or an address.

export interface PushPayload {
  title: string;
  body: string;
  /** Opened by a tap (public/sw.js): on PUBLIC_BASE_URL. */
  url: string;
  /** Replaces an earlier notification of the same message on the device. */
  tag: string;
}

export function pushPayload(target: Omit<MailTarget, "address" | "personName">): PushPayload {
  const locale = isLocale(target.locale) ? target.locale : DEFAULT_LOCALE;
  const t = createTranslator({ locale, messages: catalogues[locale] as Messages, namespace: "notifications.push", ...SHARED_INTL });
  const shop = target.shopName;
  const { count } = target;
  const to = (path: string) => `${env.PUBLIC_BASE_URL}${shopPath(target.shopId, path)}`;
  const tag = target.messageId;
  if (target.kind === "shop.attention") {
    const { attention } = target;
    if (!attention || count > 1)
      return {
        title: t("attention.many.title", { shop }),
        body: t("attention.many.body", { count }),
        url: `${env.PUBLIC_BASE_URL}/inbox`,
        tag,
      };
    return {
      title: t(`attention.${attention}.title`, { shop }),
      body: t(`attention.${attention}.body`),
      url: to(attentionPath(attention)),
      tag,
    };
  }
  if (target.kind === "digest" && target.digest) {
    const { figures } = target.digest;
    return {
      title: t("digest.title", { shop }),
      body: t("digest.body", { shipToday: figures.shipToday, late: figures.late }),
      url: to(""),
      tag,
    };
  }
  if (target.kind === "member.joined") {
    return target.member && count === 1
      ? { title: t("joined.title", { name: target.member.name }), body: t("joined.body", { shop }), url: to("/members"), tag }
      : { title: t("joinedBurst.title", { count }), body: t("joinedBurst.body", { shop }), url: to("/members"), tag };
  }
  if (target.order && count === 1) {
    const { order } = target;
    const reference = orderLabel({ id: order.id, reference: order.reference });
    const url = to(`/orders/${encodeURIComponent(order.id)}`);
    if (target.kind === "order.late") return { title: t("late.title", { reference }), body: t("late.body", { shop }), url, tag };
    const total = formatMoney({ value: order.total, currency: order.currency, normalizer: order.normalizer }, locale);
    return { title: t("newOrder.title", { reference, total }), body: t("newOrder.body", { shop }), url, tag };
  }
  if (target.kind === "order.late")
    return { title: t("lateBurst.title", { count }), body: t("lateBurst.body", { shop }), url: to("/shipping"), tag };
  return { title: t("burst.title", { count }), body: t("burst.body", { shop }), url: to("/orders"), tag };
}

export type PushMessageResult =
  | { kind: "sent" }
  | { kind: "dropped"; error: string }
  | { kind: "refused_for_now" | "unreachable"; error: string; retryAfterSeconds?: number };

const DEVICES_IN_FLIGHT = 4;

/**
 * To each device that does not have it yet (PushSent): a retry after one device's service failed
 * does not send it again to the others. A device gone (404/410) is removed; one the policy or its
 * service refuses is given up for this message (and tried again only if another device's failure
 * retries the message).
 */
export async function sendPushMessage(messageId: string, personId: string, payload: PushPayload): Promise<PushMessageResult> {
  const { rows: devices } = await pool.query<{ id: string; endpoint: string; p256dh: string; auth: string }>({
    name: "push_devices_to_send",
    text: `
      SELECT s."id", s."endpoint", s."p256dh", s."auth" FROM "PushSubscription" s
      WHERE s."personId" = $1 AND NOT EXISTS (SELECT 1 FROM "PushSent" p WHERE p."messageId" = $2 AND p."subscriptionId" = s."id")`,
    values: [personId, messageId],
  });
  if (devices.length === 0) {
    const { rowCount } = await pool.query(`SELECT 1 FROM "PushSent" WHERE "messageId" = $1 LIMIT 1`, [messageId]);
    return rowCount ? { kind: "sent" } : { kind: "dropped", error: "no device to send to" };
  }
  const body = JSON.stringify(payload);
  const outcomes: { id: string; outcome: PushOutcome }[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(DEVICES_IN_FLIGHT, devices.length) }, async () => {
      while (next < devices.length) {
        const device = devices[next++]!;
        outcomes.push({ id: device.id, outcome: await sendPush(device, body) });
      }
    }),
  );
  const done = outcomes.filter(({ outcome }) => outcome.kind === "sent").map(({ id }) => id);
  const gone = outcomes.filter(({ outcome }) => outcome.kind === "gone").map(({ id }) => id);
  if (done.length > 0) {
    await pool.query({
      name: "push_sent_record",
      text: `
        WITH sent AS (
          INSERT INTO "PushSent" ("messageId", "subscriptionId", "sentAt") SELECT $1, id, ${DB_NOW} FROM unnest($2::text[]) AS id
          ON CONFLICT DO NOTHING
        )
        UPDATE "PushSubscription" SET "lastSentAt" = ${DB_NOW} WHERE "id" = ANY($2::text[])`,
      values: [messageId, done],
    });
  }
  if (gone.length > 0) await pool.query(`DELETE FROM "PushSubscription" WHERE "id" = ANY($1::text[])`, [gone]);
  const waiting = outcomes.find(({ outcome }) => outcome.kind === "refused_for_now" || outcome.kind === "unreachable")?.outcome;
  if (waiting && (waiting.kind === "refused_for_now" || waiting.kind === "unreachable")) return waiting;
  if (done.length > 0) return { kind: "sent" };
  const { rowCount } = await pool.query(`SELECT 1 FROM "PushSent" WHERE "messageId" = $1 LIMIT 1`, [messageId]);
  if (rowCount) return { kind: "sent" };
  return {
    kind: "dropped",
    error: outcomes.map(({ outcome }) => ("error" in outcome ? outcome.error : `device gone (${outcome.kind})`)).join("; "),
  };
}
