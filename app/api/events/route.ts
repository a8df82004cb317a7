import { listRoute, local } from "@/lib/data/list-route";
import { listWebhookEvents } from "@/lib/data/webhook-events";
import { eventFiltersFromSearchParams } from "@/lib/webhooks/event-filters";

// The event log table's data: the signed-in seller's events only.
export const GET = listRoute(eventFiltersFromSearchParams, (seller, filters) => local(listWebhookEvents(seller.id, filters)));
