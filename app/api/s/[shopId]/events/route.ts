import { listRoute, local } from "@/lib/tables/list-route.server";
import { eventsSchema, listWebhookEvents } from "@/features/webhooks";

// The event log table's data: the shop's events only.
export const GET = listRoute("events.view", eventsSchema.parse, (shop, filters) => local(listWebhookEvents(shop.id, filters)));
