import "server-only";
import { enqueueProcessing, processingClaimant } from "@/features/webhooks/process/process.server";
import { receiveWebhook } from "@/features/webhooks/receive/receiver.server";

// The answer to one of the platform's webhook deliveries (spec: Events), for the receiver route
// (app/api/webhooks/marketplace/[key]/route.ts) and the tests that call it with a pinned clock.

/**
 * Every answer is a few bytes: `no-transform` keeps Next from gzipping it (it compresses any route
 * answer whose length it does not know), which cost more CPU than the answer itself.
 */
const ANSWER_HEADERS = { "Cache-Control": "no-store, no-transform" };

/** `now`: when it was received (the replay limit counts copies by its minute). */
export async function answerWebhookDelivery(key: string, request: Request, now?: () => Date): Promise<Response> {
  const outcome = await receiveWebhook(key, request, processingClaimant, now);
  if (outcome.status === 429) {
    return Response.json(
      { error: outcome.error },
      { status: 429, headers: { ...ANSWER_HEADERS, "Retry-After": String(outcome.retryAfterSeconds) } },
    );
  }
  if (outcome.status !== 200) return Response.json({ error: outcome.error }, { status: outcome.status, headers: ANSWER_HEADERS });

  // Committed, and claimed by this instance: acknowledge now; it is processed off the request, in
  // batches (features/webhooks/process/process.server.ts). A held replay waits for the end of its minute.
  if (!outcome.duplicate && outcome.claimedBy) enqueueProcessing(outcome.event);
  return Response.json(
    { received: true, duplicate: outcome.duplicate, ...(outcome.heldUntil ? { heldUntil: outcome.heldUntil.toISOString() } : {}) },
    { headers: ANSWER_HEADERS },
  );
}
