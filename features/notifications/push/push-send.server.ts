import "server-only";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import webpush from "web-push";
import { env } from "@/lib/env";
import { checkedAddresses, pinnedLookup } from "@/lib/network/outbound.server";
import type { AddressKind } from "@marketplace/network-policy";

// Sending one push message to one device (Web Push, RFC 8030/8291/8292, issue 41). The endpoint is
// a URL any signed-in person handed over, so it is called only if the network policy allows it:
// https to public addresses (checked and pinned, lib/network/outbound.server.ts), no redirects, an
// answer read up to 4 kB, 10 s in all. The payload is encrypted for that device by web-push.

export const PUSH_TIMEOUT_MS = 10_000;
const MAX_ANSWER_BYTES = 4_096;
/** What push services accept in one message (RFC 8291 leaves 4,096 bytes with the record overhead). */
export const MAX_PAYLOAD_BYTES = 3_000;

export interface PushDevice {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export type PushOutcome =
  | { kind: "sent" }
  /** 404/410: the subscription is gone for good; remove it. */
  | { kind: "gone"; status: number }
  /** Refused by the policy or the service for this message; another attempt will not help. */
  | { kind: "refused"; error: string }
  | { kind: "refused_for_now"; error: string; retryAfterSeconds?: number }
  | { kind: "unreachable"; error: string };

const allowLocal = () => env.PUSH_ALLOW_LOCAL_ENDPOINTS === "1";

/** Null when the endpoint may be called; else why not (before any DNS lookup). */
export function endpointRefusal(endpoint: string): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return "not a URL";
  }
  if (endpoint.length > 2_048) return "longer than 2,048 characters";
  if (url.username || url.password) return "carries credentials";
  if (url.protocol === "https:") return null;
  if (url.protocol === "http:" && allowLocal()) return null;
  return "not https";
}

const addressAllowed = (kind: AddressKind) => kind === "public" || (allowLocal() && (kind === "loopback" || kind === "private"));

export async function sendPush(device: PushDevice, payload: string): Promise<PushOutcome> {
  const refusal = endpointRefusal(device.endpoint);
  if (refusal) return { kind: "refused", error: `push endpoint refused: ${refusal}` };
  if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) return { kind: "refused", error: "push payload too large" };
  const url = new URL(device.endpoint);
  const addresses = await checkedAddresses(url, addressAllowed);
  if ("reason" in addresses) {
    return addresses.reason === "private_address"
      ? { kind: "refused", error: "push endpoint refused: not a public address" }
      : { kind: "unreachable", error: "push service not reachable (its name did not resolve)" };
  }
  const details = webpush.generateRequestDetails(
    { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
    payload,
    {
      vapidDetails: { subject: env.VAPID_SUBJECT, publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY },
      TTL: 24 * 3_600,
      urgency: "high",
    },
  );
  return new Promise<PushOutcome>((resolve) => {
    const request = (url.protocol === "https:" ? httpsRequest : httpRequest)(url, {
      method: "POST",
      headers: details.headers as Record<string, string | number>,
      lookup: pinnedLookup(addresses),
      // The whole exchange, answer included: an abort is an error, handled below.
      signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
    });
    request.on("error", (error: NodeJS.ErrnoException) =>
      resolve({ kind: "unreachable", error: `push service not reachable${error.code ? ` (${error.code})` : ""}` }),
    );
    request.on("response", (response) => {
      let read = 0;
      response.on("data", (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) response.destroy();
      });
      response.on("error", () => undefined);
      response.on("close", () => {
        const status = response.statusCode ?? 0;
        if (status >= 200 && status < 300) resolve({ kind: "sent" });
        else if (status === 404 || status === 410) resolve({ kind: "gone", status });
        else if (status === 429 || status >= 500) {
          const retryAfter = Number(response.headers["retry-after"]);
          resolve({
            kind: "refused_for_now",
            error: `push service answered ${status}`,
            ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {}),
          });
        } else resolve({ kind: "refused", error: `push service answered ${status}` });
      });
      response.resume();
    });
    request.end(details.body ?? undefined);
  });
}
