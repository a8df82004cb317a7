import { listRoute, local } from "@/lib/data/list-route.server";
import { listWebhookEvents } from "@/lib/data/webhook-events.server";
import { eventsSchema } from "@/lib/webhooks/event-filters";

// The event log table's data: the shop's events only.
export const GET = listRoute("events.view", eventsSchema.parse, (seller, filters) => local(listWebhookEvents(seller.id, filters)));
