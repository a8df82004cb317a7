import { signWebhookBody } from "@marketplace/api/signature";

/**
 * Delivers a notification to the real receiver route as the platform would: `signWith` signs the
 * body (or `signature` gives the header as is); `now` pins when it is received. The route module is imported on first use, after
 * the test's database is set (useTestDatabase).
 */
export async function deliverToReceiver(
  webhookKey: string,
  body: string | Uint8Array,
  options: { signWith?: string; signature?: string | null; headers?: Record<string, string>; now?: () => Date } = {},
): Promise<Response> {
  const headers = new Headers({ "content-type": "application/json", ...options.headers });
  const signature = options.signWith !== undefined ? signWebhookBody(body, options.signWith) : options.signature;
  if (signature) headers.set("X-SVC-Signature", signature);
  const request = new Request(`http://localhost/api/webhooks/marketplace/${webhookKey}`, {
    method: "POST",
    headers,
    body: Buffer.from(body),
  });
  // With a pinned clock, the route's own answer (answerWebhookDelivery) is called as the route does.
  if (options.now) {
    const { answerWebhookDelivery } = await import("@/features/webhooks/receive/delivery.server");
    return answerWebhookDelivery(webhookKey, request, options.now);
  }
  const { POST } = await import("@/app/api/webhooks/marketplace/[key]/route");
  return POST(request, { params: Promise.resolve({ key: webhookKey }) });
}
