import "server-only";
import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import { DB_NOW, pool } from "@/lib/pg-pool.server";
import { attentionCauseOf } from "@/lib/shops/shop-attention";
import { env } from "@/lib/env";
import { log } from "@/lib/log.server";
import { metrics } from "@/lib/metrics.server";
import { nextAttemptDelaySeconds } from "@/lib/backoff";
import type { RetryPolicy } from "@/lib/backoff";
import { isRole } from "@/lib/people/roles";
import { fanOutNotifications } from "@/features/notifications/fan-out.server";
import { channelsOn } from "@/features/notifications/channels.server";
import { isNotificationKind } from "@/features/notifications/kinds";
import { composeMail } from "@/features/notifications/mail/compose.server";
import type { ComposedMail, MailTarget } from "@/features/notifications/mail/compose.server";
import type { NotificationKind } from "@/features/notifications/kinds";
import type { Role } from "@/lib/people/roles";
import { pushPayload, sendPushMessage } from "@/features/notifications/push/push-message.server";
import { composeInvitationMail } from "@/features/notifications/mail/invitation-mail.server";
import { digestFigures, tellDueDigests } from "@/features/notifications/digest.server";
import { pruneNotifications } from "@/features/notifications/prune.server";
import { classifySmtpError, closeMailTransport, sendMail, SMTP_TIMEOUT_MS } from "@/features/notifications/mail/transport.server";

// Sending (issue 41): the outbox is NotificationMessage, claimed as the webhook queue's rows are
// (decision 0004): SKIP LOCKED, the claim's lease in `dueAt`, times on the database's clock. Any
// number of instances send; a message is held by one at a time, so two never send it at once.
// At least once: an instance that dies after the server accepted a message but before recording it
// leaves it to be sent again when the lease ends; the e-mail keeps its Message-ID (the message's
// id), by which mail services fold the copy.

/** Longer than a send can take (every SMTP wait is bounded), so a lease ends only when its instance died. */
const LEASE_SECONDS = Math.ceil((3 * SMTP_TIMEOUT_MS) / 1000);
const BATCH = 50;
const SENDS_IN_FLIGHT = 8;
const IDLE_POLL_MS = 500;

export const DELIVERY_INSTANCE_ID = `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;

const retryPolicy = (): RetryPolicy => ({
  maxAttempts: env.NOTIFY_MAX_ATTEMPTS,
  baseSeconds: env.NOTIFY_RETRY_BASE_SECONDS,
  capSeconds: 1_800,
});

interface ClaimedMessage {
  id: string;
  personId: string;
  shopId: string;
  kind: string;
  channel: string;
  subject: string | null;
  count: number;
  attempts: number;
  personName: string;
  address: string | null;
  locale: string | null;
  role: string | null;
  shopName: string;
  orderTotal: number | null;
  currency: string | null;
  normalizer: number | null;
  itemCount: number | null;
  customerName: string | null;
  reference: number | null;
  /** An invitation's e-mail: where it goes, its encrypted link, and whether it can still be used. */
  inviteAddress: string | null;
  inviteLinkEnc: string | null;
  inviteRole: string | null;
  inviteExpiresAt: Date | null;
  inviteOpen: boolean | null;
  /** A "member.joined" message's newcomer: their name and role now (null once they left). */
  memberName: string | null;
  memberRole: string | null;
  timeZone: string;
}

type Outcome = { channel?: string } & (
  | { id: string; state: "sent" }
  | { id: string; state: "retrying"; error: string; retryInSeconds: number }
  | { id: string; state: "failed" | "dropped"; error: string }
);

/** Locked once, then found by id, as the events' queue is claimed (CLAIM_DUE in features/webhooks/process/queue.server.ts). */
export const OUTBOX_CLAIM = {
  name: "notification_outbox_claim",
  text: `
    WITH claimed AS (
      UPDATE "NotificationMessage" SET "claimedBy" = $1, "dueAt" = ${DB_NOW} + make_interval(secs => $2)
      WHERE "id" = ANY(ARRAY(
        SELECT "id" FROM "NotificationMessage"
        WHERE "state" = 'waiting' AND "dueAt" < ${DB_NOW} AND "channel" = ANY($4::text[])
        ORDER BY "dueAt" LIMIT $3
        FOR UPDATE SKIP LOCKED
      ))
      RETURNING *
    )
    SELECT c."id", c."personId", c."sellerId" AS "shopId", c."kind", c."channel", c."subject", c."count", c."attempts",
           p."name" AS "personName", coalesce(p."platformEmail", p."marketplaceEmail") AS "address", p."locale",
           m."role", s."name" AS "shopName",
           o."total" AS "orderTotal", o."currency", o."normalizer", o."itemCount", o."customerName", r."number" AS "reference",
           i."email" AS "inviteAddress", i."linkEnc" AS "inviteLinkEnc", i."role" AS "inviteRole", i."expiresAt" AS "inviteExpiresAt",
           (i."acceptedAt" IS NULL AND i."revokedAt" IS NULL AND i."expiresAt" > ${DB_NOW}) AS "inviteOpen",
           j."name" AS "memberName", jm."role" AS "memberRole", s."timeZone"
    FROM claimed c
    JOIN "Person" p ON p."id" = c."personId"
    JOIN "Seller" s ON s."id" = c."sellerId"
    LEFT JOIN "Membership" m ON m."personId" = c."personId" AND m."sellerId" = c."sellerId"
    LEFT JOIN "OrderMirror" o ON o."sellerId" = c."sellerId" AND o."orderId" = c."subject"
    LEFT JOIN "OrderReference" r ON r."sellerId" = c."sellerId" AND r."orderId" = c."subject"
    LEFT JOIN "Invitation" i ON c."kind" = 'invitation' AND i."id" = c."subject"
    LEFT JOIN "Person" j ON c."kind" = 'member.joined' AND j."id" = c."subject"
    LEFT JOIN "Membership" jm ON jm."personId" = j."id" AND jm."sellerId" = c."sellerId"`,
};

/** Only this instance's claims are recorded; one whose lease ran out belongs to whoever took it. */
const FINISH = {
  name: "notification_outbox_finish",
  text: `
    UPDATE "NotificationMessage" x SET
      "state" = CASE WHEN o.state = 'retrying' THEN 'waiting' ELSE o.state END,
      "claimedBy" = NULL,
      "attempts" = x."attempts" + CASE WHEN o.state = 'dropped' THEN 0 ELSE 1 END,
      "lastError" = o.error,
      "dueAt" = CASE WHEN o.state = 'retrying' THEN ${DB_NOW} + make_interval(secs => o."retryInSeconds") ELSE x."dueAt" END,
      "sentAt" = CASE WHEN o.state = 'sent' THEN ${DB_NOW} ELSE x."sentAt" END
    FROM json_to_recordset($1::json) AS o(id text, state text, error text, "retryInSeconds" float8)
    WHERE x."id" = o.id AND x."claimedBy" = $2`,
};

async function claimDue(instanceId: string): Promise<ClaimedMessage[]> {
  const on = channelsOn();
  const channels = (["email", "push"] as const).filter((channel) => on[channel]);
  if (channels.length === 0) return [];
  const result = await pool.query<ClaimedMessage>({ ...OUTBOX_CLAIM, values: [instanceId, LEASE_SECONDS, BATCH, channels] });
  return result.rows;
}

type SendResult =
  | { kind: "sent" }
  | { kind: "dropped"; error: string }
  | { kind: "refused"; error: string }
  | { kind: "refused_for_now" | "unreachable"; error: string; retryAfterSeconds?: number };

function mailTarget(
  message: ClaimedMessage,
  role: Role,
  kind: NotificationKind,
  digest: MailTarget["digest"],
): Omit<MailTarget, "address"> {
  const order =
    message.subject && message.orderTotal !== null && message.currency !== null && message.normalizer !== null
      ? {
          id: message.subject,
          reference: message.reference,
          total: message.orderTotal,
          currency: message.currency,
          normalizer: message.normalizer,
          itemCount: message.itemCount ?? 0,
          customerName: message.customerName ?? "",
        }
      : null;
  return {
    messageId: message.id,
    personId: message.personId,
    personName: message.personName,
    locale: message.locale,
    role,
    shopId: message.shopId,
    shopName: message.shopName,
    kind,
    count: message.count,
    order,
    member: message.memberName !== null && isRole(message.memberRole) ? { name: message.memberName, role: message.memberRole } : null,
    digest,
    attention: kind === "shop.attention" ? attentionCauseOf(message.subject) : null,
  };
}

async function sendEmail(message: ClaimedMessage, target: Omit<MailTarget, "address">): Promise<SendResult> {
  if (!message.address) return { kind: "dropped", error: "the person has no e-mail address" };
  // Composing fails only on our side (sendOne's caller handles it); sending is the server's.
  return handOver(await composeMail({ ...target, address: message.address }));
}

async function handOver(mail: ComposedMail): Promise<SendResult> {
  try {
    await sendMail(mail);
    return { kind: "sent" };
  } catch (error) {
    return classifySmtpError(error);
  }
}

async function sendInvitation(message: ClaimedMessage): Promise<SendResult> {
  if (!message.inviteOpen || !message.inviteAddress || !message.inviteLinkEnc || !isRole(message.inviteRole) || !message.inviteExpiresAt) {
    return { kind: "dropped", error: "the invitation was accepted, revoked or has expired" };
  }
  return handOver(
    await composeInvitationMail({
      messageId: message.id,
      invitationId: message.subject!,
      address: message.inviteAddress,
      linkEnc: message.inviteLinkEnc,
      role: message.inviteRole,
      expiresAt: message.inviteExpiresAt,
      inviterName: message.personName,
      locale: message.locale,
      shopName: message.shopName,
    }),
  );
}

async function sendOne(message: ClaimedMessage): Promise<Outcome> {
  // Left the shop, or the role's copy cannot be written: nothing is sent, at once.
  if (!isRole(message.role)) return { id: message.id, state: "dropped", error: "no longer a member of the shop" };
  if (message.kind === "invitation") return outcomeOf(message, await sendInvitation(message));
  if (!isNotificationKind(message.kind)) return { id: message.id, state: "dropped", error: `unknown kind ${message.kind}` };
  const digest =
    message.kind === "digest" && message.subject
      ? { day: message.subject, figures: await digestFigures({ id: message.shopId, timeZone: message.timeZone }) }
      : null;
  const target = mailTarget(message, message.role, message.kind, digest);
  let result: SendResult;
  if (message.channel === "email") result = await sendEmail(message, target);
  else if (message.channel === "push") result = await sendPushMessage(message.id, message.personId, pushPayload(target));
  else result = { kind: "dropped", error: `no sender for ${message.channel}` };
  return outcomeOf(message, result);
}

/** A failure of our own (composing, a query): logged, and retried like a refusal, so it ends as "failed", never lost or looping. */
function unexpected(message: ClaimedMessage, error: unknown): Outcome {
  log.error({ component: "notifications", messageId: message.id, err: error }, "a notification could not be prepared");
  return outcomeOf(message, { kind: "refused_for_now", error: "the dashboard could not prepare it" });
}

function outcomeOf(message: ClaimedMessage, result: SendResult): Outcome {
  switch (result.kind) {
    case "sent":
      return { id: message.id, state: "sent" };
    case "dropped":
      return { id: message.id, state: "dropped", error: result.error };
    case "refused":
      return { id: message.id, state: "failed", error: result.error };
    default: {
      // A server that cannot be reached costs no attempt: its messages wait for it, backing off.
      const attempt = message.attempts + 1;
      const policy = retryPolicy();
      const delay =
        result.kind === "unreachable"
          ? nextAttemptDelaySeconds({ ...policy, maxAttempts: Number.POSITIVE_INFINITY }, Math.min(attempt, 20), undefined)
          : nextAttemptDelaySeconds(policy, attempt, result.retryAfterSeconds);
      if (delay === null) return { id: message.id, state: "failed", error: result.error };
      return { id: message.id, state: "retrying", error: result.error, retryInSeconds: delay };
    }
  }
}

async function finish(instanceId: string, outcomes: readonly Outcome[]) {
  await pool.query({ ...FINISH, values: [JSON.stringify(outcomes), instanceId] });
  for (const outcome of outcomes) {
    metrics.notificationMessages.inc({ channel: outcome.channel, outcome: outcome.state });
    if (outcome.state === "failed")
      log.warn({ component: "notifications", messageId: outcome.id, error: outcome.error }, "a notification could not be sent");
  }
}

/** Digests are looked for once a minute per instance (each person's is written once a day). */
const DIGEST_CHECK_MS = 60_000;
let lastDigestCheck = 0;

/** What was sent is pruned once an hour per instance (./prune.server.ts). */
const PRUNE_EVERY_MS = 60 * 60_000;
let lastPrune = 0;

async function tellDigestsEveryMinute() {
  if (Date.now() - lastDigestCheck < DIGEST_CHECK_MS) return;
  lastDigestCheck = Date.now();
  await tellDueDigests();
  if (Date.now() - lastPrune >= PRUNE_EVERY_MS) {
    lastPrune = Date.now();
    await pruneNotifications();
  }
}

/** One round: fan out what waits, then send what is due. Answers whether there was work. */
export async function deliverOnce(instanceId = DELIVERY_INSTANCE_ID): Promise<boolean> {
  const fannedOut = await fanOutNotifications();
  const claimed = await claimDue(instanceId);
  if (claimed.length > 0) {
    const outcomes: Outcome[] = [];
    let next = 0;
    const worker = async () => {
      while (next < claimed.length) {
        const message = claimed[next++]!;
        outcomes.push({ ...(await sendOne(message).catch((error: unknown) => unexpected(message, error))), channel: message.channel });
      }
    };
    await Promise.all(Array.from({ length: Math.min(SENDS_IN_FLIGHT, claimed.length) }, worker));
    await finish(instanceId, outcomes);
  }
  return fannedOut > 0 || claimed.length > 0;
}

interface DeliveryLoop {
  stopped: boolean;
  timer: NodeJS.Timeout | null;
  round: Promise<void> | null;
}

const state = globalThis as unknown as { notificationDelivery?: DeliveryLoop };

/** Runs rounds back to back while there is work, every IDLE_POLL_MS otherwise. */
export function startNotificationDelivery() {
  if (state.notificationDelivery && !state.notificationDelivery.stopped) return;
  const loop: DeliveryLoop = { stopped: false, timer: null, round: null };
  state.notificationDelivery = loop;
  const tick = () => {
    loop.timer = null;
    if (loop.stopped) return;
    loop.round = tellDigestsEveryMinute()
      .then(() => deliverOnce())
      .catch((error: unknown) => {
        log.error({ component: "notifications", err: error }, "a delivery round failed; it is tried again");
        return false;
      })
      .then((busy) => {
        loop.round = null;
        if (!loop.stopped) loop.timer = setTimeout(tick, busy ? 0 : IDLE_POLL_MS);
      });
  };
  loop.timer = setTimeout(tick, 0);
}

/** Finishes the round under way (its sends are bounded), then stops. */
export async function stopNotificationDelivery() {
  const loop = state.notificationDelivery;
  if (!loop) return;
  loop.stopped = true;
  if (loop.timer) clearTimeout(loop.timer);
  await loop.round;
  closeMailTransport();
}

/** What the processes hand their instance (instrumentation.ts, scripts/worker.ts). */
export const notificationDelivery = { start: startNotificationDelivery, stop: stopNotificationDelivery };
