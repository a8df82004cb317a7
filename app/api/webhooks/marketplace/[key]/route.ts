import { answerWebhookDelivery } from "@/features/webhooks";

// The platform's webhook deliveries (spec: Events). Authorised by the signature, not a session:
// the path key finds the seller, whose access token signs the body.
export async function POST(request: Request, { params }: RouteContext<"/api/webhooks/marketplace/[key]">) {
  const { key } = await params;
  return answerWebhookDelivery(key, request);
}
