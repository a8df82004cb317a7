import { listRoute, local } from "@/lib/data/list-route";
import { listWebhookEvents } from "@/lib/data/webhook-events";
import { eventsSchema } from "@/lib/webhooks/event-filters";

// The event log table's data: the signed-in seller's events only.
export const GET = listRoute(eventsSchema.parse, (seller, filters) => local(listWebhookEvents(seller.id, filters)));
