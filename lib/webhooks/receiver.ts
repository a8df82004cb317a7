import "server-only";
import { createHash } from "node:crypto";
import { insertWebhookEvent } from "@/lib/data/webhook-store";
import { allWebhookReceivers, findWebhookReceiver } from "@/lib/data/sellers";
import { WEBHOOK_SIGNATURE_HEADER } from "@/lib/marketplace/schemas/webhook";
import { parseWebhookBody } from "@/lib/webhooks/parse";
import type { WebhookFields } from "@/lib/webhooks/parse";
import { verifyWebhookSignatureWithAny } from "@/lib/webhooks/signature";

/**
 * The connected seller whose key signed the body, other than `except`; null when none did,
 * undefined when the sellers could not be read.
 */
async function findSignerAmongSellers(rawBody: Uint8Array, header: string | null, except: string): Promise<string | null | undefined> {
  let receivers;
  try {
    receivers = await allWebhookReceivers();
  } catch {
    return undefined;
  }
  for (const candidate of receivers) {
    if (candidate.sellerId !== except && verifyWebhookSignatureWithAny(rawBody, header, candidate.signingKeys) === "valid") return candidate.sellerId;
  }
  return null;
}

/** What processing needs of a stored event, handed over without reading it back. */
export type StoredEvent = WebhookFields & { id: string; sellerId: string; valid: boolean };

/** Larger bodies are refused before any hashing (the spec's messages are a few hundred bytes). */
export const MAX_WEBHOOK_BODY_BYTES = 64 * 1024;

/** Request headers kept with an event, for the event log's detail view. */
const KEPT_HEADERS = ["content-type", "content-length", "user-agent", WEBHOOK_SIGNATURE_HEADER.toLowerCase(), "x-request-id"];

export type ReceiveOutcome =
  | { status: 200; duplicate: boolean; event: StoredEvent; claimedBy: string | null }
  | { status: 401 | 404 | 410 | 413 | 503; error: string };

/** Reads the body up to `limit` bytes; null when it is longer (the rest is not read). */
export async function readBodyWithLimit(request: Request, limit: number): Promise<Uint8Array | null> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) return null;
  if (!request.body) return new Uint8Array(0);
  // A declared length within the cap: the body cannot grow past it (the HTTP parser enforces
  // Content-Length), so read it whole. Only chunked bodies are counted as they stream.
  if (Number.isFinite(declared)) return new Uint8Array(await request.arrayBuffer());
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

/**
 * The receiver's whole job before acknowledging (spec: Events → Signature, Receiver guidance):
 * cap the body, find the seller by the path key, check the signature over the raw bytes in
 * constant time (with the seller's current token, or the one a reconnect replaced within its
 * grace period; failing those, with another connected seller's: that seller's event), then commit
 * the event (deduplicated). Only a committed event gets a 2xx; a database failure answers 503 so
 * the platform retries. Processing happens after the response, by the instance `claimant` names
 * when the event is written (null: any instance's sweep).
 */
export async function receiveWebhook(webhookKey: string, request: Request, claimant: () => string | null): Promise<ReceiveOutcome> {
  const rawBody = await readBodyWithLimit(request, MAX_WEBHOOK_BODY_BYTES);
  if (rawBody === null) return { status: 413, error: `The body exceeds ${MAX_WEBHOOK_BODY_BYTES} bytes` };

  let receiver: Awaited<ReturnType<typeof findWebhookReceiver>>;
  try {
    receiver = await findWebhookReceiver(webhookKey);
  } catch {
    return { status: 503, error: "The receiver is temporarily unavailable" };
  }
  if (!receiver) return { status: 404, error: "Unknown receiver" };
  // The seller's token can no longer be read (the encryption key changed): nothing can be verified
  // until they reconnect. 410 rather than 503: retrying will not help.
  if (receiver.unreadable) return { status: 410, error: "This receiver's connection must be renewed: the seller has to reconnect" };

  const header = request.headers.get(WEBHOOK_SIGNATURE_HEADER);
  let sellerId = receiver.sellerId;
  const signature = verifyWebhookSignatureWithAny(rawBody, header, receiver.signingKeys);
  if (signature === "mismatch") {
    // Signed by another seller of this dashboard: the platform keeps one callback URL per
    // application, and delivers every seller's notifications to it (spec: Webhook callback URL).
    const signer = await findSignerAmongSellers(rawBody, header, receiver.sellerId);
    if (signer === undefined) return { status: 503, error: "The receiver is temporarily unavailable" };
    if (signer === null) return { status: 401, error: "Invalid signature" };
    sellerId = signer;
  } else if (signature !== "valid") {
    return { status: 401, error: signature === "missing" ? "Missing signature" : "Invalid signature" };
  }

  const text = Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength).toString("utf8");
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = request.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  const parsed = parseWebhookBody(text);
  const claimedBy = claimant();
  try {
    const stored = await insertWebhookEvent({
      sellerId,
      receivedAt: new Date(),
      rawBody: text,
      bodyHash: createHash("sha256").update(rawBody).digest("hex"),
      headers,
      parsed,
      claimedBy,
    });
    const { invalidReason: _reason, ...fields } = parsed;
    return { status: 200, duplicate: stored.duplicate, event: { ...fields, id: stored.id, sellerId }, claimedBy };
  } catch (error) {
    console.error(`[webhooks] could not store an event: ${error instanceof Error ? error.message : String(error)}`);
    return { status: 503, error: "The event could not be stored; retry later" };
  }
}
