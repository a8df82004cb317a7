// Webhook signatures as the spec gives them (Events → Signature): the header holds the Base64
// encoding of HMAC-SHA256 over the request body, keyed with the integrator's access token. Written
// here on its own rather than imported from the dashboard, so the kit checks the platform against
// the spec, not against our own reading of it.
import { createHmac, timingSafeEqual } from "node:crypto";
import { WEBHOOK_SIGNATURE_HEADER } from "@marketplace/api/schemas/webhook";

export { WEBHOOK_SIGNATURE_HEADER };

export function signBody(body: Buffer | string, token: string): string {
  return createHmac("sha256", token).update(body).digest("base64");
}

export type SignatureVerdict = { valid: true } | { valid: false; reason: string };

function equal(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Whether `header` signs `body` with `token`; when not, the likeliest mistake. */
export function verifySignature(body: Buffer, header: string | string[] | undefined, token: string): SignatureVerdict {
  if (header === undefined || header === "") return { valid: false, reason: `no ${WEBHOOK_SIGNATURE_HEADER} header` };
  if (Array.isArray(header)) return { valid: false, reason: `${header.length} ${WEBHOOK_SIGNATURE_HEADER} headers` };
  const value = header.trim();
  if (equal(value, signBody(body, token))) return { valid: true };

  const hex = createHmac("sha256", token).update(body).digest("hex");
  if (equal(value.toLowerCase(), hex)) return { valid: false, reason: "the signature is hexadecimal, not Base64" };
  const prefixed = /^([a-z0-9_-]+)=(.+)$/i.exec(value);
  if (prefixed?.[2] && equal(prefixed[2], signBody(body, token))) {
    return { valid: false, reason: `the signature carries a prefix (${prefixed[1]}=)` };
  }
  try {
    const reserialized = JSON.stringify(JSON.parse(body.toString("utf8")));
    if (equal(value, signBody(reserialized, token)))
      return { valid: false, reason: "the signature is over re-serialized JSON, not the body as sent" };
  } catch {
    // Not JSON: nothing else to try.
  }
  return { valid: false, reason: "it is not Base64(HMAC-SHA256(body, access token)) with this token" };
}
