import { enqueueProcessing, processingClaimant } from "@/lib/webhooks/process.server";
import { receiveWebhook } from "@/lib/webhooks/receiver.server";

// The platform's webhook deliveries (spec: Events). Authorised by the signature, not a session:
// the path key finds the seller, whose access token signs the body.

/**
 * Every answer is a few bytes: `no-transform` keeps Next from gzipping it (it compresses any route
 * answer whose length it does not know), which cost more CPU than the answer itself.
 */
const ANSWER_HEADERS = { "Cache-Control": "no-store, no-transform" };

export async function POST(request: Request, { params }: RouteContext<"/api/webhooks/marketplace/[key]">) {
  const { key } = await params;
  const outcome = await receiveWebhook(key, request, processingClaimant);
  if (outcome.status === 429) {
    return Response.json(
      { error: outcome.error },
      { status: 429, headers: { ...ANSWER_HEADERS, "Retry-After": String(outcome.retryAfterSeconds) } },
    );
  }
  if (outcome.status !== 200) return Response.json({ error: outcome.error }, { status: outcome.status, headers: ANSWER_HEADERS });

  // Committed, and claimed by this instance: acknowledge now; it is processed off the request, in
  // batches (lib/webhooks/process.server.ts). A held replay waits for the end of its minute.
  if (!outcome.duplicate && outcome.claimedBy) enqueueProcessing(outcome.event);
  return Response.json(
    { received: true, duplicate: outcome.duplicate, ...(outcome.heldUntil ? { heldUntil: outcome.heldUntil.toISOString() } : {}) },
    { headers: ANSWER_HEADERS },
  );
}
