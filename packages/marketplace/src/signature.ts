import { createHmac, timingSafeEqual } from "node:crypto";

// Spec, Events → Signature: the header holds Base64(HMAC-SHA256(request body, access token)).
// The HMAC is computed over the raw bytes received, never over re-serialized JSON.
const DIGEST_BYTES = 32;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export function signWebhookBody(rawBody: Uint8Array | string, key: string): string {
  return createHmac("sha256", key).update(rawBody).digest("base64");
}

export type SignatureCheck = "valid" | "missing" | "malformed" | "mismatch";

/**
 * Checks a webhook signature in constant time. A header that is not Base64 of exactly 32 bytes
 * is rejected before any comparison, so timingSafeEqual always compares equal-length buffers.
 */
export function verifyWebhookSignature(rawBody: Uint8Array, header: string | null | undefined, key: string): SignatureCheck {
  return verifyWebhookSignatureWithAny(rawBody, header, [key]);
}

/** As verifyWebhookSignature, valid when any of `keys` signed the body (each compared in constant time). */
export function verifyWebhookSignatureWithAny(
  rawBody: Uint8Array,
  header: string | null | undefined,
  keys: readonly string[],
): SignatureCheck {
  if (header === null || header === undefined || header.trim() === "") return "missing";
  const value = header.trim();
  if (!BASE64.test(value)) return "malformed";
  const received = Buffer.from(value, "base64");
  if (received.length !== DIGEST_BYTES) return "malformed";
  // Every key is tried, matching or not, so the time taken does not tell which one matched.
  let valid = false;
  for (const key of keys) {
    if (timingSafeEqual(received, createHmac("sha256", key).update(rawBody).digest())) valid = true;
  }
  return valid ? "valid" : "mismatch";
}
