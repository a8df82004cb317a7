import "server-only";
import { createHash } from "node:crypto";
import { findWebhookReceiver, findWebhookSigner } from "@/features/webhooks/receive/receivers.server";
import { countMisSignedForeign, ownersOfNamedResource, recentlyConnectedShops } from "@/features/webhooks/receive/signers.server";
import { insertWebhookEvent } from "@/features/webhooks/store.server";
import { env } from "@/lib/env";
import { requestLog } from "@/lib/log.server";
import { WEBHOOK_SIGNATURE_HEADER } from "@marketplace/api/schemas/webhook";
import { metrics } from "@/lib/metrics.server";
import type { WebhookOutcomeLabel } from "@/lib/metrics.server";
import { FailureLimit } from "@/features/webhooks/process/failure-limit";
import { parseWebhookBody } from "@/features/webhooks/parse";
import type { ParsedWebhook, StoredEvent, WebhookFields } from "@/features/webhooks/parse";
import { verifyWebhookSignatureWithAny } from "@marketplace/api/signature";

// A body its URL's seller did not sign is forged or another shop's (decision 0004, "Whose
// notification is it"); either way it must cost about what a valid body costs, so the search is bounded.

const failures = new FailureLimit(env.WEBHOOK_FAILED_SIGNATURES_PER_MINUTE);

/** Most recent last: where the next search looks first. */
const recentSigners = new Set<string>();
const RECENT_SIGNERS_KEPT = 256;

function rememberSigner(shopId: string) {
  recentSigners.delete(shopId);
  recentSigners.add(shopId);
  if (recentSigners.size > RECENT_SIGNERS_KEPT) recentSigners.delete(recentSigners.values().next().value!);
}

const lastWarnedAt = new Map<string, number>();

/** One log line per receiver and minute at most: the count on the Webhooks page says how many. */
function warnMisSignedForeign(request: Request, shopId: string, fields: WebhookFields) {
  const now = Date.now();
  if ((lastWarnedAt.get(shopId) ?? 0) > now - 60_000) return;
  if (lastWarnedAt.size > 10_000) lastWarnedAt.clear();
  lastWarnedAt.set(shopId, now);
  requestLog(request, { shopId, component: "webhooks" }).warn(
    `the receiver refused a body signed with another key that names another shop's ${fields.orderId ? "order" : "SKU"}: ` +
      "if the platform sends every shop's notifications to one URL, set MARKETPLACE_CALLBACK_SCOPE=application",
  );
}

type SignerSearch = { signer: string } | { refused: "invalid" | "limited" } | { unavailable: true };

/** A database failure while looking is "unavailable" (503: the platform retries). */
async function findOtherSigner(
  request: Request,
  webhookKey: string,
  rawBody: Uint8Array,
  header: string | null,
  keyedShop: string,
  parsed: ParsedWebhook,
): Promise<SignerSearch> {
  if (!failures.take(webhookKey)) return { refused: "limited" };
  try {
    const owners = await ownersOfNamedResource(parsed);
    if (env.MARKETPLACE_CALLBACK_SCOPE === "user") {
      if (owners.length > 0 && !owners.includes(keyedShop)) {
        await countMisSignedForeign(keyedShop);
        warnMisSignedForeign(request, keyedShop, parsed);
      }
      return { refused: "invalid" };
    }
    const tried = new Set([keyedShop]);
    const candidates = [...owners, ...[...recentSigners].reverse(), ...(await recentlyConnectedShops(env.WEBHOOK_SIGNER_SEARCH_LIMIT))];
    let searched = 0;
    for (const candidate of candidates) {
      if (tried.has(candidate)) continue;
      // The owners of what the body names are always tried; the rest count against the limit.
      const isOwner = owners.includes(candidate);
      if (!isOwner && searched >= env.WEBHOOK_SIGNER_SEARCH_LIMIT) break;
      if (!isOwner) searched++;
      tried.add(candidate);
      const signer = await findWebhookSigner(candidate);
      if (signer && verifyWebhookSignatureWithAny(rawBody, header, signer.signingKeys) === "valid") {
        failures.giveBack(webhookKey);
        rememberSigner(candidate);
        return { signer: candidate };
      }
    }
    return { refused: "invalid" };
  } catch {
    failures.giveBack(webhookKey);
    return { unavailable: true };
  }
}

/** Larger bodies are refused before any hashing (the spec's messages are a few hundred bytes). */
export const MAX_WEBHOOK_BODY_BYTES = 64 * 1024;

const KEPT_HEADERS = ["content-type", "content-length", "user-agent", WEBHOOK_SIGNATURE_HEADER.toLowerCase(), "x-request-id"];

export type ReceiveOutcome =
  | { status: 200; duplicate: boolean; event: StoredEvent; claimedBy: string | null; heldUntil: Date | null }
  | { status: 401 | 404 | 410 | 413 | 503; error: string }
  | { status: 429; error: string; retryAfterSeconds: number };

/** Null when longer than `limit` (the rest is not read). */
export async function readBodyWithLimit(request: Request, limit: number): Promise<Uint8Array | null> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) return null;
  if (!request.body) return new Uint8Array(0);
  // The HTTP parser enforces Content-Length, so only chunked bodies are counted as they stream.
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
 * Only a committed event gets a 2xx; a database failure answers 503 so the platform retries
 * (spec: Receiver guidance). `claimant` names the instance that will process it (null: any sweep).
 */
export async function receiveWebhook(
  webhookKey: string,
  request: Request,
  claimant: () => string | null,
  /** When it was received: the replay limit counts copies by its minute. Tests pin it. */
  now: () => Date = () => new Date(),
): Promise<ReceiveOutcome> {
  const started = performance.now();
  const outcome = await receive(webhookKey, request, claimant, now);
  metrics.webhookRequests.observe({ outcome: webhookOutcome(outcome) }, (performance.now() - started) / 1000);
  return outcome;
}

export function webhookOutcome(outcome: ReceiveOutcome): WebhookOutcomeLabel {
  switch (outcome.status) {
    case 200:
      if (outcome.duplicate) return "duplicate";
      if (outcome.heldUntil) return "held";
      return outcome.event.valid ? "accepted" : "invalid";
    case 401:
      return "unauthorized";
    case 404:
      return "not_found";
    case 410:
      return "gone";
    case 413:
      return "too_large";
    case 429:
      return "rate_limited";
    case 503:
      return "unavailable";
  }
}

async function receive(webhookKey: string, request: Request, claimant: () => string | null, now: () => Date): Promise<ReceiveOutcome> {
  const rawBody = await readBodyWithLimit(request, MAX_WEBHOOK_BODY_BYTES);
  if (rawBody === null) return { status: 413, error: `The body exceeds ${MAX_WEBHOOK_BODY_BYTES} bytes` };

  let receiver: Awaited<ReturnType<typeof findWebhookReceiver>>;
  try {
    receiver = await findWebhookReceiver(webhookKey);
  } catch {
    return { status: 503, error: "The receiver is temporarily unavailable" };
  }
  if (!receiver) return { status: 404, error: "Unknown receiver" };
  // Nothing can be verified until the seller reconnects: 410, since retrying will not help.
  if (receiver.unreadable) return { status: 410, error: "This receiver's connection must be renewed: the seller has to reconnect" };

  const header = request.headers.get(WEBHOOK_SIGNATURE_HEADER);
  const signature = verifyWebhookSignatureWithAny(rawBody, header, receiver.signingKeys);
  if (signature === "missing" || signature === "malformed") {
    return { status: 401, error: signature === "missing" ? "Missing signature" : "Invalid signature" };
  }

  const text = Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength).toString("utf8");
  const parsed = parseWebhookBody(text);
  let shopId = receiver.shopId;
  if (signature === "mismatch") {
    const search = await findOtherSigner(request, webhookKey, rawBody, header, receiver.shopId, parsed);
    if ("unavailable" in search) return { status: 503, error: "The receiver is temporarily unavailable" };
    if ("refused" in search) {
      return search.refused === "limited"
        ? {
            status: 429,
            error: "Too many notifications with an invalid signature at this address; retry later",
            retryAfterSeconds: failures.secondsLeft(),
          }
        : { status: 401, error: "Invalid signature" };
    }
    shopId = search.signer;
  }

  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = request.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  const claimedBy = claimant();
  try {
    const stored = await insertWebhookEvent({
      sellerId: shopId,
      receivedAt: now(),
      rawBody: text,
      bodyHash: createHash("sha256").update(rawBody).digest("hex"),
      headers,
      parsed,
      claimedBy,
    });
    const { invalidReason: _reason, ...fields } = parsed;
    return {
      status: 200,
      duplicate: stored.duplicate,
      event: { ...fields, id: stored.id, sellerId: shopId },
      claimedBy: stored.heldUntil ? null : claimedBy,
      heldUntil: stored.heldUntil,
    };
  } catch (error) {
    requestLog(request, { shopId, component: "webhooks" }).error({ err: error }, "could not store an event");
    return { status: 503, error: "The event could not be stored; retry later" };
  }
}
