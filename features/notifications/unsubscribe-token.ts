// One-click unsubscribe (RFC 8058, issue 41): a link that works without signing in and stops one
// kind of notification, by e-mail, for one person in one shop. What it names is signed, so it
// cannot be edited into another person's, kind's or shop's link. Pure: the key is passed in.
import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { isNotificationKind } from "@/features/notifications/kinds";
import type { NotificationKind } from "@/features/notifications/kinds";

export interface UnsubscribeTarget {
  personId: string;
  shopId: string;
  kind: NotificationKind;
}

const VERSION = "u1";
const payloadSchema = z.tuple([z.string().min(1).max(64), z.string().min(1).max(64), z.string().refine(isNotificationKind)]);

function signature(payload: string, key: Buffer): Buffer {
  return createHmac("sha256", key).update(`${VERSION}.${payload}`).digest();
}

export function unsubscribeToken(target: UnsubscribeTarget, key: Buffer): string {
  const payload = Buffer.from(JSON.stringify([target.personId, target.shopId, target.kind])).toString("base64url");
  return `${VERSION}.${payload}.${signature(payload, key).toString("base64url")}`;
}

/** Null for anything not signed with `key` as it stands. */
export function readUnsubscribeToken(token: string, key: Buffer): UnsubscribeTarget | null {
  const [version, payload, mac, ...rest] = token.split(".");
  if (version !== VERSION || !payload || !mac || rest.length > 0 || token.length > 512) return null;
  const given = Buffer.from(mac, "base64url");
  const expected = signature(payload, key);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  const result = payloadSchema.safeParse(parsed);
  if (!result.success) return null;
  const [personId, shopId, kind] = result.data;
  return { personId, shopId, kind: kind as NotificationKind };
}
